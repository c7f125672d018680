/// Conversions between 8.24 and the integer and float sample formats that files, ALSA and I2S use.
///
/// Widening conversions (Int16, 24-bit into 8.24) are exact shifts. Narrowing ones round to nearest
/// and saturate at the target's full scale, which is where clipping belongs: at the device boundary.
/// Float conversions treat ±1.0 as full scale, like Core Audio's float canonical format; NaN becomes 0.
extension Fixed824 {
    // MARK: Int16 (S16): 1.0 = 1 << 15, so 8.24 is the 16-bit value shifted left by 9.

    @inlinable @inline(__always)
    public init(int16 value: Int16) { raw = Int32(value) &<< 9 }

    /// Rounded to nearest and saturated to `Int16.min ... Int16.max`.
    @inlinable @inline(__always)
    public var int16: Int16 {
        let rounded = (raw &>> 8 &+ 1) &>> 1    // (raw + 256) >> 9 without overflowing at Int32.max
        return Int16(truncatingIfNeeded: Swift.min(Swift.max(rounded, Int32(Int16.min)), Int32(Int16.max)))
    }

    // MARK: 24-bit (S24): 1.0 = 1 << 23, a left shift by 1.

    /// From a 24-bit sample held in the low 24 bits of an `Int32` (already sign-extended or not: bits 24...31
    /// are ignored), as ALSA's S24_LE "24 in 32" format carries it.
    @inlinable @inline(__always)
    public init(int24 value: Int32) { raw = (value &<< 8) &>> 7 }

    /// Rounded to nearest and saturated to the 24-bit range, sign-extended into an `Int32`.
    @inlinable @inline(__always)
    public var int24: Int32 {
        let rounded = Int32(truncatingIfNeeded: (Int64(raw) &+ 1) &>> 1)
        return Swift.min(Swift.max(rounded, -(1 << 23)), (1 << 23) - 1)
    }

    /// From three little-endian bytes (packed S24_3LE), as WAV and AIFF (big-endian there) store 24-bit audio.
    @inlinable @inline(__always)
    public init(packed24LittleEndian b0: UInt8, _ b1: UInt8, _ b2: UInt8) {
        self.init(int24: Int32(b0) | Int32(b1) &<< 8 | Int32(b2) &<< 16)
    }

    // MARK: Int32 (S32): 1.0 = 1 << 31, a right shift by 7 with rounding.

    @inlinable @inline(__always)
    public init(int32 value: Int32) {
        raw = Int32(truncatingIfNeeded: (Int64(value) &+ 64) &>> 7)
    }

    /// Exact (a left shift by 7), saturated to `Int32.min ... Int32.max` beyond full scale.
    @inlinable @inline(__always)
    public var int32: Int32 {
        Int32(truncatingIfNeeded: Swift.min(Swift.max(Int64(raw) &<< 7, Int64(Int32.min)), Int64(Int32.max)))
    }

    // MARK: Float and Double: 1.0 is full scale.

    /// Rounded to nearest (ties to even) and saturated to the 8.24 range; NaN becomes 0.
    @inlinable @inline(__always)
    public init(_ value: Double) { raw = Self.roundedSaturatedRaw(value * 16_777_216.0) }

    /// Rounded to nearest (ties to even) and saturated to the 8.24 range; NaN becomes 0.
    @inlinable @inline(__always)
    public init(_ value: Float) { raw = Self.roundedSaturatedRaw(Double(value) * 16_777_216.0) }

    /// `scaled` rounded to the nearest integer (ties to even) and clamped to `Int32`; NaN gives 0.
    ///
    /// Branch- and trap-free so buffer conversions vectorize: after clamping, adding 1.5·2⁵² leaves the rounded
    /// integer in the low 32 bits of the double's bit pattern (the FPU's round-to-nearest-even does the
    /// rounding, the same on x86_64 and aarch64). `Int32(_: Double)` would check its range on every sample.
    @inlinable @inline(__always)
    static func roundedSaturatedRaw(_ scaled: Double) -> Int32 {
        let clamped = Swift.min(Swift.max(scaled, -2_147_483_648.0), 2_147_483_647.0)
        let safe = clamped.isNaN ? 0 : clamped
        return Int32(truncatingIfNeeded: (safe + 6_755_399_441_055_744.0).bitPattern)
    }

    /// The exact value as a `Double`.
    @inlinable @inline(__always)
    public var doubleValue: Double { Double(raw) * (1.0 / 16_777_216.0) }

    /// The value as a `Float` (exact within ±1.0, rounded beyond).
    @inlinable @inline(__always)
    public var floatValue: Float { Float(raw) * (1.0 / 16_777_216.0) }
}
