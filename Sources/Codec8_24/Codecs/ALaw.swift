/// ITU-T G.711 A-law: 8-bit logarithmic telephone samples, 13-bit linear range, as used by European and
/// international telephony and by the `alaw` formats of Core Audio, WAV (format tag 6) and AU.
///
/// Linear values are 16-bit: the standard's 12-bit magnitude scale times 8, so the levels run from ±8 to
/// ±32256. A code is `sign | segment << 4 | step` with the sign bit set for positive values, then its even
/// bits inverted (XOR `0x55`) as G.711 transmits it: `0xD5` is +8, `0x55` is -8. There is no zero code.
public enum ALaw {
    /// The even-bit inversion G.711 applies on the line (bits 2, 4, 6 and 8 counting the sign as bit 1).
    @usableFromInline static let evenBitInversion: UInt8 = 0x55

    /// Encodes a 16-bit linear sample.
    ///
    /// Negative inputs are quantized by their one's complement (`-x - 1`), as the ITU-T G.191 reference
    /// does, so the quantizer is symmetric about -1/2 LSB: 0...15 give `0xD5` (+8), -1...-16 give `0x55` (-8).
    @inlinable
    public static func encode(_ sample: Int16) -> UInt8 {
        let value = Int32(sample)
        let sign: Int32 = value < 0 ? 0 : 0x80
        let magnitude = (value < 0 ? ~value : value) &>> 3   // 12-bit: 0 ..< 4096
        let bits: Int32
        if magnitude < 32 {
            bits = magnitude &>> 1   // segment 0: 16 steps of 2
        } else {
            // segment s (1...7) covers 16 << s ..< 32 << s in steps of 1 << s.
            let segment = Int32(Int32.bitWidth &- magnitude.leadingZeroBitCount &- 5)
            bits = segment &<< 4 | (magnitude &>> segment) & 0x0F
        }
        return UInt8(truncatingIfNeeded: sign | bits) ^ evenBitInversion
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

    /// The reconstruction level from the code's fields: the middle of step `step` of `segment`.
    static func level(_ code: UInt8) -> Int16 {
        let bits = Int32(code ^ evenBitInversion)
        let segment = (bits &>> 4) & 0x07
        let step = bits & 0x0F
        let start: Int32 = segment == 0 ? 0 : 16 &<< segment
        let stepSize: Int32 = segment == 0 ? 2 : 1 &<< segment
        let magnitude = (start &+ step &* stepSize &+ stepSize &>> 1) &<< 3
        return Int16(bits & 0x80 != 0 ? magnitude : -magnitude)
    }
}
