/// A rate change `output/input` as the reduced fraction `interpolation/decimation` (L/M): conceptually the
/// input is upsampled by L (zeros stuffed), low-pass filtered, and every M-th sample kept.
///
/// 44.1 kHz to 48 kHz is 160/147; 11.025 kHz to 96 kHz is 1280/147.
public struct ConversionRatio: Hashable, Sendable {
    /// L: the upsampling factor, also the number of polyphase filter phases.
    public let interpolation: Int
    /// M: the downsampling factor, the phase step per output frame.
    public let decimation: Int

    /// The reduced ratio for converting `inputHertz` to `outputHertz`.
    public init(inputHertz: Int, outputHertz: Int) {
        precondition(inputHertz > 0 && outputHertz > 0, "sample rates must be positive")
        let divisor = ConversionRatio.greatestCommonDivisor(inputHertz, outputHertz)
        interpolation = outputHertz / divisor
        decimation = inputHertz / divisor
    }

    /// True when input and output rates are equal, so conversion is a plain copy.
    public var isIdentity: Bool { interpolation == decimation }

    static func greatestCommonDivisor(_ a: Int, _ b: Int) -> Int {
        var (x, y) = (a, b)
        while y != 0 { (x, y) = (y, x % y) }
        return x
    }
}

extension ConversionRatio {
    /// An upper bound on the output frames `frames` input frames can produce from any converter state:
    /// ceil((frames+1)·L/M), or `frames` for equal rates.
    public func maximumOutputFrames(forInputFrames frames: Int) -> Int {
        if isIdentity { return max(0, frames) }
        if frames < 0 { return 0 }
        return ((frames + 1) * interpolation + decimation - 1) / decimation
    }
}
