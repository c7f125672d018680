import RealModule

/// Kaiser's window and his empirical design formulas (J. F. Kaiser, "Nonrecursive digital filter design using
/// the I0-sinh window function", 1974), used to size the resampler's prototype low-pass filter.
/// Design-time only (`Double`); nothing here runs per sample.
enum KaiserWindow {
    /// The shape parameter β that gives `attenuation` dB of stopband rejection (valid above 50 dB).
    static func beta(forAttenuation attenuation: Double) -> Double {
        if attenuation > 50 { return 0.1102 * (attenuation - 8.7) }
        if attenuation >= 21 {
            return 0.5842 * Double.pow(attenuation - 21, 0.4) + 0.07886 * (attenuation - 21)
        }
        return 0
    }

    /// The filter order (length − 1) that reaches `attenuation` dB with a transition band of
    /// `transitionWidth` cycles per sample (0...0.5).
    static func order(forAttenuation attenuation: Double, transitionWidth: Double) -> Double {
        (attenuation - 7.95) / (2.285 * 2 * Double.pi * transitionWidth)
    }

    /// The zeroth-order modified Bessel function of the first kind, by its power series
    /// Σ ((x/2)^k / k!)², summed until the terms stop mattering in `Double`.
    static func besselI0(_ x: Double) -> Double {
        let halfSquare = (x / 2) * (x / 2)
        var sum = 1.0
        var term = 1.0
        var k = 1.0
        while true {
            term *= halfSquare / (k * k)
            sum += term
            if term < sum * 1e-17 { return sum }
            k += 1
        }
    }

    /// The window value at `position`, measured from the window centre in units of the half-length:
    /// −1 and +1 are the end points, 0 the middle.
    static func value(atNormalizedPosition position: Double, beta: Double) -> Double {
        value(atNormalizedPosition: position, beta: beta, besselI0OfBeta: besselI0(beta))
    }

    /// As above with I0(β) precomputed, for filling long windows.
    static func value(atNormalizedPosition position: Double, beta: Double, besselI0OfBeta: Double) -> Double {
        let r = 1 - position * position
        guard r > 0 else { return r == 0 ? 1 / besselI0OfBeta : 0 }
        return besselI0(beta * r.squareRoot()) / besselI0OfBeta
    }
}
