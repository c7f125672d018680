import Foundation
import TestSupport
import Testing

/// `appliance info`, `convert` and `render`, run as a user would.
@Suite
struct AudioToolCommandTests {
    let directory: String = {
        let path = NSTemporaryDirectory() + "appliance-tools-" + UUID().uuidString
        try? FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
        return path
    }()

    func sox(_ arguments: [String]) throws -> Data {
        try Subprocess.check("/usr/bin/sox", arguments)
    }

    func samples(_ path: String) throws -> [Int16] {
        let data = try sox(["-D", path, "-t", "s16", "-L", "-"])   // -D: sox must not dither 24 -> 16 bits
        return data.withUnsafeBytes { raw in (0..<(raw.count / 2)).map { Int16(littleEndian: raw.loadUnaligned(fromByteOffset: 2 * $0, as: Int16.self)) } }
    }

    func makeInput() throws -> String {
        let path = directory + "/in.wav"
        _ = try sox(["-n", "-r", "44100", "-c", "2", "-b", "16", path, "synth", "0.5", "sine", "440", "sine", "660", "gain", "-6"])
        return path
    }

    @Test func infoDescribesTheFile() throws {
        let input = try makeInput()
        let result = try ApplianceBinary.run(["info", input])
        #expect(result.status == 0)
        #expect(result.stdout.contains("File type:      WAVE"))
        #expect(result.stdout.contains("2 ch, 44100 Hz, 'lpcm' Int16 little-endian"))
        #expect(result.stdout.contains("Duration:       0.500 s (22050 frames)"))
    }

    @Test func convertChangesContainerFormatAndChannels() throws {
        let input = try makeInput()
        let aiff = directory + "/out.aiff"
        #expect(try ApplianceBinary.run(["convert", input, aiff, "--data-format", "s24"]).status == 0)
        #expect(try samples(aiff) == samples(input))                 // 16 -> 24 bits is exact
        let mono = directory + "/mono.caf"
        #expect(try ApplianceBinary.run(["convert", input, mono, "--channels", "1"]).status == 0)
        let stereo = try samples(input), down = try samples(mono)
        #expect(down.count == stereo.count / 2)
        for f in stride(from: 0, to: down.count, by: 997) {
            let mean = (Int(stereo[2 * f]) + Int(stereo[2 * f + 1]))
            #expect(abs(Int(down[f]) * 2 - mean) <= 1)
        }
        let resampled = directory + "/48k.wav"
        #expect(try ApplianceBinary.run(["convert", input, resampled, "--rate", "48000"]).status == 0)
        #expect(try samples(resampled).count == 2 * 24000)
    }

    @Test func renderAppliesGainThroughTheChain() throws {
        let input = try makeInput()
        let output = directory + "/quiet.wav"
        #expect(try ApplianceBinary.run(["render", input, output, "--gain", "-6.0206", "--eq", "flat"]).status == 0)
        let a = try samples(input), b = try samples(output)
        #expect(a.count == b.count)
        // Half the amplitude, within TPDF dither (±1 LSB) and rounding.
        #expect(zip(a, b).allSatisfy { abs(Int($0) - 2 * Int($1)) <= 3 })
        // Deterministic: rendering again gives the same bytes.
        let again = directory + "/again.wav"
        #expect(try ApplianceBinary.run(["render", input, again, "--gain", "-6.0206", "--eq", "flat"]).status == 0)
        #expect(try Data(contentsOf: URL(fileURLWithPath: output)) == Data(contentsOf: URL(fileURLWithPath: again)))
    }

    @Test func mistakesGetOneLineAndLeaveNoOutput() throws {
        let input = try makeInput()
        for (arguments, message) in [(["render", input, directory + "/x.wav", "--eq", "nope"], "unknown preset 'nope'"),
                                     (["convert", input, directory + "/x.caf", "--data-format", "ima-adpcm"], "CAF cannot hold Microsoft IMA ADPCM"),
                                     (["convert", input, directory + "/x.wav", "--rate", "12345"], "cannot convert 44100 Hz to 12345 Hz"),
                                     (["info", directory + "/missing.wav"], "cannot open"),
                                     (["convert", input, directory + "/x.xyz"], "cannot tell the file format"),
                                     (["convert", input, directory + "/x.mp3"], "cannot write MP3 files: they are read here, not written"),
                                     (["convert", input, directory + "/x.flac", "--bit-rate", "96000"], "--bit-rate applies to Opus output"),
                                     (["convert", input, directory + "/x.opus", "--compression-level", "5"], "--compression-level applies to FLAC output"),
                                     (["convert", input, directory + "/x.flac", "--compression-level", "9"], "--compression-level must be 0 ... 8")] {
            let result = try ApplianceBinary.run(arguments)
            #expect(result.status != 0)
            #expect(result.stderrLines.count == 1)
            #expect(result.stderr.contains(message), "\(result.stderr)")
        }
        #expect(try FileManager.default.contentsOfDirectory(atPath: directory) == ["in.wav"])
    }
}
