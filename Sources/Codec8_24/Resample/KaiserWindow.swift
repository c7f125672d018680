import RealModule

/// Kaiser's window family and his empirical length formula (J. F. Kaiser, "Nonrecursive digital filter design
/// using the I0-sinh window function", 1974), used to size and shape the resampler's prototype low-pass filter.
/// Design-time only (`Double`); nothing here runs per sample.
enum KaiserWindow {
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

    /// The window the resampler uses: Kaiser's with its pedestal removed and a (1 − x²)^¼ taper,
    /// (I0(β·√(1−x²)) − 1) / (I0(β) − 1) · (1 − x²)^¼. Kaiser's own window ends on a step of 1/I0(β) (about
    /// −70 dB for β ≈ 10), and a step makes the sidelobes fall only 6 dB per octave, so images far above the
    /// stopband edge (a 1 kHz tone's, at multiples of the input rate) stay near −110 dB. This window goes to zero
    /// like (1 − x²)^1.25, so it and its slope are continuous at the ends and the far sidelobes fall much faster
    /// (−145 dB and below for a 1 kHz tone, see BENCHMARKS.md), while the first sidelobe at the same length
    /// stays as low (β 10.4 here against Kaiser's 10.06 for 100 dB).
    static func taperedValue(atNormalizedPosition position: Double, beta: Double, besselI0OfBeta: Double) -> Double {
        let r = 1 - position * position
        guard r > 0 else { return 0 }
        return (besselI0(beta * r.squareRoot()) - 1) / (besselI0OfBeta - 1) * r.squareRoot().squareRoot()
    }
}
