import Codec8_24
import Foundation
import TestSupport
import Testing
@testable import Queue

/// AAC and Apple Lossless through the public interfaces: AudioFile (open, create), AudioFileStream and
/// AudioPacketDecoder, against ffmpeg and sox.
@Suite struct FFmpegRoutingTests {
    @Test func audioFileOpensAppleLosslessInM4A() throws {
        let directory = TemporaryDirectory()
        let source = try FFmpegFixture.source(directory, bits: 24)
        let path = try FFmpegFixture.encode(source, directory, "a.m4a", ["-c:a", "alac"])
        let file = try AudioFile.open(path: path)
        #expect(file.compressedInfo?.format.formatID == .appleLossless)
        #expect(file.frameCount == 44100)
        let ours = try readAll(file).map(\.int32)
        try file.close()
        #expect(ReferenceTool.firstDifference(ours, try soxSamples(source)) == nil)
    }

    @Test func audioFileCreatesAppleLosslessThatFFmpegReads() throws {
        let directory = TemporaryDirectory()
        let path = directory.file("rec.m4a")
        let samples = testSignal(frames: 20000, channels: 2).map { Fixed824(int16: $0.int16) }
        try writeFile(path, type: .m4a, format: .compressed(.appleLossless, sampleRate: 48000, channels: 2, framesPerPacket: 4096, bitsPerChannel: 16),
                      samples: samples)
        let theirs = try ReferenceTool.ffmpegSamples(path)
        #expect(theirs.count == samples.count)
        #expect(ReferenceTool.firstDifference(theirs, samples.map(\.int32)) == nil)
    }

    @Test func audioFileStreamParsesADTSByteByByte() throws {
        let directory = TemporaryDirectory()
        let source = try FFmpegFixture.source(directory)
        let path = try FFmpegFixture.encode(source, directory, "s.aac", ["-c:a", "aac", "-b:a", "128k"])
        let bytes = [UInt8](try Data(contentsOf: URL(fileURLWithPath: path)))
        var format: StreamFormat?
        var cookie: [UInt8] = []
        var packets: [[UInt8]] = []
        let stream = AudioFileStream(onProperty: { property in
            if case .dataFormat(let f) = property { format = f }
            if case .magicCookie(let c) = property { cookie = c }
        }, onPackets: { data, descriptions in
            for d in descriptions { packets.append(Array(data[d.startOffset..<(d.startOffset + d.dataByteSize)])) }
        })
        for byte in bytes { try stream.parse([byte]) }
        let decoder = try AudioPacketDecoder(format: try #require(format), magicCookie: cookie)
        var out = [Fixed824](repeating: .zero, count: decoder.maximumFramesPerPacket * 2)
        var ours: [Fixed824] = []
        for packet in packets {
            let n = try packet.withUnsafeBytes { raw in try out.withUnsafeMutableBufferPointer { try decoder.decode(raw, into: $0) } }
            ours += out[0..<(2 * n)]
        }
        let theirs = try ReferenceTool.ffmpegSamples(path)
        #expect(ours.count == theirs.count)
        // Same decoder; ours rounds its float output to 8.24, ffmpeg to s32: one 8.24 step (128 in s32) at most.
        #expect(FFmpegFixture.maxDifference(ours, theirs, count: min(ours.count, theirs.count)) <= FFmpegFixture.aacTolerance)
    }
}
