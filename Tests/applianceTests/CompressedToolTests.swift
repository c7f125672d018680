import Foundation
import TestSupport
import Testing

/// `appliance info`, `convert` and `render` on the compressed formats, against the reference tools (flac -d,
/// ffmpeg, opusdec). Each test runs once its codec part has landed.
@Suite
struct CompressedToolTests {
    let directory: String = {
        let path = NSTemporaryDirectory() + "appliance-compressed-" + UUID().uuidString
        try? FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
        return path
    }()

    func appliance(_ arguments: [String]) throws -> ApplianceBinary.Result {
        let result = try ApplianceBinary.run(arguments)
        #expect(result.status == 0, "\(arguments): \(result.stderr)")
        return result
    }

    /// 1 s of two sines and quiet noise from sox, stereo, at `bits` bits.
    func soxWAV(_ name: String, bits: Int = 16, rate: Int = 44100) throws -> String {
        let path = directory + "/" + name
        try ReferenceTool.run("sox", ["-R", "-n", "-r", "\(rate)", "-c", "2", "-b", "\(bits)", path,
                                      "synth", "1", "sine", "440", "sine", "660", "whitenoise", "gain", "-9"])
        return path
    }

    /// What sox reads from a PCM file, as signed 32-bit (exact for 16- and 24-bit files).
    func soxInt32s(_ path: String) throws -> [Int32] { try soxSamples(path) }

    /// `flac -d`'s decoding as signed 32-bit values scaled like sox's (`v << (32 - bits)`).
    func flacDecoded(_ path: String, bits: Int) throws -> [Int32] {
        let raw = try ReferenceTool.run("flac", ["-d", "-s", "-c", "--force-raw-format", "--endian=little", "--sign=signed", path])
        if bits == 16 { return ReferenceTool.int16Samples(raw).map { Int32($0) << 16 } }
        return raw.withUnsafeBytes { p in
            (0..<(p.count / 3)).map { i in
                let v = Int32(p[3 * i]) | Int32(p[3 * i + 1]) << 8 | Int32(Int8(bitPattern: p[3 * i + 2])) << 16
                return v << 8
            }
        }
    }

    @Test("convert WAV to FLAC and back: flac -d gives the source's samples, and so does the WAV made from it",
          .enabled(if: CodecParts.flac, "the flac part (libFLAC) has not landed yet"))
    func wavToFLACAndBack() throws {
        for bits in [16, 24] {
            let wav = try soxWAV("in\(bits).wav", bits: bits)
            let flac = directory + "/out\(bits).flac"
            let result = try appliance(["convert", wav, flac, "--compression-level", "8"])
            #expect(result.stderr.isEmpty, "a lossless conversion has nothing to warn about: \(result.stderr)")
            let source = try soxInt32s(wav)
            let decoded = try flacDecoded(flac, bits: bits)
            #expect(decoded.count == source.count, "\(bits) bits")
            #expect(ReferenceTool.firstDifference(decoded, source) == nil, "\(bits) bits")
            let back = directory + "/back\(bits).wav"
            try appliance(["convert", flac, back])
            let again = try soxInt32s(back)
            #expect(again.count == source.count, "\(bits) bits")
            #expect(ReferenceTool.firstDifference(again, source) == nil, "\(bits) bits")
            #expect(try appliance(["info", back]).stdout.contains("'lpcm' Int\(bits)"))
        }
        // Ogg FLAC by the .oga extension; flac -d reads it back as well.
        let wav = try soxWAV("ogg.wav")
        let oga = directory + "/out.oga"
        try appliance(["convert", wav, oga])
        #expect(try Data(contentsOf: URL(fileURLWithPath: oga)).prefix(4) == Data("OggS".utf8))   // RFC 3533 capture pattern
        #expect(ReferenceTool.firstDifference(try flacDecoded(oga, bits: 16), try soxInt32s(wav)) == nil)
    }

    @Test("render to FLAC runs the chain: -6.02 dB is half the amplitude in flac -d's decode",
          .enabled(if: CodecParts.flac, "the flac part (libFLAC) has not landed yet"))
    func renderToFLAC() throws {
        let wav = try soxWAV("r.wav")
        let flac = directory + "/r.flac"
        try appliance(["render", wav, flac, "--gain", "-6.0206", "--eq", "flat"])
        let source = try soxInt32s(wav).map { Int($0 >> 16) }
        let decoded = try flacDecoded(flac, bits: 16).map { Int($0 >> 16) }
        #expect(decoded.count == source.count)
        // 20·log10(1/2) = -6.0206 dB; within TPDF dither (±1 LSB) and rounding, as for WAV output.
        let worst = zip(source, decoded).map { abs($0 - 2 * $1) }.max() ?? 0
        #expect(worst <= 3, "largest difference \(worst)")
    }

    @Test("info on a FLAC made by flac shows codec, format, length, encoder and the tags",
          .enabled(if: CodecParts.flac, "the flac part (libFLAC) has not landed yet"))
    func infoOnFLAC() throws {
        let wav = try soxWAV("tagged.wav", rate: 48000)
        let flac = directory + "/tagged.flac"
        // Vorbis comment names from the ReplayGain 2.0 specification and the Xiph Vorbis comment field list.
        try ReferenceTool.run("flac", ["-s", "-f", "-o", flac, "-T", "TITLE=Sines", "-T", "ARTIST=sox", "-T", "ALBUM=Tests",
                                       "-T", "TRACKNUMBER=3", "-T", "TRACKTOTAL=12", "-T", "DATE=2024",
                                       "-T", "REPLAYGAIN_TRACK_GAIN=-6.20 dB", "-T", "REPLAYGAIN_TRACK_PEAK=0.988525",
                                       "-T", "REPLAYGAIN_ALBUM_GAIN=-7.10 dB", "-T", "REPLAYGAIN_ALBUM_PEAK=0.999000", wav])
        let text = try appliance(["info", flac]).stdout
        // 1 s at 48000 Hz from sox: 48000 frames (ffmpeg counts the same).
        #expect(try ReferenceTool.ffmpegSamples(flac).count == 2 * 48000)
        for line in ["File type:      FLAC", "Codec:          FLAC", "Sample rate:    48000 Hz", "Channels:       2",
                     "Bit depth:      16 bits", "Duration:       1.000 s (48000 frames)", "Encoder delay:  0 frames",
                     "Padding:        0 frames", "Title:          Sines", "Artist:         sox", "Album:          Tests",
                     "Track:          3/12", "Date:           2024", "ReplayGain track: -6.20 dB, peak 0.988525",
                     "ReplayGain album: -7.10 dB, peak 0.999000"] {
            #expect(text.contains(line), "missing '\(line)' in:\n\(text)")
        }
        #expect(text.contains("Encoder:        reference libFLAC"), "\(text)")   // flac's vendor string
        #expect(text.contains("Bit rate:"))
    }

    @Test("convert to Opus says it is lossy; opusdec reads the result, the length kept",
          .enabled(if: CodecParts.opus, "the opus part (libopusenc, libopusfile) has not landed yet"))
    func wavToOpus() throws {
        let wav = try soxWAV("o.wav", rate: 48000)
        let opus = directory + "/o.opus"
        let result = try appliance(["convert", wav, opus, "--bit-rate", "128000"])
        #expect(result.stderr.contains("Opus is lossy"), "\(result.stderr)")
        // opusdec's output (pre-skip removed, RFC 7845 section 4.2) has the source's 48000 frames.
        let decoded = ReferenceTool.int16Samples(try ReferenceTool.run("opusdec", ["--quiet", "--rate", "48000", "--force-wav", opus, "-"]).dropFirst(44))
        #expect(decoded.count == 2 * 48000)
        #expect(try appliance(["info", opus]).stdout.contains("Codec:          Opus"))
    }

    @Test("convert MP3 to WAV: ffmpeg's decode within 2 LSB, the same length (LAME delay and padding removed)",
          .enabled(if: CodecParts.mp3, "the mp3 part (libmpg123) has not landed yet"))
    func mp3ToWAV() throws {
        let wav = try soxWAV("m.wav")
        let mp3 = directory + "/m.mp3"
        try ReferenceTool.run("lame", ["--quiet", "-b", "192", wav, mp3])
        let out = directory + "/m-decoded.wav"
        let result = try appliance(["convert", mp3, out])
        #expect(result.stderr.contains("the input is lossy"), "\(result.stderr)")
        let ours = try soxInt32s(out).map { $0 >> 16 }
        let reference = try ReferenceTool.ffmpegSamples(mp3).map { $0 >> 16 }
        #expect(ours.count == reference.count)
        #expect(ours.count == 2 * 44100)   // the source's length: gapless decoding
        // Both are 16-bit roundings of the same decode: ours is TPDF-dithered (±1 LSB), ffmpeg's is not.
        let worst = zip(ours, reference).map { abs(Int($0) - Int($1)) }.max() ?? 0
        #expect(worst <= 2, "largest difference \(worst) LSB")
    }

    @Test("convert WAV to ALAC in .m4a and in .caf: ffmpeg's decode is the source bit for bit",
          .enabled(if: CodecParts.ffmpeg, "the ffmpeg part (libavformat, libavcodec) has not landed yet"))
    func wavToALAC() throws {
        let wav = try soxWAV("a.wav")
        let source = try soxInt32s(wav)
        for (name, extra) in [("a.m4a", [String]()), ("a.caf", ["--data-format", "alac"])] {
            let path = directory + "/" + name
            try appliance(["convert", wav, path] + extra)
            let decoded = try ReferenceTool.ffmpegSamples(path)
            #expect(decoded.count == source.count, "\(name)")
            #expect(ReferenceTool.firstDifference(decoded, source) == nil, "\(name)")
            #expect(try appliance(["info", path]).stdout.contains("Codec:          Apple Lossless"), "\(name)")
        }
    }
}
