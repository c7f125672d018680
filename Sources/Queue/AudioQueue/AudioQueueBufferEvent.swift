/// One completion stage of a buffer, as an output queue reports it to its callback. Each enqueued buffer
/// passes the stages in order (the three completion types of AVAudioPlayerNode, core-audio-2014-2017.md
/// B.1.5): `consumed` (its data is decoded; the buffer is the caller's again, to refill and enqueue),
/// `rendered` (its last frame has passed through the engine), `played` (its last frame has left the codec,
/// device latency included). A buffer discarded by a reset or stop is reported `consumed` with `discarded`
/// set, and has no later stages.
public struct AudioQueueBufferEvent: Sendable, Hashable {
    public enum Stage: Int, Sendable, Hashable, Comparable {
        case consumed, rendered, played

        public static func < (a: Stage, b: Stage) -> Bool { a.rawValue < b.rawValue }
    }

    public let stage: Stage
    /// For `rendered` and `played`: the device-timeline frame at which the buffer's last frame plays.
    public let lastFrame: Int64?
    /// The buffer was thrown away (reset, stop immediately) before it was consumed.
    public let discarded: Bool

    public init(stage: Stage, lastFrame: Int64? = nil, discarded: Bool = false) {
        self.stage = stage
        self.lastFrame = lastFrame
        self.discarded = discarded
    }
}
