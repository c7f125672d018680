import Codec8_24
import Foundation
import Testing
@testable import Queue

/// Equal lengths, except that tools ignoring WAV's `fact` chunk decode an IMA ADPCM file's padded last block.
func sameLength(_ ours: [Int32], _ theirs: [Int32], format: StreamFormat) -> Bool {
    if format.formatID == .microsoftIMAADPCM {
        return theirs.count >= ours.count && theirs.count - ours.count < format.framesPerPacket * format.channelsPerFrame
    }
    return ours.count == theirs.count
}

/// Files written by sox and ffmpeg read back to the samples those tools decode, and files written here decode
/// in those tools to the samples written.
struct ExternalToolTests {
    /// sox-generated files: (file name, sox output options, tolerance in sox 32-bit units).
    static let soxCases: [(String, [String], Int64)] = [
        ("u8.wav", ["-b", "8", "-e", "unsigned-integer"], 0),
        ("s16.wav", ["-b", "16"], 0),
        ("s24.wav", ["-b", "24"], 0),
        ("s32.wav", ["-b", "32"], 1 << 7),              // 8.24 keeps 25 of 32 bits
        ("f32.wav", ["-b", "32", "-e", "floating-point"], 1 << 7),
        ("f64.wav", ["-b", "64", "-e", "floating-point"], 1 << 7),
        ("ulaw.wav", ["-e", "u-law"], 0),
        ("alaw.wav", ["-e", "a-law"], 0),
        ("ima.wav", ["-e", "ima-adpcm"], 0),
        ("s16-6ch.wav", ["-b", "16", "-c", "6"], 0),     // WAVE_FORMAT_EXTENSIBLE
        ("s16.aiff", ["-b", "16"], 0),
        ("s24.aiff", ["-b", "24"], 0),
        ("s8.aiff", ["-b", "8"], 0),
        ("s16.aifc", ["-b", "16"], 0),
        ("s16.caf", ["-b", "16"], 0),
    ]

    @Test("sox-written files decode to sox's samples", arguments: 0..<soxCases.count)
    func readsSox(index: Int) throws {
        let (name, options, tolerance) = Self.soxCases[index]
        let directory = TemporaryDirectory()
        let path = directory.file(name)
        var arguments = ["-n", "-r", "16000"]
        if !options.contains("-c") { arguments += ["-c", "2"] }
        arguments += options + [path, "synth", "0.1", "sine", "440", "sine", "1000", "gain", "-3"]
        try run("sox", arguments)
        let file = try AudioFile.open(path: path)
        let ours = try readAll(file).asSox
        let theirs = try soxSamples(path)
        #expect(sameLength(ours, theirs, format: file.dataFormat), "\(name): \(ours.count) vs sox \(theirs.count)")
        #expect(maxDifference(ours, theirs) <= tolerance, "\(name)")
        #expect(file.sampleRate == 16000)
    }

    /// A second fmt chunk after the audio: a foreign one (format tag 0x55, MP3) or one whose size runs past the end.
    @Test("a WAV with a second fmt chunk after its audio plays the audio, as sox and ffmpeg play it", arguments: [false, true])
    func secondFmtChunkAfterTheAudio(overrunning: Bool) throws {
        let directory = TemporaryDirectory()
        let path = directory.file("second-fmt.wav")
        try run("sox", ["-n", "-r", "8000", "-c", "1", "-b", "16", path, "synth", "0.0125", "sine", "440"])
        var bytes = Array(try Data(contentsOf: URL(fileURLWithPath: path)))
        // RIFF chunk: id, little-endian size, body (WAVE_FORMAT_PCM's 16-byte fmt layout, with tag 0x55).
        let body: [UInt8] = [0x55, 0, 1, 0] + FieldWriter.u32le(8000) + FieldWriter.u32le(16000) + [2, 0, 16, 0]
        bytes += Array("fmt ".utf8) + FieldWriter.u32le(overrunning ? 1000 : 16) + body
        bytes.replaceSubrange(4..<8, with: FieldWriter.u32le(UInt32(bytes.count - 8)))
        try Data(bytes).write(to: URL(fileURLWithPath: path))
        let theirs = try soxSamples(path)
        #expect(theirs.count == 100)
        #expect(try ffmpegSamples(path).count == theirs.count)
        let file = try AudioFile.open(path: path)
        #expect(file.dataFormat.formatID == .linearPCM)
        #expect(try readAll(file).asSox == theirs)
    }

    /// An ffmpeg-written stereo CAF (desc, chan, info, data), then damaged: its chan chunk's layout tag made to
    /// name 0 channels (CAF spec: a tag's low 16 bits are the channel count), or a chunk after the audio whose
    /// 64-bit size is negative (the spec's sizes are signed; only the data chunk may say -1).
    @Test("a CAF with a chan chunk that names no channels, or damage after its audio, plays the audio, as ffmpeg plays it",
          arguments: ["chan", "after"])
    func cafWithDamageAroundItsAudio(damage: String) throws {
        let directory = TemporaryDirectory()
        let path = directory.file("damaged.caf")
        try run("ffmpeg", ["-v", "error", "-f", "lavfi", "-i", "sine=frequency=440:sample_rate=16000:duration=0.1",
                           "-ac", "2", "-c:a", "pcm_s16le", path])
        var bytes = Array(try Data(contentsOf: URL(fileURLWithPath: path)))
        if damage == "chan" {
            // The chunks after the 8-byte file header: id, 64-bit big-endian size, body.
            var at = 8
            while Array(bytes[at..<(at + 4)]) != Array("chan".utf8) {
                at += 12 + Int(try FieldReader(Array(bytes[at..<(at + 12)]), at: Int64(at), what: "chunk header").u64be(4))
            }
            bytes[at + 12 + 2] = 0
            bytes[at + 12 + 3] = 0
        } else {
            bytes += Array("\u{1}xyz".utf8) + [0xF0, 0, 0, 0, 0, 0, 0, 0] + [1, 2, 3, 4]
        }
        try Data(bytes).write(to: URL(fileURLWithPath: path))
        let theirs = try ffmpegSamples(path)
        #expect(theirs.count == 3200)
        let file = try AudioFile.open(path: path)
        #expect(file.channelCount == 2)
        #expect(try readAll(file).asSox == theirs)
    }

    /// ffmpeg-written files: (file name, codec, tolerance).
    static let ffmpegCases: [(String, String, Int64)] = [
        ("s16.wav", "pcm_s16le", 0), ("s24.wav", "pcm_s24le", 0), ("f32.wav", "pcm_f32le", 1 << 7),
        ("alaw.wav", "pcm_alaw", 0), ("ulaw.wav", "pcm_mulaw", 0), ("ima.wav", "adpcm_ima_wav", 0),
        ("s16.aiff", "pcm_s16be", 0), ("sowt.aifc", "pcm_s16le", 0), ("fl32.aifc", "pcm_f32be", 1 << 7),
        ("ulaw.aifc", "pcm_mulaw", 0), ("alaw.aifc", "pcm_alaw", 0), ("ima4.aifc", "adpcm_ima_qt", 0),
        ("s16.caf", "pcm_s16le", 0), ("s24be.caf", "pcm_s24be", 0), ("f64.caf", "pcm_f64le", 1 << 7),
        ("ulaw.caf", "pcm_mulaw", 0), ("alaw.caf", "pcm_alaw", 0), ("ima4.caf", "adpcm_ima_qt", 0),
    ]

    @Test("ffmpeg-written files decode to the samples ffmpeg decodes", arguments: 0..<ffmpegCases.count)
    func readsFFmpeg(index: Int) throws {
        let (name, codec, tolerance) = Self.ffmpegCases[index]
        let directory = TemporaryDirectory()
        let path = directory.file(name)
        let format = name.hasSuffix(".aifc") ? ["-f", "aiff"] : []
        try run("ffmpeg", ["-v", "error", "-f", "lavfi", "-i", "sine=frequency=440:sample_rate=16000:duration=0.1",
                           "-ac", "2", "-c:a", codec] + format + [path])
        let file = try AudioFile.open(path: path, typeHint: .aifc)
        let ours = try readAll(file).asSox
        // sox is the reference where it reads the format itself; ffmpeg for CAF and AIFF-C G.711/IMA4.
        let viaSox = name.hasSuffix(".caf") ? nil : try? soxSamples(path)   // sox reads CAF only through libsndfile
        let theirs = try viaSox ?? ffmpegSamples(path)
        #expect(sameLength(ours, theirs, format: file.dataFormat), "\(name): \(ours.count) vs \(theirs.count)")
        #expect(maxDifference(ours, theirs) <= tolerance, "\(name)")
    }

    /// Files written here, checked in sox (WAV, AIFF) and ffmpeg (all): (type, format, tolerance).
    static let writeCases: [(AudioFileType, StreamFormat, Int64)] = [
        (.wave, .linearPCM(sampleRate: 16000, channels: 2, bits: 8, isSigned: false), 0),
        (.wave, .linearPCM(sampleRate: 16000, channels: 2, bits: 16), 0),
        (.wave, .linearPCM(sampleRate: 16000, channels: 2, bits: 24), 0),
        (.wave, .linearPCM(sampleRate: 16000, channels: 2, bits: 32), 0),
        (.wave, .linearPCM(sampleRate: 16000, channels: 2, bits: 32, isFloat: true), 1 << 7),
        (.wave, .linearPCM(sampleRate: 16000, channels: 2, bits: 64, isFloat: true), 1 << 7),
        (.wave, .linearPCM(sampleRate: 16000, channels: 6, bits: 16), 0),
        (.wave, .muLaw(sampleRate: 16000, channels: 2), 0),
        (.wave, .aLaw(sampleRate: 16000, channels: 2), 0),
        (.wave, .microsoftIMAADPCM(sampleRate: 16000, channels: 2), 0),
        (.aiff, .linearPCM(sampleRate: 16000, channels: 2, bits: 16, isBigEndian: true), 0),
        (.aiff, .linearPCM(sampleRate: 16000, channels: 1, bits: 24, isBigEndian: true), 0),
        (.aifc, .linearPCM(sampleRate: 16000, channels: 2, bits: 16), 0),
        (.aifc, .linearPCM(sampleRate: 16000, channels: 2, bits: 32, isFloat: true, isBigEndian: true), 1 << 7),
        (.aifc, .muLaw(sampleRate: 16000, channels: 2), 0),
        (.aifc, .aLaw(sampleRate: 16000, channels: 2), 0),
        (.aifc, .appleIMA4(sampleRate: 16000, channels: 2), 1 << 9),
        (.caf, .linearPCM(sampleRate: 16000, channels: 2, bits: 16), 0),
        (.caf, .linearPCM(sampleRate: 16000, channels: 2, bits: 24, isBigEndian: true), 0),
        (.caf, .linearPCM(sampleRate: 16000, channels: 2, bits: 32, isFloat: true), 1 << 7),
        (.caf, .muLaw(sampleRate: 16000, channels: 2), 0),
        (.caf, .aLaw(sampleRate: 16000, channels: 2), 0),
        (.caf, .appleIMA4(sampleRate: 16000, channels: 2), 1 << 9),
        (.rf64, .linearPCM(sampleRate: 16000, channels: 2, bits: 16), 0),
    ]

    @Test("files written here decode in sox and ffmpeg to the same samples", arguments: 0..<writeCases.count)
    func writtenFilesOpenInTools(index: Int) throws {
        let (type, format, tolerance) = Self.writeCases[index]
        let directory = TemporaryDirectory()
        let ext = type == .rf64 ? "wav" : type == .aifc ? "aifc" : type.family == .aiff ? "aiff" : type == .caf ? "caf" : "wav"
        let path = directory.file("ours.\(ext)")
        let frames = type == .rf64 || format.formatID == .appleIMA4 ? 1280 : 1003
        try writeFile(path, type: type, format: format, samples: testSignal(frames: frames, channels: format.channelsPerFrame),
                      options: AudioFileWriteOptions(metadata: AudioFileMetadata(title: "t")))
        let ours = try readAll(try AudioFile.open(path: path)).asSox
        let viaFFmpeg = try ffmpegSamples(path)
        #expect(sameLength(ours, viaFFmpeg, format: format), "ffmpeg: \(viaFFmpeg.count) vs \(ours.count) for \(format) in \(type)")
        // ffmpeg's IMA ADPCM WAV decoder computes steps as ((2·code + 1)·step) >> 3, not the reference's shifts and
        // adds, so it drifts a few 16-bit LSBs from sox and from this decoder (which agree exactly).
        let ffmpegTolerance = format.formatID == .microsoftIMAADPCM ? Int64(16) << 16 : tolerance
        #expect(maxDifference(ours, viaFFmpeg) <= ffmpegTolerance, "ffmpeg, \(format) in \(type)")
        let soxReads = !(type == .aifc && !format.isLinearPCM) && type != .rf64 && type != .caf
        if soxReads {
            let viaSox = try soxSamples(path)
            #expect(sameLength(ours, viaSox, format: format), "sox: \(viaSox.count) vs \(ours.count) for \(format) in \(type)")
            #expect(maxDifference(ours, viaSox) <= tolerance, "sox, \(format) in \(type)")
        }
    }
}
