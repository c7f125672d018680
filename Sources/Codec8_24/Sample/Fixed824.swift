/// A sample in the 8.24 fixed-point canonical format of the first iPhone OS audio units: an `Int32` with
/// 8 integer bits (sign included) and 24 fractional bits, so `1.0` is `1 << 24`.
///
/// Full scale is ±1.0; the 7 spare integer bits give about 42 dB of headroom for mixing and EQ boosts,
/// and the arithmetic is exact integer math, so a render is bit-identical on x86_64 and aarch64.
/// The operators saturate at the format's range instead of wrapping: a mix that overflows clips, it never
/// flips sign. Kernels that need speed keep their own 64-bit accumulators and saturate once at the end.
@frozen
public struct Fixed824: Hashable, Comparable, Sendable {
    /// The raw two's-complement value; `raw / 2^24` is the sample's value.
    public var raw: Int32

    @inlinable @inline(__always)
    public init(raw: Int32) { self.raw = raw }

    /// Number of fractional bits.
    public static let fractionBits = 24
    /// `1.0` as a raw value.
    public static let unityRaw: Int32 = 1 << 24

    public static let zero = Fixed824(raw: 0)
    /// `1.0`, digital full scale.
    public static let one = Fixed824(raw: unityRaw)
    /// The largest value, just under `+128.0`.
    public static let max = Fixed824(raw: .max)
    /// The smallest value, `-128.0`.
    public static let min = Fixed824(raw: .min)

    @inlinable
    public static func < (lhs: Fixed824, rhs: Fixed824) -> Bool { lhs.raw < rhs.raw }
}

// MARK: - Saturating arithmetic

extension Fixed824 {
    /// Clamps a 64-bit intermediate to the 8.24 range.
    @inlinable @inline(__always)
    public static func saturating(_ wide: Int64) -> Fixed824 {
        Fixed824(raw: Int32(truncatingIfNeeded: Swift.min(Swift.max(wide, Int64(Int32.min)), Int64(Int32.max))))
    }

    /// Shifts a 64-bit value right by `shift` bits, rounding half up (towards +infinity), as fixed-point DSP
    /// conventionally does: add half an LSB of the result, then shift arithmetically.
    @inlinable @inline(__always)
    public static func roundingShift(_ wide: Int64, by shift: Int) -> Int64 {
        (wide &+ (Int64(1) &<< (shift &- 1))) &>> shift
    }

    /// Saturating sum.
    @inlinable @inline(__always)
    public static func + (lhs: Fixed824, rhs: Fixed824) -> Fixed824 {
        saturating(Int64(lhs.raw) &+ Int64(rhs.raw))
    }

    /// Saturating difference.
    @inlinable @inline(__always)
    public static func - (lhs: Fixed824, rhs: Fixed824) -> Fixed824 {
        saturating(Int64(lhs.raw) &- Int64(rhs.raw))
    }

    /// Saturating negation (`-(-128.0)` is the largest value, not `-128.0`).
    @inlinable @inline(__always)
    public static prefix func - (value: Fixed824) -> Fixed824 {
        saturating(-Int64(value.raw))
    }

    /// Saturating product, rounded to nearest.
    @inlinable @inline(__always)
    public static func * (lhs: Fixed824, rhs: Fixed824) -> Fixed824 {
        saturating(roundingShift(Int64(lhs.raw) &* Int64(rhs.raw), by: fractionBits))
    }

    @inlinable @inline(__always)
    public static func += (lhs: inout Fixed824, rhs: Fixed824) { lhs = lhs + rhs }

    @inlinable @inline(__always)
    public static func -= (lhs: inout Fixed824, rhs: Fixed824) { lhs = lhs - rhs }

    @inlinable @inline(__always)
    public static func *= (lhs: inout Fixed824, rhs: Fixed824) { lhs = lhs * rhs }

    /// The magnitude, saturating for `-128.0`.
    @inlinable
    public var magnitude: Fixed824 { raw < 0 ? -self : self }
}

extension Fixed824: CustomStringConvertible {
    public var description: String { "\(doubleValue)" }
}
