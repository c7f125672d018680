/// Base-2 logarithm and exponential on unsigned fixed-point numbers, in integers only.
///
/// The exponential gain ramp needs the per-frame ratio `(target / start)^(1/frames)`. Computing it with
/// `Double.pow` would tie the ramp's bits to the platform's libm; doing it here in integers keeps every ramp
/// bit-identical on x86_64 and aarch64. It runs once per retarget, never per sample.
///
/// Formats: linear values are Q.48 (`1.0 == 1 << 48`, the 8.24 gain with 24 extra fraction bits); logarithms
/// are signed Q.48 (`log2 == 1.0` is `1 << 48`).
@usableFromInline
enum FixedLog2 {
    /// Fraction bits of the logarithm and of the linear values it takes.
    @usableFromInline static let fractionBits = 48

    /// `2^(2^-k)` for k = 1...48 in Q.62, rounded to nearest (mathematical constants, computed to 60 digits).
    /// A switch rather than an array so that first use on the render thread allocates nothing.
    @usableFromInline
    static func rootOfTwo(_ k: Int) -> UInt64 {
        switch k {
        case 1: return 0x5A827999FCEF3242
        case 2: return 0x4C1BF828C6DC54B8
        case 3: return 0x45CAE0F1F545EB73
        case 4: return 0x42D561B3E6243D8A
        case 5: return 0x4166C34C5615D0EC
        case 6: return 0x40B268F9DE0183BA
        case 7: return 0x4058F6A7ECCCD5B6
        case 8: return 0x402C6BE96AF2FB58
        case 9: return 0x4016321B687027A8
        case 10: return 0x400B18178BA33B14
        case 11: return 0x40058BCE410147E8
        case 12: return 0x4002C5D7BFF71DAF
        case 13: return 0x400162E807EE7E5B
        case 14: return 0x4000B1730DF6A524
        case 15: return 0x400058B9497B8152
        case 16: return 0x40002C5C955DD701
        case 17: return 0x4000162E46D6F26C
        case 18: return 0x40000B1722757B1B
        case 19: return 0x4000058B90FD3E0C
        case 20: return 0x400002C5C86F3F26
        case 21: return 0x40000162E433C79B
        case 22: return 0x400000B17218EDD0
        case 23: return 0x40000058B90C3968
        case 24: return 0x4000002C5C860D54
        case 25: return 0x400000162E4302D2
        case 26: return 0x4000000B17218073
        case 27: return 0x400000058B90BFFC
        case 28: return 0x40000002C5C85FEF
        case 29: return 0x4000000162E42FF3
        case 30: return 0x40000000B17217F9
        case 31: return 0x4000000058B90BFC
        case 32: return 0x400000002C5C85FE
        case 33: return 0x40000000162E42FF
        case 34: return 0x400000000B17217F
        case 35: return 0x40000000058B90C0
        case 36: return 0x4000000002C5C860
        case 37: return 0x400000000162E430
        case 38: return 0x4000000000B17218
        case 39: return 0x400000000058B90C
        case 40: return 0x40000000002C5C86
        case 41: return 0x4000000000162E43
        case 42: return 0x40000000000B1721
        case 43: return 0x4000000000058B91
        case 44: return 0x400000000002C5C8
        case 45: return 0x40000000000162E4
        case 46: return 0x400000000000B172
        case 47: return 0x40000000000058B9
        case 48: return 0x4000000000002C5D
        default: preconditionFailure("no root 2^(2^-k) for this k")
        }
    }

    /// `(a * b + 2^(shift-1)) >> shift` on the full 128-bit product, for `shift` in 1...127.
    /// The caller guarantees the result fits in 64 bits.
    @inlinable @inline(__always)
    static func multiplyShiftRounding(_ a: UInt64, _ b: UInt64, shift: Int) -> UInt64 {
        let (high, low) = a.multipliedFullWidth(by: b)
        if shift < 64 {
            let (roundedLow, carry) = low.addingReportingOverflow(UInt64(1) &<< UInt64(shift &- 1))
            let roundedHigh = carry ? high &+ 1 : high
            return (roundedHigh &<< UInt64(64 &- shift)) | (roundedLow &>> UInt64(shift))
        }
        if shift == 64 { return high &+ (low &>> 63) }
        let highShift = shift &- 64
        return (high &+ (UInt64(1) &<< UInt64(highShift &- 1))) &>> UInt64(highShift)
    }

    /// `log2(x)` for a Q.48 value `x > 0`, as signed Q.48, truncated: bit by bit by repeated squaring of
    /// the mantissa (each squaring doubles the logarithm; a mantissa reaching 2 yields a 1 bit).
    @usableFromInline
    static func log2(_ x: UInt64) -> Int64 {
        precondition(x > 0, "log2 of zero")
        let msb = 63 &- x.leadingZeroBitCount
        // Mantissa in [1, 2) as Q.62.
        var mantissa = msb <= 62 ? x &<< UInt64(62 &- msb) : x &>> UInt64(msb &- 62)
        var fraction: Int64 = 0
        for bit in stride(from: fractionBits &- 1, through: 0, by: -1) {
            mantissa = multiplyShiftRounding(mantissa, mantissa, shift: 62)
            if mantissa >= UInt64(1) &<< 63 {
                fraction |= Int64(1) &<< Int64(bit)
                mantissa &>>= 1
            }
        }
        return Int64(msb &- fractionBits) &* (Int64(1) &<< Int64(fractionBits)) &+ fraction
    }

    /// `2^y` for a signed Q.48 `y`, returned as a mantissa in [1, 2) as Q.62 and the binary point position:
    /// the value is `mantissa / 2^shift`. `y` must be below 62 so the shift stays positive.
    @usableFromInline
    static func exp2(_ y: Int64) -> (mantissa: UInt64, shift: Int) {
        let integer = y &>> Int64(fractionBits)                        // floor
        let fraction = UInt64(bitPattern: y) & ((UInt64(1) &<< UInt64(fractionBits)) &- 1)
        var mantissa = UInt64(1) &<< 62
        for k in 1...fractionBits where fraction & (UInt64(1) &<< UInt64(fractionBits &- k)) != 0 {
            mantissa = multiplyShiftRounding(mantissa, rootOfTwo(k), shift: 62)
        }
        precondition(integer < 62, "exp2 out of range")
        return (mantissa, 62 &- Int(integer))
    }
}
