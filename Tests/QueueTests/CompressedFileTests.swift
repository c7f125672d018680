import Codec8_24
import Foundation
import TestSupport
import Testing
@testable import Queue

/// AudioFile and AudioFileStream over the codec libraries, against the reference tools' own decoding (flac -d,
/// ffmpeg): length, seek, frames, round trips. Each test runs once its codec part has landed.
@Suite struct CompressedFileTests {
    /// 1.3 s of a 441 Hz sine plus quiet noise, 44.1 kHz stereo, 16-bit, made by sox.
    func soxWAV(_ dir: TemporaryDirectory, bits: Int = 16) throws -> String {
        let path = dir.file("source.wav")
        try ReferenceTool.run("sox", ["-R", "-n", "-r", "44100", "-c", "2", "-b", "\(bits)", path,
                                      "synth", "1.3", "sine", "441", "whitenoise", "gain", "-6"])
        return path
    }

    /// `flac -d`'s decoding of `path` as raw little-endian signed 16-bit samples: the reference (RFC 9639's
    /// reference decoder).
    func flacDecoded16(_ path: String) throws -> [Int16] {
        ReferenceTool.int16Samples(try ReferenceTool.run("flac", ["-d", "-s", "-c", "--force-raw-format", "--endian=little", "--sign=signed", path]))
    }

    /// Every frame of `file` from its read position, as 16-bit values (exact for 16-bit sources).
    func readAll16(_ file: AudioFile) throws -> [Int16] {
        var out: [Int16] = []
        var buffer = [Fixed824](repeating: .zero, count: 3000 * file.channelCount)   // not a FLAC block multiple
        while true {
            let n = try buffer.withUnsafeMutableBufferPointer { try file.readFrames(into: $0) }
            if n == 0 { break }
            out += buffer[0..<(n * file.channelCount)].map(\.int16)
        }
        return out
    }

    @Test("a FLAC file named .wav opens as FLAC: ffmpeg's length, flac -d's samples, seeks exact",
          .enabled(if: CodecParts.flac, "the flac part (libFLAC) has not landed yet"))
    func flacByContent() throws {
        let dir = TemporaryDirectory()
        let wav = try soxWAV(dir)
        let flac = dir.file("encoded.flac")
        try ReferenceTool.run("flac", ["-s", "-f", "-o", flac, wav])
        let disguised = dir.file("disguised.wav")
        try FileManager.default.copyItem(atPath: flac, toPath: disguised)
        let file = try AudioFile.open(path: disguised)
        #expect(file.fileType == .flac)
        #expect(file.dataFormat.formatID == .flac && file.dataFormat.bitsPerChannel == 16 && file.channelCount == 2)
        #expect(file.compressedInfo != nil)
        let reference = try flacDecoded16(flac)
        // ffmpeg's frame count (interleaved samples / channels) is the length reference.
        #expect(file.frameCount == Int64(try ReferenceTool.ffmpegSamples(flac).count / 2))
        #expect(file.frameCount == Int64(reference.count / 2))
        let all = try readAll16(file)
        #expect(all.count == reference.count)
        #expect(ReferenceTool.firstDifference(all, reference) == nil)
        for start in [0, 1, 4095, 4096, 30_001, Int(file.frameCount) - 7] {
            try file.seek(toFrame: Int64(start))
            let tail = try readAll16(file)
            #expect(tail.count == reference.count - 2 * start, "seek to \(start)")
            #expect(ReferenceTool.firstDifference(tail, Array(reference[(2 * start)...])) == nil, "seek to \(start)")
        }
        try file.close()
    }

    @Test("create + write + close FLAC, native and Ogg, then flac -d and AudioFile read back bit for bit",
          .enabled(if: CodecParts.flac, "the flac part (libFLAC) has not landed yet"))
    func flacRoundTrip() throws {
        let dir = TemporaryDirectory()
        // 16-bit values of a deterministic signal (the Queue tests' testSignal), the exact source of truth.
        let signal = testSignal(frames: 50_000, channels: 2).map(\.int16)
        for (type, name) in [(AudioFileType.flac, "take.flac"), (.ogg, "take.oga")] {
            let path = dir.file(name)
            var options = AudioFileWriteOptions(replaceAtomically: true)
            options.encoder.compressionLevel = 8
            let file = try AudioFile.create(path: path, type: type, format: .compressed(.flac, sampleRate: 48000, channels: 2, bitsPerChannel: 16),
                                            options: options)
            let frames = signal.map { Fixed824(int16: $0) }
            // Written in uneven pieces, as a recorder hands them over.
            var offset = 0
            for piece in [1, 999, 4096, 20_000, 24_904] {
                try frames[(2 * offset)..<(2 * (offset + piece))].withUnsafeBufferPointer { try file.writeFrames($0) }
                offset += piece
            }
            try file.close()
            let decoded = try flacDecoded16(path)   // flac -d reads Ogg FLAC as well (by its "OggS" start)
            #expect(decoded.count == signal.count, "\(name)")
            #expect(ReferenceTool.firstDifference(decoded, signal) == nil, "\(name)")
            let reopened = try AudioFile.open(path: path)
            #expect(reopened.frameCount == 50_000, "\(name)")
            #expect(ReferenceTool.firstDifference(try readAll16(reopened), signal) == nil, "\(name)")
        }
    }

    @Test("a FLAC stream in any chunking: packets decoded by AudioPacketDecoder equal flac -d's samples",
          .enabled(if: CodecParts.flac, "the flac part (libFLAC) has not landed yet"))
    func flacStream() throws {
        let dir = TemporaryDirectory()
        let flac = dir.file("s.flac")
        try ReferenceTool.run("flac", ["-s", "-f", "-o", flac, try soxWAV(dir)])
        let reference = try flacDecoded16(flac)
        let bytes = try [UInt8](Data(contentsOf: URL(fileURLWithPath: flac)))
        for chunk in [1_000, 7_919] {
            var packets: [[UInt8]] = []
            let stream = AudioFileStream(onProperty: { _ in }, onPackets: { data, descriptions in
                for d in descriptions { packets.append(Array(data[d.startOffset..<(d.startOffset + d.dataByteSize)])) }
            })
            var at = 0
            while at < bytes.count {
                try stream.parse(Array(bytes[at..<min(bytes.count, at + chunk)]))
                at += chunk
            }
            let format = try #require(stream.dataFormat)
            #expect(format.formatID == .flac && !stream.magicCookie.isEmpty)
            let decoder = try AudioPacketDecoder(format: format, magicCookie: stream.magicCookie)
            var out = [Fixed824](repeating: .zero, count: decoder.maximumFramesPerPacket * format.channelsPerFrame)
            var decoded: [Int16] = []
            for packet in packets {
                let n = try packet.withUnsafeBytes { p in try out.withUnsafeMutableBufferPointer { try decoder.decode(p, into: $0) } }
                decoded += out[0..<(n * 2)].map(\.int16)
            }
            #expect(decoded.count == reference.count, "chunks of \(chunk)")
            #expect(ReferenceTool.firstDifference(decoded, reference) == nil, "chunks of \(chunk)")
        }
    }
}
