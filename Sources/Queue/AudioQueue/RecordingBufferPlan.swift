import HAL

/// How many buffers an input queue needs, and how big, so the disk never makes it drop frames: sized from
/// the writer's measured write latency, not from hope (DESIGN.md, "Threads and real time").
///
/// How: a buffer of `D` seconds goes to the writer when full; the writer holds it for its write (at worst
/// `W`, the slowest write seen) and, before that, up to one poll of the callback thread (`P`) passes before
/// it is even delivered. All that time the capture keeps filling buffers, so `ceil(margin × (W + P) / D)`
/// empty ones must be waiting, besides the one being written and the one being filled. The margin (1.5 by
/// default) covers a write slower than any seen so far (SD cards stall in bursts); never fewer than three
/// buffers, as in Apple's recording examples.
public struct RecordingBufferPlan: Sendable, Hashable, CustomStringConvertible {
    public var bufferCount: Int
    /// Bytes per buffer: whole packets of the format.
    public var bufferByteSize: Int
    /// Frames one buffer holds.
    public var framesPerBuffer: Int

    public init(bufferCount: Int, bufferByteSize: Int, framesPerBuffer: Int) {
        self.bufferCount = bufferCount
        self.bufferByteSize = bufferByteSize
        self.framesPerBuffer = framesPerBuffer
    }

    /// The plan for buffers of at least `bufferDuration` seconds of `format` that covers a write latency of
    /// `worstLatency` plus a callback poll of `pollInterval`, times `margin`.
    public static func covering(worstLatency: Duration, pollInterval: Duration, bufferDuration: Double,
                                format: StreamFormat, margin: Double = 1.5) -> RecordingBufferPlan {
        let framesWanted = max(1, Int((bufferDuration * format.sampleRate).rounded(.up)))
        let packets = (framesWanted + format.framesPerPacket - 1) / format.framesPerPacket
        let frames = packets * format.framesPerPacket
        let seconds = Double(frames) / format.sampleRate
        let waited = margin * Double((worstLatency + pollInterval).nanoseconds) / 1e9
        let waiting = Int((waited / seconds).rounded(.up))
        return RecordingBufferPlan(bufferCount: max(3, waiting + 2), bufferByteSize: packets * format.bytesPerPacket,
                                   framesPerBuffer: frames)
    }

    public var description: String { "\(bufferCount) buffers of \(framesPerBuffer) frames (\(bufferByteSize) bytes)" }
}
