/// Where the codec's analog output goes.
public enum CodecOutput: String, Hashable, Sendable, CaseIterable, CustomStringConvertible {
    case headphones
    case speaker
    case line

    public var description: String { rawValue }
}

/// Where the codec's ADC takes its signal from.
public enum CodecInput: String, Hashable, Sendable, CaseIterable, CustomStringConvertible {
    /// A microphone on the board or the jack (needs mic bias, boost and PGA gain).
    case microphone
    case line
    /// The microphone ring of a 4-pole headset jack.
    case headsetMicrophone

    public var description: String { rawValue }
}

/// How the I2S words are framed.
public enum CodecInterfaceFormat: String, Hashable, Sendable {
    /// Philips I2S: MSB one BCLK after the LRCLK edge, left channel while LRCLK is low.
    case i2s
    case leftJustified
    case rightJustified
}

/// Who drives BCLK and LRCLK.
public enum CodecClockRole: String, Hashable, Sendable {
    /// The SoC drives the bit and frame clocks; the codec follows (it still needs MCLK for its SYSCLK).
    case consumer
    /// The codec derives BCLK and LRCLK from its SYSCLK (the Waveshare WM8960 HAT's wiring).
    case provider
}

/// The stream the codec's digital interface carries.
public struct CodecStreamFormat: Hashable, Sendable, CustomStringConvertible {
    public var sampleRate: Int
    public var wordLength: Int
    public var format: CodecInterfaceFormat
    public var role: CodecClockRole
    /// The frame the Pi's I2S runs (the board's `i2s:`), which sets BCLK: the codec clocks the same one.
    public var frame: I2SFrame

    public init(sampleRate: Int, wordLength: Int = 16, format: CodecInterfaceFormat = .i2s,
                role: CodecClockRole = .consumer, frame: I2SFrame = .standard) {
        self.sampleRate = sampleRate
        self.wordLength = wordLength
        self.format = format
        self.role = role
        self.frame = frame
    }

    /// BCLK in Hz for this stream (nil when the frame does not divide into the rate).
    public var bitClock: Int? { frame.bitClock(rate: sampleRate) }

    public var description: String { "\(sampleRate) Hz, \(wordLength)-bit \(format.rawValue), codec \(role.rawValue)" }
}
