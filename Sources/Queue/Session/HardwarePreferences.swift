/// What a session would like the hardware to run at. Nil: no preference (keep the device's setting).
/// Requests, not orders: the values granted are in `HardwareSettings`.
public struct HardwarePreferences: Hashable, Sendable {
    public var sampleRate: Int?
    /// The IO buffer duration: the PCM period, the latency of one render cycle.
    public var ioBufferDuration: Duration?

    public init(sampleRate: Int? = nil, ioBufferDuration: Duration? = nil) {
        self.sampleRate = sampleRate
        self.ioBufferDuration = ioBufferDuration
    }
}
