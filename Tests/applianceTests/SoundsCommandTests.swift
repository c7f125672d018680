import Foundation
import TestSupport
import Testing

/// `appliance sounds`, run as a user would; the files it writes are read back by sox (soxi), a reference
/// tool, and their lengths checked against the sound designs of issue 12's brief (5 ms click, 420 ms alert,
/// 160 ms record chirps, 370 ms error buzz).
@Suite
struct SoundsCommandTests {
    @Test func writesEachBuiltInSoundAsAWaveFile() throws {
        let directory = NSTemporaryDirectory() + "appliance-sounds-" + UUID().uuidString
        try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let result = try ApplianceBinary.run(["sounds", "--rate", "44100", directory])
        #expect(result.status == 0, "\(result.stderr)")
        let designs = ["click": 5, "alert": 420, "record-start": 160, "record-stop": 160, "error": 370]
        for (name, milliseconds) in designs {
            let path = directory + "/" + name + ".wav"
            let frames = try Subprocess.check("/usr/bin/soxi", ["-s", path])
            let expected = Int((Double(milliseconds) * 44.1).rounded())
            #expect(String(decoding: frames, as: UTF8.self).trimmingCharacters(in: .whitespacesAndNewlines) == "\(expected)", "\(name)")
            let rate = try Subprocess.check("/usr/bin/soxi", ["-r", path])
            #expect(String(decoding: rate, as: UTF8.self).trimmingCharacters(in: .whitespacesAndNewlines) == "44100")
        }
        let listed = try ApplianceBinary.run(["sounds"])
        #expect(listed.stdout.split(separator: "\n").count == 5)
        let refused = try ApplianceBinary.run(["sounds", "--rate", "12345"])
        #expect(refused.status != 0 && refused.stderr.contains("--rate 12345"))
    }
}
