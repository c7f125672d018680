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

    /// Every frame of `file` from its read position, each sample through `convert`.
    func readAll<T>(_ file: AudioFile, _ convert: (Fixed824) -> T) throws -> [T] {
        var out: [T] = []
        var buffer = [Fixed824](repeating: .zero, count: 3000 * file.channelCount)   // not a FLAC block multiple
        while true {
            let n = try buffer.withUnsafeMutableBufferPointer { try file.readFrames(into: $0) }
            if n == 0 { break }
            out += buffer[0..<(n * file.channelCount)].map(convert)
        }
        return out
    }

    /// As 16-bit values (exact for 16-bit sources).
    func readAll16(_ file: AudioFile) throws -> [Int16] { try readAll(file, \.int16) }

    /// As Doubles (full scale 1.0).
    func readAllDoubles(_ file: AudioFile) throws -> [Double] { try readAll(file, \.doubleValue) }

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

    /// 1.3 s of two sines from sox at `rate`, encoded by the tool `command(wav, base)` names (its output is the
    /// last argument), copied under another extension and opened: (the encoded file, the open disguised copy).
    func encodedAndDisguised(_ dir: TemporaryDirectory, rate: Int, as fakeExtension: String,
                             command: (String, String) -> [String]) throws -> (String, AudioFile) {
        let wav = dir.file("source.wav")
        try ReferenceTool.run("sox", ["-R", "-n", "-r", "\(rate)", "-c", "2", "-b", "16", wav, "synth", "1.3", "sine", "441", "sine", "662", "gain", "-6"])
        let arguments = command(wav, dir.file("encoded"))
        try ReferenceTool.run(arguments[0], Array(arguments.dropFirst()))
        let encoded = arguments.last!
        let disguised = dir.file("disguised." + fakeExtension)
        try FileManager.default.copyItem(atPath: encoded, toPath: disguised)
        return (encoded, try AudioFile.open(path: disguised))
    }

    @Test("an Opus file named .mp3 opens as Opus: ffmpeg's length exactly, its samples within -50 dB, seeks too",
          .enabled(if: CodecParts.opus, "the opus part (libopusfile) has not landed yet"))
    func opusByContent() throws {
        let dir = TemporaryDirectory()
        let (opus, file) = try encodedAndDisguised(dir, rate: 48000, as: "mp3") { ["opusenc", "--quiet", "--bitrate", "160", $0, $1 + ".opus"] }
        #expect(file.fileType == .ogg && file.dataFormat.formatID == .opus && file.sampleRate == 48000)
        // ffmpeg applies pre-skip and the end trim (RFC 7845 section 4): its length is the source's 1.3 s.
        let reference = try ReferenceTool.ffmpegSamples(opus).map { Double($0) / 2_147_483_648 }
        #expect(file.frameCount == Int64(reference.count / 2))
        #expect(file.frameCount == 62_400)
        let all = try readAllDoubles(file)
        #expect(all.count == reference.count)
        // Two decoders of the same Opus stream (libopusfile's and ffmpeg's) agree to about 1e-4; 0.003 is -50 dB.
        let worst = zip(all, reference).map { abs($0 - $1) }.max() ?? 1
        #expect(worst < 0.003, "largest difference \(worst)")
        for start in [48_000 / 2, 62_400 - 960] {
            try file.seek(toFrame: Int64(start))
            let tail = try readAllDoubles(file)
            #expect(tail.count == reference.count - 2 * start, "seek to \(start)")
            // After a seek the decoder restarts from a pre-roll (RFC 7845 section 4.6: 80 ms = 3840 frames to
            // converge), so its first output differs from a decode from the start; measured: up to 0.07 in the
            // first 80 ms, under 0.005 after. The alignment is exact: shifted by a frame either way fits worse.
            let diffs = zip(tail, reference[(2 * start)...]).map { abs($0 - $1) }
            let early = diffs.prefix(2 * 3840).max() ?? 1
            let settled = diffs.dropFirst(2 * 3840).max() ?? 0
            #expect(early < 0.1, "seek to \(start): largest difference in the first 80 ms \(early)")
            #expect(settled < 0.01, "seek to \(start): largest difference after 80 ms \(settled)")
            func fit(_ shift: Int) -> Double {
                var worst = 0.0
                for i in 200..<min(1200, tail.count) { worst = Swift.max(worst, abs(tail[i] - reference[2 * start + i + 2 * shift])) }
                return worst
            }
            if start + 700 < 62_400 { #expect(fit(0) < fit(1) && fit(0) < fit(-1), "seek to \(start) lands on its frame") }
        }
    }

    @Test("an MP3 named .flac opens as MP3: ffmpeg's gapless length, its samples within 2^-14, seeks exact",
          .enabled(if: CodecParts.mp3, "the mp3 part (libmpg123) has not landed yet"))
    func mp3ByContent() throws {
        let dir = TemporaryDirectory()
        let (mp3, file) = try encodedAndDisguised(dir, rate: 44100, as: "flac") { ["lame", "--quiet", "-b", "192", $0, $1 + ".mp3"] }
        #expect(file.fileType == .mp3 && file.dataFormat.formatID == .mpegLayer3)
        // ffmpeg removes the LAME tag's encoder delay and padding: the source's 1.3 s at 44100 Hz = 57330 frames.
        let reference = try ReferenceTool.ffmpegSamples(mp3).map { Double($0) / 2_147_483_648 }
        #expect(file.frameCount == Int64(reference.count / 2))
        #expect(file.frameCount == 57_330)
        #expect(file.compressedInfo.map { $0.encoderDelay > 0 && $0.padding > 0 } == true)
        let all = try readAllDoubles(file)
        #expect(all.count == reference.count)
        // libmpg123 (integer out) and ffmpeg's mp3float decode the same frames; they differ by rounding only.
        let worst = zip(all, reference).map { abs($0 - $1) }.max() ?? 1
        #expect(worst < 1.0 / 16384, "largest difference \(worst)")
        for start in [1, 1151, 1152, 30_000, 57_330 - 5] {
            try file.seek(toFrame: Int64(start))
            let tail = try readAllDoubles(file)
            #expect(tail.count == reference.count - 2 * start, "seek to \(start)")
            // MP3's bit reservoir: libmpg123 decodes frames before the target again, so a seek is sample-exact
            // up to the same rounding.
            let after = zip(tail, reference[(2 * start)...]).map { abs($0 - $1) }.max() ?? 0
            #expect(after < 1.0 / 16384, "seek to \(start): largest difference \(after)")
        }
    }

    @Test("a FLAC recording cut by a power cut: AudioFile.repair keeps every whole frame, flac -d agrees",
          .enabled(if: CodecParts.flac, "the flac part (libFLAC) has not landed yet"))
    func flacRepairThroughAudioFile() throws {
        let dir = TemporaryDirectory()
        let path = dir.file("take.flac")
        let signal = testSignal(frames: 96_000, channels: 2).map(\.int16)
        // A recording: in place, committed every 0.25 s, never closed (the power goes first).
        let file = try AudioFile.create(path: path, type: .flac, format: .compressed(.flac, sampleRate: 48000, channels: 2, bitsPerChannel: 16),
                                        options: AudioFileWriteOptions(commitInterval: 0.25))
        try signal.map { Fixed824(int16: $0) }.withUnsafeBufferPointer { try file.writeFrames($0) }
        try file.commit()
        file.discard()
        // The cut: the last 3000 bytes never reached the disk (mid-frame, FLAC frames here are a few kB).
        let handle = try FileHandle(forUpdating: URL(fileURLWithPath: path))
        let size = try handle.seekToEnd()
        try handle.truncate(atOffset: size - 3000)
        try handle.close()
        let report = try AudioFile.repair(path: path)
        #expect(report.fileType == .flac && !report.wasIntact)
        #expect(report.frameCount > 96_000 - 4 * 4608 && report.frameCount < 96_000, "\(report)")   // at most the frames cut lost
        let decoded = try flacDecoded16(path)
        #expect(decoded.count == 2 * Int(report.frameCount))
        #expect(ReferenceTool.firstDifference(decoded, Array(signal.prefix(decoded.count))) == nil)
        #expect(try AudioFile.open(path: path).frameCount == report.frameCount)
    }
}
