import Codec8_24
import Foundation
import TestSupport
import Testing
@testable import Queue

/// Hostile Ogg Opus streams built here page by page (RFC 3533 6 page layout; RFC 7845 5.1-5.2 headers): an
/// endless continued packet and wild granule positions give one clear error or "unknown", never a trap.
@Suite struct OggHostileInputTests {
    /// RFC 3533 6: CRC-32, polynomial 0x04C11DB7, initial value 0, no reflection, no final xor, computed with
    /// the checksum field zeroed. Written here from the RFC, independent of OggPage's.
    static func crc(_ bytes: [UInt8]) -> UInt32 {
        var crc: UInt32 = 0
        for byte in bytes {
            crc ^= UInt32(byte) << 24
            for _ in 0..<8 { crc = crc & 0x8000_0000 != 0 ? crc << 1 ^ 0x04C1_1DB7 : crc << 1 }
        }
        return crc
    }

    static func le(_ value: UInt64, _ count: Int) -> [UInt8] {
        (0..<count).map { UInt8(truncatingIfNeeded: value >> (8 * UInt64($0))) }
    }

    /// One page: "OggS", version 0, header type, granule position, serial 1, sequence, CRC, lacing, body.
    static func page(type: UInt8 = 0, granule: Int64, sequence: UInt32, lacing: [UInt8], body: [UInt8]) -> [UInt8] {
        // Built in steps: one long + chain of arrays is too much for Swift 6.0.3's type checker.
        var bytes = Array("OggS".utf8) + [0, type]
        bytes += le(UInt64(bitPattern: granule), 8)
        bytes += le(1, 4)
        bytes += le(UInt64(sequence), 4)
        bytes += [0, 0, 0, 0, UInt8(lacing.count)]
        bytes += lacing
        bytes += body
        let sum = le(UInt64(crc(bytes)), 4)
        bytes.replaceSubrange(22..<26, with: sum)
        return bytes
    }

    /// OpusHead (RFC 7845 5.1: version 1, 2 channels, pre-skip 312, 48 kHz, gain 0, mapping 0) and OpusTags
    /// (5.2: empty vendor string, no comments) on their own pages.
    static var headers: [UInt8] {
        var head = Array("OpusHead".utf8) + [1, 2]
        head += le(312, 2)
        head += le(48000, 4)
        head += [0, 0, 0]
        let tags = Array("OpusTags".utf8) + le(0, 4) + le(0, 4)
        return page(type: 0x02, granule: 0, sequence: 0, lacing: [UInt8(head.count)], body: head)
            + page(granule: 0, sequence: 1, lacing: [UInt8(tags.count)], body: tags)
    }

    /// Pages of 255 segments of 255 bytes, each continuing the last: one packet that never ends. RFC 6716
    /// bounds an Opus packet at 48 frames x 1275 bytes = 61,440, so the second page (130,050 bytes) is refused.
    @Test func endlessContinuedPacketIsRefusedNamingItsPage() {
        let full = [UInt8](repeating: 255, count: 255)
        let body = [UInt8](repeating: 0xFC, count: 255 * 255)
        var stream = Self.headers
        let audioStart = stream.count
        for sequence in 2..<6 {
            stream += Self.page(type: sequence == 2 ? 0 : 0x01, granule: -1, sequence: UInt32(sequence), lacing: full, body: body)
        }
        let (_, error) = OggStreamParserTests.parse(stream, chunks: [4096])
        #expect(error?.kind == .malformed)
        #expect(error?.offset == Int64(audioStart))   // the first audio page already holds 65,025 > 61,440 bytes
        #expect(error?.message.contains("RFC 6716") == true)
    }

    /// The last two pages of an Ogg Opus file: one audio packet each (TOC 0xFC: config 31, 20 ms CELT, code 0,
    /// RFC 6716 3.1 = 960 frames at 48 kHz), the granule positions given, the last page end-of-stream.
    static func ending(previous: Int64, last: Int64) throws -> OggOpusEnd {
        let packet: [UInt8] = [0xFC, 0, 0]
        let bytes = headers + page(granule: previous, sequence: 2, lacing: [3], body: packet)
            + page(type: 0x04, granule: last, sequence: 3, lacing: [3], body: packet)
        let directory = TemporaryDirectory()
        let path = directory.file("end.opus")
        try Data(bytes).write(to: URL(fileURLWithPath: path))
        return try OggOpusEnd.scan(FileDescriptor.open(path, writable: false), length: Int64(bytes.count))
    }

    @Test func wildGranulePositionsMeanUnknownPadding() throws {
        // Sane: 960 frames added by a packet of 960 (RFC 7845 4.4) = no padding; 900 added = 60 trimmed.
        let exact = try Self.ending(previous: 1000, last: 1960)
        #expect(exact.padding == 0)
        let trimmed = try Self.ending(previous: 1000, last: 1900)
        #expect(trimmed.padding == 60)
        // last - previous overflows (Int64.min - 1000); then 960 - (Int64.min) overflows: both "unknown", 0.
        let overflowing = try Self.ending(previous: 1000, last: Int64.min)
        #expect(overflowing.isComplete)
        #expect(overflowing.padding == 0)
        let negative = try Self.ending(previous: 0, last: Int64.min)
        #expect(negative.padding == 0)
    }
}
