import Codec8_24
import Foundation
import TestSupport
import Testing
@testable import Queue

/// A FLAC stream pushed through the parser in any chunking gives one packet per frame (as `flac -a` lists
/// them), whose decoding equals `flac -d`'s.
struct FLACStreamParserTests {
    final class Collected {
        var properties: [AudioFileStreamProperty] = []
        var packets: [[UInt8]] = []
        var blockSizes: [Int] = []

        var format: StreamFormat? {
            for case .dataFormat(let format) in properties { return format }
            return nil
        }
        var cookie: [UInt8]? {
            for case .magicCookie(let cookie) in properties { return cookie }
            return nil
        }
    }

    /// Feeds `bytes` in chunks of the sizes `chunkSize` gives.
    static func parse(_ bytes: [UInt8], chunkSize: () -> Int) throws -> Collected {
        let parser = FLACStreamParser()
        let collected = Collected()
        var start = 0
        while start < bytes.count {
            let end = min(bytes.count, start + chunkSize())
            try bytes[start..<end].withUnsafeBytes { raw in
                try parser.parse(raw, onProperty: { collected.properties.append($0) }, onPackets: { data, descriptions in
                    for d in descriptions {
                        collected.packets.append(Array(data[d.startOffset..<(d.startOffset + d.dataByteSize)]))
                        collected.blockSizes.append(d.variableFramesInPacket)
                    }
                })
            }
            start = end
        }
        return collected
    }

    static func decode(_ collected: Collected) throws -> [Int32] {
        let format = try #require(collected.format)
        let decoder = try FLACPacketDecoder(format: format, magicCookie: try #require(collected.cookie))
        var output = [Fixed824](repeating: .zero, count: decoder.maximumFramesPerPacket * format.channelsPerFrame)
        var samples: [Int32] = []
        for packet in collected.packets {
            let n = try packet.withUnsafeBytes { raw in try output.withUnsafeMutableBufferPointer { try decoder.decode(raw, into: $0) } }
            samples += output[0..<(n * format.channelsPerFrame)].map(\.int32)
        }
        return samples
    }

    @Test("one byte at a time and random chunks: every frame a packet, decoding equal to flac -d", arguments: [1, 0])
    func chunkings(fixedChunk: Int) throws {
        let fixture = try FLACFixture(rate: 48000, channels: 2, bits: 24, seconds: 0.5)
        try ReferenceTool.run("metaflac", ["--set-tag=TITLE=Streamed", fixture.path])
        let bytes = [UInt8](try Data(contentsOf: URL(fileURLWithPath: fixture.path)))
        var seed: UInt64 = 0x9E37_79B9_7F4A_7C15
        let collected = try Self.parse(bytes) {
            if fixedChunk > 0 { return fixedChunk }
            seed = seed &* 6364136223846793005 &+ 1442695040888963407
            return Int(seed >> 33) % 9000 + 1
        }
        #expect(collected.properties.first == .fileFormat(.flac))
        #expect(collected.properties.last == .readyToProducePackets || !collected.packets.isEmpty)
        #expect(collected.properties.contains(.dataOffset(fixture.frames[0].offset)))
        let format = try #require(collected.format)
        #expect(format.sampleRate == 48000 && format.channelsPerFrame == 2 && format.bitsPerChannel == 24)
        #expect(collected.cookie?.count == 34)
        #expect(collected.properties.contains { if case .metadata(let m) = $0 { return m.title == "Streamed" }; return false })
        #expect(collected.packets.count == fixture.frames.count)
        #expect(collected.packets.map(\.count) == fixture.frames.map { Int($0.bytes) })
        #expect(collected.blockSizes == fixture.frames.map(\.blockSize))
        let samples = try Self.decode(collected)
        #expect(samples.count == fixture.reference.count)
        #expect(ReferenceTool.firstDifference(samples, fixture.reference) == nil)
    }

    @Test("joined mid-stream: packets from the first verified frame on")
    func joinsMidStream() throws {
        let fixture = try FLACFixture(rate: 44100, channels: 2, bits: 16, seconds: 1)
        let bytes = [UInt8](try Data(contentsOf: URL(fileURLWithPath: fixture.path)))
        let start = Int(fixture.frames[3].offset) + 100
        let collected = try Self.parse(Array(bytes[start...])) { 777 }
        #expect(collected.properties.contains(.dataOffset(fixture.frames[4].offset - Int64(start))))
        let format = try #require(collected.format)
        #expect(format.sampleRate == 44100 && format.channelsPerFrame == 2 && format.bitsPerChannel == 16)
        // Frames 4 ... before the last (with no STREAMINFO total, the last frame is never confirmed).
        #expect(collected.packets.count == fixture.frames.count - 5)
        let samples = try Self.decode(collected)
        let first = fixture.frames.prefix(4).reduce(0) { $0 + $1.blockSize } * 2
        #expect(samples.count == fixture.frames.dropFirst(4).dropLast().reduce(0) { $0 + $1.blockSize } * 2)
        #expect(ReferenceTool.firstDifference(samples, Array(fixture.reference[first..<(first + samples.count)])) == nil)
    }

    @Test("a corrupt packet is .malformed; the decoder goes on with the next")
    func corruptPacket() throws {
        let fixture = try FLACFixture(seconds: 0.4)
        let bytes = [UInt8](try Data(contentsOf: URL(fileURLWithPath: fixture.path)))
        let collected = try Self.parse(bytes) { 4096 }
        let format = try #require(collected.format)
        let decoder = try FLACPacketDecoder(format: format, magicCookie: try #require(collected.cookie))
        var output = [Fixed824](repeating: .zero, count: decoder.maximumFramesPerPacket * 2)
        var bad = collected.packets[1]
        bad[bad.count / 2] ^= 0xFF
        #expect { try bad.withUnsafeBytes { raw in try output.withUnsafeMutableBufferPointer { try decoder.decode(raw, into: $0) } } } throws: {
            ($0 as? AudioFileError)?.kind == .malformed
        }
        let n = try collected.packets[2].withUnsafeBytes { raw in try output.withUnsafeMutableBufferPointer { try decoder.decode(raw, into: $0) } }
        #expect(n == fixture.frames[2].blockSize)
        let first = (fixture.frames[0].blockSize + fixture.frames[1].blockSize) * 2
        #expect(ReferenceTool.firstDifference(output[0..<(n * 2)].map(\.int32), Array(fixture.reference[first..<(first + n * 2)])) == nil)
    }
}

extension FLACStreamParserTests {
    @Test("bytes that are not FLAC give no packets and no crash")
    func garbage() throws {
        var seed: UInt64 = 7
        let bytes = (0..<200_000).map { _ -> UInt8 in
            seed = seed &* 6364136223846793005 &+ 1442695040888963407
            return UInt8(truncatingIfNeeded: seed >> 56)
        }
        let collected = try Self.parse(bytes) { 1000 }
        #expect(collected.packets.isEmpty)
        #expect(collected.format == nil)
    }
}

extension FLACStreamParserTests {
    @Test("an ID3v2 tag in front of \"fLaC\" is passed over")
    func id3InFront() throws {
        let fixture = try FLACFixture(seconds: 0.3)
        let flac = [UInt8](try Data(contentsOf: URL(fileURLWithPath: fixture.path)))
        // ID3v2.3 header (id3.org, ID3v2.3.0 section 3.1): "ID3", version 3.0, no flags, syncsafe size 300
        // (2 << 7 | 44), then 300 bytes of padding.
        let tag: [UInt8] = Array("ID3".utf8) + [3, 0, 0, 0, 0, 2, 44] + [UInt8](repeating: 0, count: 300)
        let collected = try Self.parse(tag + flac) { 97 }
        #expect(collected.properties.contains(.dataOffset(Int64(tag.count) + fixture.frames[0].offset)))
        #expect(collected.packets.count == fixture.frames.count)
        let samples = try Self.decode(collected)
        #expect(samples.count == fixture.reference.count)
        #expect(ReferenceTool.firstDifference(samples, fixture.reference) == nil)
    }
}
