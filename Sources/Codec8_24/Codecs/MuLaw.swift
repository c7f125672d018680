/// ITU-T G.711 µ-law: 8-bit logarithmic telephone samples, 14-bit linear range, as used by North American
/// and Japanese telephony and by the `ulaw` formats of Core Audio, WAV (format tag 7) and AU.
///
/// Linear values are 16-bit: the standard's 14-bit scale times 4, so the largest reconstruction level,
/// 8031, is ±32124. A code is the inverted bits of `sign | segment << 4 | step`, where the sign bit is set for
/// positive values: `0x80` is positive full scale, `0xFF` is +0 and `0x7F` is -0.
public enum MuLaw {
    /// The 14-bit bias, times 4: adding it makes each segment's biased range a power of two.
    @usableFromInline static let bias: Int32 = 0x84
    /// Largest magnitude below the overload decision value (8159 · 4); larger inputs clip to it.
    @usableFromInline static let clipMagnitude: Int32 = 32_635

    /// Encodes a 16-bit linear sample.
    ///
    /// Negative inputs are quantized by their one's complement (`-x - 1`), as the ITU-T G.191 reference
    /// does, so the quantizer is symmetric about -1/2 LSB and the 65,536 inputs split evenly between the
    /// positive and negative codes. Inputs of -1...-4 give -0 (`0x7F`); 0...3 give +0 (`0xFF`).
    @inlinable
    public static func encode(_ sample: Int16) -> UInt8 {
        let value = Int32(sample)
        let sign: Int32 = value < 0 ? 0x80 : 0
        let magnitude = Swift.min(value < 0 ? ~value : value, clipMagnitude)
        let biased = magnitude &+ bias   // 128 ..< 32768: segment s covers 128 << s ..< 256 << s
        let segment = Int32(Int32.bitWidth &- biased.leadingZeroBitCount &- 8)
        let step = (biased &>> (segment &+ 3)) & 0x0F
        return UInt8(truncatingIfNeeded: ~(sign | segment &<< 4 | step))
    }

    /// Decodes a code to its 16-bit reconstruction level.
    @inlinable
    public static func decode(_ code: UInt8) -> Int16 { decodeTable[Int(code)] }

    /// Encodes an 8.24 sample, first rounded and saturated to 16 bits.
    @inlinable
    public static func encode(_ sample: Fixed824) -> UInt8 { encode(sample.int16) }

    /// Decodes a code to 8.24 (exact: the 16-bit level widened).
    @inlinable
    public static func decodeFixed824(_ code: UInt8) -> Fixed824 { Fixed824(int16: decode(code)) }

    /// All 256 reconstruction levels, built once: decoding is one load per sample.
    public static let decodeTable: [Int16] = (0...255).map { level(UInt8($0)) }

    /// The reconstruction level from the code's fields: the middle of step `step` of `segment`, in the
    /// biased domain, unbiased.
    static func level(_ code: UInt8) -> Int16 {
        let bits = Int32(~code & 0xFF)
        let segment = (bits &>> 4) & 0x07
        let step = bits & 0x0F
        let magnitude = ((step &<< 3) &+ bias) &<< segment &- bias
        return Int16(bits & 0x80 != 0 ? -magnitude : magnitude)
    }
}
