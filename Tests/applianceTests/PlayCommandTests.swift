import Foundation
import TestSupport
import Testing

/// `appliance play`, run as a user would, on the simulated PCM paced by the system clock: files made by sox
/// (a reference tool) play for the time asked, looping when shorter, with no xrun; mistakes are one line.
@Suite
struct PlayCommandTests {
    static func makeFile(_ name: String, rate: Int, seconds: Double) throws -> (directory: String, path: String) {
        let directory = NSTemporaryDirectory() + "appliance-play-" + UUID().uuidString
        try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
        let path = directory + "/" + name
        _ = try Subprocess.check("/usr/bin/sox", ["-n", "-r", "\(rate)", "-c", "2", "-b", "16", path,
                                                  "synth", "\(seconds)", "sine", "440", "gain", "-6"])
        return (directory, path)
    }

    /// Under qemu-user (the aarch64 run) the binary is translated as it goes: a real-time period can miss its
    /// deadline there for reasons no board has, so xruns are checked on the host only.
    static var emulated: Bool { !(ProcessInfo.processInfo.environment["APPLIANCE_LAUNCHER"] ?? "").isEmpty }

    static func line(_ label: String, in text: String) -> String? {
        text.split(separator: "\n").first { $0.hasPrefix(label) }.map { String($0.dropFirst(label.count)) }
    }

    @Test func aShortPlayLoopsTheFileForTheSecondsAskedWithNoXrun() throws {
        // 0.2 s of 48 kHz: shorter than the 0.5 s asked, so the file plays two and a half times.
        let (directory, path) = try Self.makeFile("short.wav", rate: 48000, seconds: 0.2)
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let result = try ApplianceBinary.run(["play", path, "--seconds", "0.5", "--period", "128", "--stats"])
        #expect(result.status == 0, "\(result.stderr)")
        let frames = try #require(Self.line("frames played:", in: result.stdout))
        // 0.5 s x 48000 frames/s = 24000 frames, every one of them played out of the device.
        #expect(frames.trimmingCharacters(in: .whitespaces).hasPrefix("24000 at 48 kHz"), "\(frames)")
        if !Self.emulated { #expect(Self.line("xruns:", in: result.stdout)?.trimmingCharacters(in: .whitespaces) == "0") }
        #expect(Self.line("render time:", in: result.stdout)?.contains("worst") == true)
    }

    @Test func aFileAtAnotherRatePlaysItsOwnFramesForTheSecondsAsked() throws {
        let (directory, path) = try Self.makeFile("cd.wav", rate: 44100, seconds: 1)
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let result = try ApplianceBinary.run(["play", path, "--seconds", "0.5", "--rate", "48000", "--eq", "rock",
                                              "--volume=-6", "--stats"])
        #expect(result.status == 0, "\(result.stderr)")
        // 0.5 s x 44100 frames/s = 22050 frames of the file, converted to the 48 kHz device.
        let frames = try #require(Self.line("frames played:", in: result.stdout))
        #expect(frames.trimmingCharacters(in: .whitespaces).hasPrefix("22050 at 44.1 kHz"), "\(frames)")
        if !Self.emulated { #expect(Self.line("xruns:", in: result.stdout)?.trimmingCharacters(in: .whitespaces) == "0") }
    }

    @Test func aMissingFileIsOneClearError() throws {
        let result = try ApplianceBinary.run(["play", "/nonexistent/song.wav"])
        #expect(result.status == 1)
        #expect(result.stderrLines.count == 1, "\(result.stderr)")
        #expect(result.stderr.contains("cannot play '/nonexistent/song.wav'") && result.stderr.contains("No such file"))
    }

    @Test func aFileThatIsNotAudioIsOneClearError() throws {
        let path = NSTemporaryDirectory() + "appliance-play-" + UUID().uuidString + ".wav"
        try Data("not a RIFF file at all".utf8).write(to: URL(fileURLWithPath: path))
        defer { try? FileManager.default.removeItem(atPath: path) }
        let result = try ApplianceBinary.run(["play", path])
        #expect(result.status == 1)
        #expect(result.stderrLines.count == 1 && result.stderr.contains("cannot play '\(path)'"), "\(result.stderr)")
    }

    @Test func aBadDeviceOrOptionIsOneClearError() throws {
        let (directory, path) = try Self.makeFile("short.wav", rate: 48000, seconds: 0.1)
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let device = try ApplianceBinary.run(["play", path, "--device", "no-such-pcm"])
        #expect(device.status == 1 && device.stderrLines.count == 1)
        #expect(device.stderr.contains("cannot open device 'no-such-pcm'"), "\(device.stderr)")
        for (arguments, says) in [(["--periods", "1"], "--periods 1"), (["--seconds=-1"], "--seconds -1"),
                                  (["--volume=3"], "--volume 3"), (["--eq", "polka-x"], "unknown preset 'polka-x'")] {
            let result = try ApplianceBinary.run(["play", path] + arguments)
            #expect(result.status != 0 && result.stderrLines.count == 1, "\(arguments): \(result.stderr)")
            #expect(result.stderr.contains(says), "\(arguments): \(result.stderr)")
        }
    }
}
