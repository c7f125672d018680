/// Why a codec operation failed: what was asked, what the chip can do instead, and what to check.
public enum CodecError: Error, Hashable, Sendable, CustomStringConvertible {
    /// A transfer of a recipe step failed on the bus.
    case transferFailed(recipe: String, step: CodecStep, I2CError)
    /// The clock plan cannot make `rate` exactly from `mclk` (0: no MCLK, the PLL runs from BCLK);
    /// `supported` lists the rates it can.
    case unsupportedRate(codec: String, rate: Int, mclk: Int, supported: [Int])
    /// The master clock is outside what the chip's dividers and PLL accept.
    case unsupportedMasterClock(codec: String, mclk: Int, reason: String)
    /// The chip has no such output (or input).
    case unsupportedOutput(codec: String, CodecOutput, hint: String)
    case unsupportedInput(codec: String, CodecInput, hint: String)
    /// A word length the interface cannot carry.
    case unsupportedWordLength(codec: String, bits: Int, supported: [Int])
    /// An operation that needs the stream format before it (power-up before configure).
    case notConfigured(codec: String, operation: String)
    /// A value that is not a number (NaN volume or gain).
    case invalidGain(Double)
    /// The chip did not answer as this codec would (no acknowledge, or read-back values that are not its
    /// reset values, for chips without an ID register): `evidence` says what happened, `hint` what to check.
    case notIdentified(codec: String, evidence: String, hint: String)
    /// The bit clock the codec would make (or needs) does not fit the I2S frame the board runs.
    case frameMismatch(codec: String, frame: I2SFrame, reason: String)

    public var description: String {
        switch self {
        case .transferFailed(let recipe, let step, let error):
            return "\(recipe): step '\(step.reason)' failed: \(error)"
        case .unsupportedRate(let codec, let rate, let mclk, let supported):
            let list = supported.isEmpty ? "none" : supported.map(String.init).joined(separator: ", ")
            let clock = mclk == 0 ? "BCLK (no MCLK)" : "a \(Self.megahertz(mclk)) MCLK"
            return "the \(codec) cannot make \(rate) Hz exactly from \(clock); rates it can make: "
                + "\(list) Hz. Pick one of those, or resample in software"
        case .unsupportedMasterClock(let codec, let mclk, let reason):
            return "the \(codec) cannot run from a \(Self.megahertz(mclk)) MCLK: \(reason). Check the board file's mclk"
        case .unsupportedOutput(let codec, let output, let hint):
            return "the \(codec) has no \(output) output: \(hint)"
        case .unsupportedInput(let codec, let input, let hint):
            return "the \(codec) has no \(input) input: \(hint)"
        case .unsupportedWordLength(let codec, let bits, let supported):
            return "the \(codec) cannot carry \(bits)-bit words; use "
                + supported.map(String.init).joined(separator: ", ") + " bits"
        case .notConfigured(let codec, let operation):
            return "\(operation) of the \(codec) needs a stream format first: call configure(_:) (clocks come "
                + "before analog power)"
        case .invalidGain(let value):
            return "\(value) is not a gain in dB"
        case .notIdentified(let codec, let evidence, let hint):
            return "no \(codec) found: \(evidence). \(hint)"
        case .frameMismatch(let codec, let frame, let reason):
            return "the \(codec) cannot run the board's I2S frame (\(frame)): \(reason). Check the board file's i2s block"
        }
    }

    /// `12.288 MHz`, `24 MHz`.
    static func megahertz(_ hertz: Int) -> String {
        var text = String(hertz / 1_000_000)
        let fraction = hertz % 1_000_000
        if fraction != 0 {
            var digits = String(fraction)
            digits = String(repeating: "0", count: 6 - digits.count) + digits
            while digits.hasSuffix("0") { digits.removeLast() }
            text += "." + digits
        }
        return text + " MHz"
    }
}
