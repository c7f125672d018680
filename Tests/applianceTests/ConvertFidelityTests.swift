import Foundation
import TestSupport
import Testing

/// `appliance convert` compared with sox and ffmpeg: a conversion that needs no DSP is exact whenever the target
/// holds the source, markers go where the container can hold them, and IMA4 is kept or refused, never re-coded.
@Suite
struct ConvertFidelityTests {
    let directory: String = {
        let path = NSTemporaryDirectory() + "appliance-convert-" + UUID().uuidString
        try? FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
        return path
    }()

    @discardableResult
    func tool(_ name: String, _ arguments: [String]) throws -> Data { try Subprocess.check("/usr/bin/" + name, arguments) }

    func convert(_ arguments: [String]) throws -> ApplianceBinary.Result {
        let result = try ApplianceBinary.run(["convert"] + arguments)
        #expect(result.status == 0, "\(arguments): \(result.stderr)")
        return result
    }

    /// What ffmpeg decodes, as little-endian 64-bit floats (exact for every integer and float sample up to 32 bits).
    func ffmpegDoubles(_ path: String) throws -> [Double] {
        let data = try tool("ffmpeg", ["-v", "error", "-i", path, "-f", "f64le", "-"])
        return data.withUnsafeBytes { raw in
            (0..<(raw.count / 8)).map { Double(bitPattern: UInt64(littleEndian: raw.loadUnaligned(fromByteOffset: 8 * $0, as: UInt64.self))) }
        }
    }

    func int32s(_ data: Data) -> [Int32] {
        data.withUnsafeBytes { raw in (0..<(raw.count / 4)).map { Int32(littleEndian: raw.loadUnaligned(fromByteOffset: 4 * $0, as: Int32.self)) } }
    }

    /// What sox decodes, as its internal signed 32-bit samples (exact for integer files up to 32 bits).
    func soxInt32s(_ path: String) throws -> [Int32] { int32s(try tool("sox", [path, "-t", "s32", "-L", "-"])) }

    /// Quiet white noise from sox (-40 dB: most samples below 2^-8, where 8.24's 2^-24 step is coarse).
    func noise(_ name: String, _ format: [String]) throws -> String {
        let path = directory + "/" + name
        try tool("sox", ["-R", "-n", "-r", "48000", "-c", "2"] + format + [path, "synth", "0.1", "whitenoise", "gain", "-40"])
        return path
    }

    /// Floats on every scale from 2^-30 to 2, both signs, plus full scale, over full scale and exact ties of the
    /// 24-bit grid ((2k + 1) / 2^24): values 8.24 (a 2^-24 step) cannot hold. Deterministic (a 64-bit LCG, Knuth's
    /// MMIX constants).
    static let floats: [Float] = {
        var state: UInt64 = 0x1234_5678
        var values: [Float] = [1, -1, 1.5, -2, 0.5, 3 / 16_777_216, -5 / 16_777_216, 1e-7, -1e-9, 0.1, 1.0 / 3]
        while values.count < 4000 {
            state = state &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
            let mantissa = UInt32(truncatingIfNeeded: state >> 41) & 0x7F_FFFF
            let exponent = UInt32(127 - 30) + UInt32(truncatingIfNeeded: (state >> 20) % 32)
            let sign = UInt32(truncatingIfNeeded: state >> 63) << 31
            values.append(Float(bitPattern: sign | exponent << 23 | mantissa))
        }
        return values
    }()

    /// A 32-bit float stereo WAV of `floats` (RIFF WAVE_FORMAT_IEEE_FLOAT, tag 3), written by hand.
    func floatWAV(_ name: String) throws -> String {
        func le32(_ v: UInt32) -> [UInt8] { (0..<4).map { UInt8(truncatingIfNeeded: v >> (8 * $0)) } }
        func le16(_ v: UInt16) -> [UInt8] { [UInt8(v & 0xFF), UInt8(v >> 8)] }
        let fmt = le16(3) + le16(2) + le32(48000) + le32(48000 * 8) + le16(8) + le16(32)
        let data = Self.floats.flatMap { le32($0.bitPattern) }
        let body = Array("WAVE".utf8) + Array("fmt ".utf8) + le32(16) + fmt + Array("data".utf8) + le32(UInt32(data.count)) + data
        let path = directory + "/" + name
        try Data(Array("RIFF".utf8) + le32(UInt32(body.count)) + body).write(to: URL(fileURLWithPath: path))
        #expect(try ffmpegDoubles(path) == Self.floats.map(Double.init), "ffmpeg reads the input as written")
        return path
    }

    @Test func s32ToS32IsBitExact() throws {
        let input = try noise("in32.wav", ["-b", "32", "-e", "signed-integer"])
        let reference = try soxInt32s(input)
        #expect(reference.count == 9600)
        #expect(reference.contains { $0 & 0x7F != 0 }, "the input uses the low bits 8.24 cannot hold")
        for (output, format) in [("out.caf", "s32"), ("out.aifc", "s32"), ("out.wav", "")] {
            let path = directory + "/" + output
            _ = try convert([input, path] + (format.isEmpty ? [] : ["--data-format", format]))
            #expect(try soxInt32s(path) == reference, "\(output)")
        }
    }

    @Test func f32ToF32AndF64IsExact() throws {
        let input = try floatWAV("inf.wav")
        let reference = Self.floats.map(Double.init)
        for (output, format) in [("f32.caf", "f32"), ("f64.caf", "f64"), ("f64.wav", "f64"), ("f32.aifc", "f32")] {
            let path = directory + "/" + output
            _ = try convert([input, path, "--data-format", format])
            #expect(try ffmpegDoubles(path) == reference, "\(output)")
        }
    }

    /// One rounding: round(x · 2^23) to nearest, ties to even (IEEE 754 roundTiesToEven), saturated to
    /// -2^23 ... 2^23 - 1. Through 8.24 it was rounded to 2^-24 first, then again to 2^-23.
    @Test func floatToS24RoundsOnce() throws {
        let input = try floatWAV("inf24.wav")
        let expected = Self.floats.map { Double($0) }.map { Int32(min(max(($0 * 8_388_608).rounded(.toNearestOrEven), -8_388_608), 8_388_607)) }
        let output = directory + "/s24.wav"
        _ = try convert([input, output, "--data-format", "s24"])
        let decoded = int32s(try tool("ffmpeg", ["-v", "error", "-i", output, "-f", "s32le", "-"])).map { $0 >> 8 }
        #expect(decoded == expected)
    }

    /// ffmpeg's float to s32 (libswresample audioconvert.c: av_clipl_int32(llrintf(x * 2^31))) rounds once too.
    @Test func floatToS32MatchesFFmpeg() throws {
        let input = try floatWAV("inf32.wav")
        let reference = directory + "/ffmpeg-s32.wav"
        try tool("ffmpeg", ["-v", "error", "-i", input, "-c:a", "pcm_s32le", reference])
        let output = directory + "/s32.wav"
        _ = try convert([input, output, "--data-format", "s32"])
        #expect(try soxInt32s(output) == soxInt32s(reference))
    }

    /// IMA4 from ffmpeg's adpcm_ima_qt encoder. WAV cannot hold it: without --data-format the conversion is
    /// refused with the reason asking for ima4 explicitly gets (it used to be re-encoded as Microsoft IMA ADPCM).
    /// AIFF-C holds it: the packets are kept as they are. Decoding to s16 gives exactly what ffmpeg decodes.
    @Test func ima4CAFIsKeptOrRefusedNeverRecoded() throws {
        let input = directory + "/ima4.caf"
        try tool("ffmpeg", ["-v", "error", "-f", "lavfi", "-i", "sine=frequency=440:sample_rate=8000:duration=0.3",
                            "-ac", "2", "-c:a", "adpcm_ima_qt", input])
        let decoded = try ffmpegDoubles(input)
        let implicit = try ApplianceBinary.run(["convert", input, directory + "/x.wav"])
        let explicit = try ApplianceBinary.run(["convert", input, directory + "/y.wav", "--data-format", "ima4"])
        #expect(implicit.status != 0 && explicit.status != 0)
        let reason = "cannot write ima4 in WAVE: WAVE cannot hold Apple IMA4"
        #expect(implicit.stderr.contains(reason), "\(implicit.stderr)")
        #expect(explicit.stderr.contains(reason), "\(explicit.stderr)")
        #expect(!FileManager.default.fileExists(atPath: directory + "/x.wav"))

        let kept = directory + "/ima4.aifc"
        _ = try convert([input, kept])
        #expect(try ffmpegDoubles(kept) == decoded)
        // The packets themselves, as ffmpeg's demuxers hand them over (stream copy), are the same bytes.
        func packets(_ path: String) throws -> Data { try tool("ffmpeg", ["-v", "error", "-i", path, "-map", "0:a", "-c", "copy", "-f", "data", "-"]) }
        #expect(try packets(kept) == packets(input))
        let pcm = directory + "/ima4.wav"
        _ = try convert([input, pcm, "--data-format", "s16"])
        #expect(try ffmpegDoubles(pcm) == decoded)
    }

    /// A WAV with a marker, a region and a loop, written by hand from the RIFF spec (Microsoft/IBM Multimedia
    /// Programming Interface and Data Specifications 1.0: `cue ` points, `LIST`/`adtl` with `labl` and `ltxt`,
    /// and the sampler chunk `smpl` whose loop names cue point 3 and plays samples 400 ... 599, the end included).
    func markedWAV() throws -> String {
        func le32(_ v: UInt32) -> [UInt8] { (0..<4).map { UInt8(truncatingIfNeeded: v >> (8 * $0)) } }
        func le16(_ v: UInt16) -> [UInt8] { [UInt8(v & 0xFF), UInt8(v >> 8)] }
        func chunk(_ id: String, _ body: [UInt8]) -> [UInt8] { Array(id.utf8) + le32(UInt32(body.count)) + body + (body.count % 2 == 1 ? [0] : []) }
        let fmt = le16(1) + le16(1) + le32(8000) + le32(16000) + le16(2) + le16(16)
        let data = [UInt8](repeating: 0, count: 2 * 1000)
        var cue = le32(3)
        for (id, position) in [(1, 100), (2, 300), (3, 400)] as [(UInt32, UInt32)] {
            cue += le32(id) + le32(position) + Array("data".utf8) + le32(0) + le32(0) + le32(position)
        }
        let adtl = Array("adtl".utf8) + chunk("labl", le32(1) + Array("Start\0".utf8)) + chunk("labl", le32(2) + Array("Chorus\0".utf8))
            + chunk("ltxt", le32(2) + le32(200) + Array("rgn ".utf8) + le16(0) + le16(0) + le16(0) + le16(0))
            + chunk("labl", le32(3) + Array("Loop\0".utf8))
        // manufacturer, product, sample period (ns), MIDI unity note, pitch fraction, SMPTE format and offset,
        // loop count, sampler data; then the loop: cue point ID, type 0 (forward), start, end, fraction, play count.
        let smpl = le32(0) + le32(0) + le32(125_000) + le32(60) + le32(0) + le32(0) + le32(0) + le32(1) + le32(0)
            + le32(3) + le32(0) + le32(400) + le32(599) + le32(0) + le32(0)
        let body = Array("WAVE".utf8) + chunk("fmt ", fmt) + chunk("data", data) + chunk("cue ", cue) + chunk("LIST", adtl)
            + chunk("smpl", smpl)
        let path = directory + "/marked.wav"
        try Data(Array("RIFF".utf8) + le32(UInt32(body.count)) + body).write(to: URL(fileURLWithPath: path))
        return path
    }

    func markerLines(_ path: String) throws -> [String] {
        try ApplianceBinary.run(["info", path]).stdout.split(separator: "\n").filter { $0.hasPrefix("Marker:") }.map(String.init)
    }

    @Test func markersAndRegionsAreKeptWhereTheContainerHoldsThemAndDropsAreNamed() throws {
        let input = try markedWAV()
        let both = ["Marker:         frame 100 \"Start\"", "Marker:         frame 300, 200 frames long \"Chorus\"",
                    "Marker:         frame 400, 200 frames long, loop \"Loop\""]
        #expect(try markerLines(input) == both)

        let wav = directory + "/copy.wav"
        #expect(try convert([input, wav]).stderr.isEmpty)
        #expect(try markerLines(wav) == both)

        let resampled = directory + "/16k.wav"
        _ = try convert([input, resampled, "--rate", "16000"])
        #expect(try markerLines(resampled) == ["Marker:         frame 200 \"Start\"", "Marker:         frame 600, 400 frames long \"Chorus\"",
                                               "Marker:         frame 800, 400 frames long, loop \"Loop\""])

        let aiff = directory + "/copy.aiff"
        let toAIFF = try convert([input, aiff])
        #expect(toAIFF.stderrLines == ["appliance: dropped region 'Chorus' (frames 300 ... 499): AIFF markers (MARK) have no length, so regions cannot be kept"])
        // AIFF keeps the loop as two MARK markers named by the INST chunk's sustain loop (AIFF 1.3).
        #expect(try markerLines(aiff) == ["Marker:         frame 100 \"Start\"", "Marker:         frame 400, 200 frames long, loop \"Loop\""])
        // sox reads the loop from MARK and INST (its aiff.c prints the loop at -V3): frames 400 to 600.
        let soxInfo = try Subprocess.run("/usr/bin/sox", ["-V3", aiff, "-n"]).stderrText
        #expect(soxInfo.contains("Loop 0: start:    400") && soxInfo.contains("end:      600"), "\(soxInfo)")
        let fromAIFF = directory + "/from-aiff.wav"
        _ = try convert([aiff, fromAIFF])
        #expect(try markerLines(fromAIFF) == ["Marker:         frame 100 \"Start\"", "Marker:         frame 400, 200 frames long, loop \"Loop\""])
        // sox reads the AIFF with its MARK chunk: the same 1000 frames.
        #expect(try soxInt32s(aiff).count == 1000)

        // CAF holds both: the marker in 'mark', the region in 'regn' (Core Audio Format Specification).
        let caf = directory + "/copy.caf"
        #expect(try convert([input, caf]).stderr.isEmpty)
        #expect(try markerLines(caf) == both)
        // And back to WAV from the CAF: the same cue points and region.
        let back = directory + "/back.wav"
        _ = try convert([caf, back])
        #expect(try markerLines(back) == both)
    }
}
