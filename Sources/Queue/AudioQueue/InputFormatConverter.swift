import Codec8_24

/// The conversion chain of an input queue: captured 8.24 frames at the hardware's rate and channel count in,
/// whole packets of the data format asked for at creation out (linear PCM, µ-law, A-law, IMA4). As the
/// talk says of recording queues, the queue builds whatever chain the device's actual format needs:
/// channel map (`ChannelMap.map`: stereo to mono averages, mono to stereo duplicates) -> sample-rate conversion
/// (`SampleRateConverter`, when the rates differ) -> TPDF dither (16-bit integer PCM only) -> encode
/// (`PacketCodec`).
///
/// Converted frames wait in `pending` until the queue encodes them into a buffer; IMA4 leaves fewer than
/// one packet (64 frames) waiting, the other formats nothing. The converter's group delay is skipped at the
/// start and its tail drained at the end (`drainTail`), so a recording lines up with the capture and holds
/// exactly `ceil(capturedFrames × queueRate / hardwareRate)` frames (the converter's contract).
///
/// Every buffer and state is made in `init` (control thread); `accept`, `encode`, `drainTail`, `discard`
/// and `reset` never allocate, lock or make a system call, so the render thread runs them.
final class InputFormatConverter {
    /// The data format the queue delivers.
    let format: StreamFormat
    let hardwareRate: Int
    let hardwareChannels: Int
    /// The largest captured period `accept` takes.
    let maximumFrames: Int
    /// Channels of the queue's format.
    let channels: Int
    let framesPerPacket: Int
    let bytesPerPacket: Int

    private let codec: PacketCodec
    private let rateConverter: SampleRateConverter?
    private var ditherer: Ditherer?
    private let initialDitherer: Ditherer?
    /// One captured period, channel-mapped (queue channels, hardware rate).
    private let mapped: UnsafeMutablePointer<Fixed824>
    /// Converted frames waiting to be encoded: `pendingCount` frames from frame `pendingStart`.
    private let pending: UnsafeMutablePointer<Fixed824>
    private let pendingCapacity: Int
    private var pendingStart = 0
    private(set) var pendingCount = 0
    /// Converter output frames still to drop so output frame 0 is captured frame 0.
    private var latencyToSkip: Int
    /// Silence appended to complete the last packet at the end of a stream (IMA4), so far.
    private(set) var paddingFrames = 0

    /// Why `format` cannot be recorded from a capture of `hardwareChannels` at `hardwareRate`, as an error;
    /// nothing when it can. Returns the rate pair to convert between, when the rates differ.
    @discardableResult
    static func check(format: StreamFormat, hardwareRate: Int, hardwareChannels: Int) throws(StreamFormatError)
        -> (from: StandardSampleRate, to: StandardSampleRate)? {
        try format.validate()
        guard format.formatID != .microsoftIMAADPCM else {
            throw StreamFormatError("an input queue records linear PCM, mu-law, A-law or Apple IMA4; "
                                    + "Microsoft IMA ADPCM is for WAV files (record IMA4 into CAF or AIFF-C)")
        }
        let most = SampleConversion.maxChannels
        guard format.channelsPerFrame <= most, (1...most).contains(hardwareChannels) else {
            throw StreamFormatError("the conversion takes 1 ... \(most) channels to 1 ... \(most), "
                                    + "not \(hardwareChannels) to \(format.channelsPerFrame)")
        }
        let queueRate = Int(format.sampleRate.rounded())
        if Double(queueRate) != format.sampleRate {
            throw StreamFormatError("the queue's sample rate must be a whole number of Hz, not \(format.sampleRate)")
        }
        guard queueRate != hardwareRate else { return nil }
        guard let from = StandardSampleRate(hertz: hardwareRate), let to = StandardSampleRate(hertz: queueRate) else {
            let rates = StandardSampleRate.allCases.map { String($0.hertz) }.joined(separator: ", ")
            throw StreamFormatError(
                "cannot convert the hardware's \(hardwareRate) Hz to \(queueRate) Hz: both must be one of \(rates)")
        }
        return (from, to)
    }

    /// - Parameters:
    ///   - format: the queue's data format; `check` says why one cannot be recorded.
    ///   - dither: whether 16-bit integer output is dithered (TPDF); off gives plain rounding.
    init(format: StreamFormat, hardwareRate: Int, hardwareChannels: Int, maximumFrames: Int,
         dither: Bool = true) throws(StreamFormatError) {
        let rates = try Self.check(format: format, hardwareRate: hardwareRate, hardwareChannels: hardwareChannels)
        guard maximumFrames > 0 else {
            throw StreamFormatError("the capture period must be at least one frame, not \(maximumFrames)")
        }
        rateConverter = rates.map { SampleRateConverter(from: $0.from, to: $0.to, channels: format.channelsPerFrame) }
        do { codec = try PacketCodec(format: format) } catch {
            throw StreamFormatError("\(format.formatID) cannot be encoded: \(error)")
        }
        self.format = format
        self.hardwareRate = hardwareRate
        self.hardwareChannels = hardwareChannels
        self.maximumFrames = maximumFrames
        channels = format.channelsPerFrame
        framesPerPacket = format.framesPerPacket
        bytesPerPacket = format.bytesPerPacket
        let wantsDither = dither && format.isLinearPCM && !format.isFloat && format.bitsPerChannel == 16
        initialDitherer = wantsDither ? Ditherer(depth: .bits16, channelCount: format.channelsPerFrame) : nil
        ditherer = initialDitherer
        latencyToSkip = rateConverter?.latencyFrames ?? 0
        mapped = .allocate(capacity: maximumFrames * channels)
        // One period's converted output plus less than a packet left from before.
        pendingCapacity = (rateConverter?.maximumOutputFrames(forInputFrames: maximumFrames) ?? maximumFrames) + framesPerPacket
        pending = .allocate(capacity: pendingCapacity * channels)
    }

    deinit {
        mapped.deallocate()
        pending.deallocate()
    }

    /// Whole packets waiting to be encoded.
    var pendingPackets: Int { pendingCount / framesPerPacket }

    /// Takes one captured period (`frames` ≤ `maximumFrames` interleaved frames of `hardwareChannels`) into
    /// `pending`. Call only when fewer than one packet is pending (after `encode` or `discard`). Returns the
    /// period channel-mapped (queue channels, hardware rate), for the level meter.
    func accept(_ samples: UnsafePointer<Fixed824>, frames: Int) -> UnsafeBufferPointer<Fixed824> {
        let frames = min(frames, maximumFrames)
        ChannelMap.map(samples, channels: hardwareChannels, into: mapped, channels: channels, frames: frames)
        let period = UnsafeBufferPointer(start: UnsafePointer(mapped), count: frames &* channels)
        compact()
        if let rateConverter {
            var offset = 0
            while offset < frames {
                let room = pendingCapacity &- pendingCount
                let result = rateConverter.process(
                    input: UnsafeBufferPointer(start: mapped + offset &* channels, count: (frames &- offset) &* channels),
                    output: UnsafeMutableBufferPointer(start: pending + pendingCount &* channels, count: room &* channels))
                offset &+= result.consumed
                appendConverted(result.produced)
                if result.consumed == 0 && result.produced == 0 { break }
            }
        } else {
            (pending + pendingCount &* channels).update(from: mapped, count: frames &* channels)
            pendingCount &+= frames
        }
        return period
    }

    /// Encodes up to `maximumPackets` whole pending packets into `destination`; returns the packets written
    /// (`packets × bytesPerPacket` bytes).
    func encode(into destination: UnsafeMutableRawPointer, maximumPackets: Int) -> Int {
        let packets = min(maximumPackets, pendingPackets)
        guard packets > 0 else { return 0 }
        let frames = packets &* framesPerPacket
        let start = pending + pendingStart &* channels
        ditherer?.process(UnsafeMutableBufferPointer(start: start, count: frames &* channels))
        _ = codec.encode(UnsafePointer(start), frames: frames, into: destination)
        pendingStart &+= frames
        pendingCount &-= frames
        if pendingCount == 0 { pendingStart = 0 }
        return packets
    }

    /// End of the stream: moves as much of the sample-rate converter's tail into `pending` as fits, and once
    /// it is all there pads a partial last packet with silence. Returns true when nothing more is owed; else
    /// the caller encodes (or discards) what is pending and calls again.
    func drainTail() -> Bool {
        compact()
        if let rateConverter, rateConverter.pendingTailFrames > 0 {
            // Leave a packet's room for the padding below.
            let room = pendingCapacity &- framesPerPacket &- pendingCount
            guard room > 0 else { return false }
            let tail = UnsafeMutableBufferPointer(start: pending + pendingCount &* channels, count: room &* channels)
            let produced = rateConverter.drain(output: tail)
            appendConverted(produced)
            if rateConverter.pendingTailFrames > 0 { return false }
        }
        let partial = pendingCount % framesPerPacket
        if partial > 0 {
            let padding = framesPerPacket &- partial
            (pending + (pendingStart &+ pendingCount) &* channels).update(repeating: .zero, count: padding &* channels)
            pendingCount &+= padding
            paddingFrames &+= padding
        }
        return true
    }

    /// Drops everything pending (no buffer to put it in); returns the frames dropped.
    func discard() -> Int {
        let dropped = pendingCount
        pendingStart = 0
        pendingCount = 0
        return dropped
    }

    /// Back to the start of a new stream: converter history, coder state, dither and pending frames cleared.
    func reset() {
        rateConverter?.reset()
        codec.reset()
        ditherer = initialDitherer
        latencyToSkip = rateConverter?.latencyFrames ?? 0
        pendingStart = 0
        pendingCount = 0
        paddingFrames = 0
    }

    /// Counts `produced` converter frames written at the end of `pending`, dropping the group delay first.
    private func appendConverted(_ produced: Int) {
        let skipped = min(latencyToSkip, produced)
        latencyToSkip &-= skipped
        let kept = produced &- skipped
        if skipped > 0 && kept > 0 {
            let end = pending + pendingCount &* channels
            end.update(from: end + skipped &* channels, count: kept &* channels)
        }
        pendingCount &+= kept
    }

    /// Moves pending frames to the front, so the room after them is contiguous.
    private func compact() {
        guard pendingStart > 0 else { return }
        if pendingCount > 0 { pending.update(from: pending + pendingStart &* channels, count: pendingCount &* channels) }
        pendingStart = 0
    }
}
