/// One FLAC frame header (RFC 9639 section 9.1), read from raw bytes and checked by its CRC-8, so that frame
/// boundaries can be found in a stream or a damaged file without libFLAC.
struct FLACFrameHeader: Equatable {
    /// Fixed block size: `number` counts frames; variable: it counts samples (section 9.1.5).
    var variableBlockSize: Bool
    var blockSize: Int
    /// Hz, or nil when the header defers to STREAMINFO (code 0).
    var sampleRate: Int?
    var channels: Int
    /// Bits per sample, or nil when the header defers to STREAMINFO (code 0).
    var bitsPerSample: Int?
    var number: UInt64
    /// Header bytes including the CRC-8.
    var length: Int

    /// The first sample of the frame, given the stream's fixed block size (STREAMINFO's).
    func firstSample(fixedBlockSize: Int) -> UInt64 { variableBlockSize ? number : number * UInt64(fixedBlockSize) }

    /// Parses the header starting at `bytes[start]`. Returns nil when it is not a valid header (no sync,
    /// reserved codes, bad CRC-8); `.needMore` when more bytes are needed to tell.
    static func parse(_ bytes: UnsafeRawBufferPointer, at start: Int) -> Parse {
        let available = bytes.count - start
        func byte(_ i: Int) -> UInt8? { i < available ? bytes[start + i] : nil }
        guard let b0 = byte(0) else { return .needMore }
        guard b0 == 0xFF else { return .invalid }
        guard let b1 = byte(1) else { return .needMore }
        guard b1 & 0xFE == 0xF8 else { return .invalid }
        guard let b2 = byte(2), let b3 = byte(3) else { return .needMore }
        let sizeCode = Int(b2 >> 4), rateCode = Int(b2 & 0x0F)
        let channelCode = Int(b3 >> 4), depthCode = Int((b3 >> 1) & 0x07)
        // Reserved or forbidden codes (sections 9.1.1 ... 9.1.4).
        guard sizeCode != 0, rateCode != 15, channelCode <= 10, depthCode != 3, b3 & 1 == 0 else { return .invalid }
        // Coded number: UTF-8-style, 1 ... 7 bytes (section 9.1.5).
        guard let lead = byte(4) else { return .needMore }
        var extra = 0
        var number: UInt64
        switch lead {
        case 0x00...0x7F: number = UInt64(lead)
        case 0xC0...0xDF: extra = 1; number = UInt64(lead & 0x1F)
        case 0xE0...0xEF: extra = 2; number = UInt64(lead & 0x0F)
        case 0xF0...0xF7: extra = 3; number = UInt64(lead & 0x07)
        case 0xF8...0xFB: extra = 4; number = UInt64(lead & 0x03)
        case 0xFC...0xFD: extra = 5; number = UInt64(lead & 0x01)
        case 0xFE: extra = 6; number = 0
        default: return .invalid
        }
        var offset = 5
        for _ in 0..<extra {
            guard let b = byte(offset) else { return .needMore }
            guard b & 0xC0 == 0x80 else { return .invalid }
            number = number << 6 | UInt64(b & 0x3F)
            offset += 1
        }
        let variable = b1 & 1 == 1
        if !variable && extra > 5 { return .invalid }    // a frame number has at most 31 bits
        var blockSize: Int
        switch sizeCode {
        case 1: blockSize = 192
        case 2...5: blockSize = 144 << sizeCode
        case 6:
            guard let b = byte(offset) else { return .needMore }
            blockSize = Int(b) + 1; offset += 1
        case 7:
            guard let hi = byte(offset), let lo = byte(offset + 1) else { return .needMore }
            blockSize = (Int(hi) << 8 | Int(lo)) + 1; offset += 2
        default: blockSize = 256 << (sizeCode - 8)
        }
        var rate: Int?
        switch rateCode {
        case 0: rate = nil
        case 1...11: rate = [88_200, 176_400, 192_000, 8_000, 16_000, 22_050, 24_000, 32_000, 44_100, 48_000, 96_000][rateCode - 1]
        case 12:
            guard let b = byte(offset) else { return .needMore }
            rate = Int(b) * 1000; offset += 1
        default:
            guard let hi = byte(offset), let lo = byte(offset + 1) else { return .needMore }
            rate = (Int(hi) << 8 | Int(lo)) * (rateCode == 13 ? 1 : 10); offset += 2
        }
        guard let crc = byte(offset) else { return .needMore }
        let computed = FLACChecksum.crc8(UnsafeRawBufferPointer(rebasing: bytes[start..<(start + offset)]))
        guard crc == computed else { return .invalid }
        let bits: Int? = [nil, 8, 12, nil, 16, 20, 24, 32][depthCode]
        return .header(FLACFrameHeader(variableBlockSize: variable, blockSize: blockSize, sampleRate: rate,
                                       channels: channelCode < 8 ? channelCode + 1 : 2, bitsPerSample: bits,
                                       number: number, length: offset + 1))
    }

    enum Parse: Equatable {
        case header(FLACFrameHeader)
        case invalid
        case needMore
    }

    /// Whether `next` can follow this frame in the same stream: same blocking strategy, channels, rate and
    /// depth, and the next number in sequence (section 9.1.5).
    func isFollowed(by next: FLACFrameHeader) -> Bool {
        guard next.variableBlockSize == variableBlockSize, next.channels == channels,
              next.sampleRate == sampleRate, next.bitsPerSample == bitsPerSample else { return false }
        return next.number == (variableBlockSize ? number + UInt64(blockSize) : number + 1)
    }
}
