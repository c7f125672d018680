/// One Ogg page header (RFC 3533 section 6): the fixed 27 bytes, then a segment table of `segmentCount` lacing
/// values whose sum is the body size. Parsed from bytes already in memory; the CRC is checked over the whole page.
struct OggPage {
    /// RFC 3533: the fixed part before the segment table.
    static let fixedHeaderBytes = 27
    /// The largest page: 27 + 255 lacing values + 255 * 255 body bytes.
    static let maximumBytes = 27 + 255 + 255 * 255
    static let capturePattern: [UInt8] = Array("OggS".utf8)

    /// Header type flags (RFC 3533 section 6, byte 5).
    static let continuedFlag: UInt8 = 0x01
    static let beginningOfStreamFlag: UInt8 = 0x02
    static let endOfStreamFlag: UInt8 = 0x04

    let headerType: UInt8
    /// Samples (Opus: 48 kHz) at the end of the last packet completed on this page; -1 when none completes.
    let granulePosition: Int64
    let serialNumber: UInt32
    let sequenceNumber: UInt32
    let checksum: UInt32
    let segmentCount: Int

    var isContinued: Bool { headerType & Self.continuedFlag != 0 }
    var isBeginningOfStream: Bool { headerType & Self.beginningOfStreamFlag != 0 }
    var isEndOfStream: Bool { headerType & Self.endOfStreamFlag != 0 }

    /// Reads the fixed header from `bytes` (at least 27, starting with "OggS"); nil when the capture pattern or
    /// the version (0, the only one defined) is wrong.
    init?(_ bytes: UnsafeRawBufferPointer) {
        guard bytes.count >= Self.fixedHeaderBytes, bytes[0] == 0x4F, bytes[1] == 0x67, bytes[2] == 0x67,
              bytes[3] == 0x53, bytes[4] == 0 else { return nil }
        headerType = bytes[5]
        granulePosition = Int64(bitPattern: Self.littleEndian(bytes, 6, 8))
        serialNumber = UInt32(Self.littleEndian(bytes, 14, 4))
        sequenceNumber = UInt32(Self.littleEndian(bytes, 18, 4))
        checksum = UInt32(Self.littleEndian(bytes, 22, 4))
        segmentCount = Int(bytes[26])
    }

    /// Header plus segment table.
    var headerBytes: Int { Self.fixedHeaderBytes + segmentCount }

    /// The body size the segment table in `page` (header included) declares.
    func bodyBytes(_ page: UnsafeRawBufferPointer) -> Int {
        var sum = 0
        for i in 0..<segmentCount { sum += Int(page[Self.fixedHeaderBytes + i]) }
        return sum
    }

    /// Whether the CRC field matches the page (`page` is the whole page: header, table and body).
    func checksumMatches(_ page: UnsafeRawBufferPointer) -> Bool {
        OggCRC.checksum(page, skippingField: 22) == checksum
    }

    static func littleEndian(_ bytes: UnsafeRawBufferPointer, _ offset: Int, _ count: Int) -> UInt64 {
        var value: UInt64 = 0
        for i in (0..<count).reversed() { value = value << 8 | UInt64(bytes[offset + i]) }
        return value
    }
}

/// The Ogg page checksum (RFC 3533 section 6): CRC-32 with polynomial 0x04C11DB7, initial value 0, no
/// reflection of input or output, no final XOR, computed over the page with its own CRC field taken as zero.
enum OggCRC {
    static let table: [UInt32] = (0..<256).map { (byte: Int) -> UInt32 in
        var r = UInt32(byte) << 24
        for _ in 0..<8 { r = r & 0x8000_0000 != 0 ? (r << 1) ^ 0x04C1_1DB7 : r << 1 }
        return r
    }

    /// The CRC of `bytes`, reading the four bytes at `skippingField` (the page's CRC field) as zeros.
    static func checksum(_ bytes: UnsafeRawBufferPointer, skippingField field: Int? = nil) -> UInt32 {
        var crc: UInt32 = 0
        table.withUnsafeBufferPointer { table in
            for i in 0..<bytes.count {
                let byte: UInt8 = if let field, i >= field && i < field + 4 { 0 } else { bytes[i] }
                crc = (crc << 8) ^ table[Int((crc >> 24) ^ UInt32(byte))]
            }
        }
        return crc
    }
}
