import Testing
@testable import Queue

/// The frame splitter on bytes built by hand from RFC 9639 section 9 (frame header, CRC-8 over it, CRC-16 over
/// the whole frame), for the edge cases a real encoder does not produce.
struct FLACFrameSplitterTests {
    /// A frame header (RFC 9639 section 9.1): sync 0xFFF8 (fixed block size), block size code 0001 (192
    /// samples), sample rate code 1001 (44.1 kHz), mono (0000), 8 bits (001), frame number 0 (one UTF-8 byte),
    /// then its CRC-8 (polynomial 0x07, section 9.1.8). The largest frame it allows: 192 samples at 9 bits
    /// (a side channel's extra bit) + 32 + 64 bytes = 312.
    static let header: [UInt8] = {
        let bytes: [UInt8] = [0xFF, 0xF8, 0x19, 0x02, 0x00]
        return bytes + [FLACChecksum.crc8(bytes)]
    }()

    /// CRC-16 (polynomial 0x8005, section 9.3) of `bytes`.
    static func crc16(_ bytes: [UInt8]) -> UInt16 { bytes.reduce(0) { FLACChecksum.crc16($0, $1) } }

    /// A false sync whose CRC-16 comes to 0 exactly at the largest frame its header allows, with no header
    /// after it: the end is refused, then the search must go on past the false sync. The splitter offered the
    /// same refused end again for ever (libFuzzer, stream target, 2026-11-29: a hang).
    @Test func aRefusedEndAtTheLargestFrameSizeIsNotOfferedAgain() {
        var bytes = Self.header
        // Filler chosen so that the CRC-16 comes to 0 nowhere before byte 312 once the frame needs 9 bytes.
        var seed: UInt32 = 7
        while bytes.count < 310 {
            seed = seed &* 1_103_515_245 &+ 12_345
            bytes.append(UInt8(truncatingIfNeeded: seed >> 16))
        }
        // The CRC-16 of the frame, appended big-endian, makes the CRC of all 312 bytes 0 (section 9.3).
        let crc = Self.crc16(bytes)
        bytes += [UInt8(crc >> 8), UInt8(crc & 0xFF)]
        #expect(bytes.count == 312)
        #expect(Self.crc16(bytes) == 0)
        var prefix: [UInt8] = []
        for (index, byte) in bytes.enumerated() {
            prefix.append(byte)
            #expect(index + 1 < Self.header.count + 3 || index + 1 == 312 || Self.crc16(prefix) != 0)
        }
        // What follows is no frame header: zeros, enough that the header parse can refuse them.
        bytes += [UInt8](repeating: 0, count: 64)

        var splitter = FLACFrameSplitter()
        bytes.withUnsafeBytes { splitter.append($0) }
        var calls = 0
        var frames = 0
        loop: while calls < 10_000 {
            calls += 1
            switch splitter.next(atEnd: true) {
            case .frame: frames += 1
            case .lastFrame(let range, _): splitter.accept(range)
            case .needMore: break loop
            }
        }
        #expect(calls < 10_000, "the splitter kept returning without reaching the end of its bytes")
        #expect(frames == 0)
    }
}
