/// A biquad's coefficients quantized for the fixed-point kernel: signed Q5.58 in an `Int64`.
///
/// Why 58 fractional bits: a low-frequency biquad (31 Hz at 96 kHz) has its poles and zeros within
/// about 1e-5 of z = 1, so a coefficient error of 2⁻³¹ (Q1.30 in an `Int32`) would already move its response
/// by about 1e-4 (-80 dB). At 2⁻⁵⁹ the quantization is below `Double`'s own rounding, so the kernel realises
/// the designed filter, not a nearby one. The 5 integer bits hold every coefficient the designer makes
/// (a +24 dB shelf has |b1| ≈ 2·10^(24/20) ≈ 31.7). The feedback coefficients are stored negated so the kernel
/// only adds.
///
/// Peaking and notch designs also carry `bellGain` (`b0 - 1`) and run in the cheaper bell form
/// (see `BiquadKernel`).
@frozen
public struct BiquadFixedCoefficients: Equatable, Sendable {
    /// Fractional bits of every coefficient.
    public static let fractionBits = 58

    public var b0: Int64
    public var b1: Int64
    public var b2: Int64
    /// `-a1`.
    public var negA1: Int64
    /// `-a2`.
    public var negA2: Int64
    /// `b0 - 1`, meaningful when `isBell`.
    public var bellGain: Int64
    /// Whether the numerator is `A(z) + (b0 - 1)·(1 - z⁻²)` (peaking and notch designs), so the stage can run
    /// in the three-multiply bell form.
    public var isBell: Bool

    /// Quantizes (round to nearest) a design; values beyond ±32 saturate.
    public init(_ design: BiquadCoefficients) {
        b0 = Self.quantize(design.b0)
        b1 = Self.quantize(design.b1)
        b2 = Self.quantize(design.b2)
        negA1 = Self.quantize(-design.a1)
        negA2 = Self.quantize(-design.a2)
        let g = design.b0 - 1
        bellGain = Self.quantize(g)
        let tolerance = 1e-14
        // Below 16 (+24.6 dB for a peak), so the bell kernel can double its coefficients (`BiquadKernel`).
        let doublable = [bellGain, negA1, negA2].allSatisfy { $0.magnitude < UInt64(1) << 62 }
        isBell = abs(design.b1 - design.a1) <= tolerance && abs((design.b2 - design.a2) + g) <= tolerance && doublable
    }

    /// The identity filter.
    public static let identity = BiquadFixedCoefficients(.identity)

    /// The quantized values back in `Double` (exact).
    public var doubleValues: BiquadCoefficients {
        let scale = 1.0 / Double(Int64(1) << Self.fractionBits)
        return BiquadCoefficients(
            b0: Double(b0) * scale, b1: Double(b1) * scale, b2: Double(b2) * scale,
            a1: -Double(negA1) * scale, a2: -Double(negA2) * scale)
    }

    static func quantize(_ value: Double) -> Int64 {
        let scaled = (value * Double(Int64(1) << fractionBits)).rounded(.toNearestOrEven)
        guard scaled.isFinite else { return 0 }
        // ±32 in Q58 is ±2^63, which Int64 cannot hold; keep a margin below it.
        let limit = 9.2e18
        return Int64(Swift.min(Swift.max(scaled, -limit), limit))
    }
}
