/// The two checksums that delimit FLAC frames without decoding them (RFC 9639 section 9.1.8: CRC-8 of the
/// frame header, polynomial x^8 + x^2 + x + 1; section 9.3: CRC-16 of the whole frame, polynomial
/// x^16 + x^15 + x^2 + 1; both start at 0, most significant bit first, no final inversion). A frame followed by
/// its big-endian CRC-16 checksums to 0, which is how the parser and the repair find where a frame ends.
enum FLACChecksum {
    static let crc8Table: [UInt8] = (0..<256).map { byte in
        var crc = UInt8(byte)
        for _ in 0..<8 { crc = crc & 0x80 != 0 ? (crc << 1) ^ 0x07 : crc << 1 }
        return crc
    }

    static let crc16Table: [UInt16] = (0..<256).map { byte in
        var crc = UInt16(byte) << 8
        for _ in 0..<8 { crc = crc & 0x8000 != 0 ? (crc << 1) ^ 0x8005 : crc << 1 }
        return crc
    }

    static func crc8<C: Collection>(_ bytes: C) -> UInt8 where C.Element == UInt8 {
        var crc: UInt8 = 0
        for b in bytes { crc = crc8Table[Int(crc ^ b)] }
        return crc
    }

    @inline(__always)
    static func crc16(_ crc: UInt16, _ byte: UInt8) -> UInt16 {
        (crc << 8) ^ crc16Table[Int(UInt8(truncatingIfNeeded: crc >> 8) ^ byte)]
    }
}
