/// Why an output chain configuration was refused: each case names the field and the range it must be in.
public enum OutputChainError: Error, Hashable, Sendable, CustomStringConvertible {
    /// The sample rate is not a positive, finite number of hertz.
    case invalidSampleRate(Double)
    /// `maximumFrames` must be at least 1 (the size of every buffer the chain preallocates).
    case invalidMaximumFrames(Int)
    /// The mixer needs 1 ... `Mixer.maximumInputs` inputs.
    case invalidInputCount(Int)
    /// A mixer input must be mono (1) or stereo (2).
    case invalidInputChannels(input: Int, channels: Int)
    /// The device side carries 1 ... `SampleConversion.maxChannels` channels.
    case invalidOutputChannels(Int)
    /// A ramp length cannot be negative.
    case invalidRampFrames(Int)

    public var description: String {
        switch self {
        case .invalidSampleRate(let rate):
            return "output chain: sample rate \(rate) Hz is not a positive finite rate"
        case .invalidMaximumFrames(let frames):
            return "output chain: maximumFrames \(frames) must be at least 1 (the preallocated buffer size)"
        case .invalidInputCount(let count):
            return "output chain: \(count) mixer inputs; the mixer takes 1 ... \(Mixer.maximumInputs)"
        case .invalidInputChannels(let input, let channels):
            return "output chain: mixer input \(input) has \(channels) channels; inputs are mono (1) or stereo (2)"
        case .invalidOutputChannels(let channels):
            return "output chain: \(channels) device channels; the chain maps stereo to 1 ... \(SampleConversion.maxChannels)"
        case .invalidRampFrames(let frames):
            return "output chain: gain ramp of \(frames) frames; use 0 (at once) or more"
        }
    }
}
