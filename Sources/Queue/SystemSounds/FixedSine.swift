/// The sine of a 32-bit phase by integer arithmetic only, so a synthesized sound is the same bits on every
/// machine (libm's `sin` may differ in the last place between platforms; integer math cannot).
///
/// The phase runs over one turn as 0 ..< 2^32. The quarter wave sin(π/2·t), t in [0, 1], is the Taylor
/// series of sine through t^13 in Q30 (odd terms, Horner form, 64-bit products): its truncation error at
/// t = 1 is (π/2)^15/15! ≈ 6.7e-10 and the coefficients' rounding adds about 3e-9, well under one 8.24 LSB
/// (6e-8). The other quarters follow by symmetry.
enum FixedSine {
    /// Fraction bits of `value(phase:)`.
    static let fractionBits = 30
    /// Phase of a quarter turn.
    static let quarterTurn: UInt32 = 1 << 30

    /// (-1)^k·(π/2)^(2k+1)/(2k+1)! rounded to Q30, for k = 0 ... 6.
    private static let c1: Int64 = 1_686_629_713
    private static let c3: Int64 = -693_598_668
    private static let c5: Int64 = 85_569_306
    private static let c7: Int64 = -5_026_995
    private static let c9: Int64 = 172_272
    private static let c11: Int64 = -3_864
    private static let c13: Int64 = 61

    /// sin(2π·phase/2^32) in Q30 (±2^30 is ±1).
    @inline(__always)
    static func value(phase: UInt32) -> Int64 {
        let quadrant = phase >> 30
        let within = phase & (quarterTurn &- 1)
        // Quadrants 1 and 3 run the quarter wave backwards; 2 and 3 are negative.
        let t = Int64(quadrant & 1 == 0 ? within : quarterTurn &- within)
        let magnitude = quarterWave(t)
        return quadrant >= 2 ? -magnitude : magnitude
    }

    /// sin(π/2·t) for t in Q30, 0 ... 2^30.
    @inline(__always)
    static func quarterWave(_ t: Int64) -> Int64 {
        let t2 = (t &* t) &>> 30
        var p = c13
        p = c11 &+ ((p &* t2) &>> 30)
        p = c9 &+ ((p &* t2) &>> 30)
        p = c7 &+ ((p &* t2) &>> 30)
        p = c5 &+ ((p &* t2) &>> 30)
        p = c3 &+ ((p &* t2) &>> 30)
        p = c1 &+ ((p &* t2) &>> 30)
        return (p &* t) &>> 30
    }

    /// The phase step per frame of a `hertz` tone at `sampleRate`: round(hertz·2^32/sampleRate).
    static func phaseIncrement(hertz: Int, sampleRate: Int) -> UInt32 {
        let wide = (Int64(hertz) << 32 + Int64(sampleRate / 2)) / Int64(sampleRate)
        return UInt32(truncatingIfNeeded: wide)
    }
}
