import HAL

/// What the hardware runs at now: the current values a session reads (AVAudioSession's sampleRate,
/// ioBufferDuration, input and output channel counts).
public struct HardwareSettings: Hashable, Sendable, CustomStringConvertible {
    public var sampleRate: Int
    /// Frames per PCM period.
    public var ioBufferFrames: Int
    public var outputChannels: Int
    /// Zero while no session captures.
    public var inputChannels: Int

    public init(sampleRate: Int, ioBufferFrames: Int, outputChannels: Int, inputChannels: Int = 0) {
        self.sampleRate = sampleRate
        self.ioBufferFrames = ioBufferFrames
        self.outputChannels = outputChannels
        self.inputChannels = inputChannels
    }

    /// The period's length at the sample rate.
    public var ioBufferDuration: Duration {
        .nanoseconds(Int64(ioBufferFrames) * 1_000_000_000 / Int64(max(sampleRate, 1)))
    }

    public var description: String {
        "\(sampleRate) Hz, period \(ioBufferFrames) frames, \(outputChannels) out / \(inputChannels) in"
    }
}
