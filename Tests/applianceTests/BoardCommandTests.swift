import Foundation
import TestSupport
import Testing

/// `appliance board ...` run as a subprocess: output, exit status and error lines.
@Suite("appliance board")
struct BoardCommandTests {
    /// The repository's board-configs and broken fixtures.
    static let boardConfigs = SourceTree.root() + "/board-configs"
    static let broken = SourceTree.root() + "/Tests/BoardTests/Fixtures/broken"

    @Test func listShowsEveryBoardWithCodecAndFile() throws {
        let result = try ApplianceBinary.run(["board", "list", "--boards", Self.boardConfigs])
        #expect(result.status == 0, "\(result.stderr)")
        let lines = result.stdout.split(separator: "\n")
        #expect(lines.first == "7 boards:")
        for (name, chip) in [("audioinjector-stereo", "wm8731"), ("fe-pi-audio", "sgtl5000"), ("iqaudio-dacplus", "pcm5122"),
                             ("respeaker-2mic", "wm8960"), ("rpi-dacplus", "pcm5122"), ("simulated", "wm8960"), ("waveshare-wm8960", "wm8960")] {
            #expect(lines.contains { $0.contains(" \(name) ") && $0.contains(" \(chip) ")
                && $0.hasSuffix("[\(Self.boardConfigs)/\(name).yaml]") }, "\(name)")
        }
    }

    @Test func showPrintsEveryFieldWithDefaults() throws {
        let result = try ApplianceBinary.run(["board", "show", "respeaker-2mic", "--boards", Self.boardConfigs])
        #expect(result.status == 0, "\(result.stderr)")
        let lines = result.stdout.split(separator: "\n").map(String.init)
        #expect(lines.contains("codec         wm8960 at 0x1a on /dev/i2c-1"))
        #expect(lines.contains("button        user: remote, GPIO17 active-low, bias pull-up, debounce 20 ms"))
        #expect(lines.contains("led           pixels: apa102 x3 on /dev/spidev0.1"))
        #expect(lines.contains("jack          none"))
        #expect(lines.contains("route         output headphones, input microphone"))
        #expect(lines.contains("i2s frame     2 x 32-bit slots (64 fs)"), "the default frame the overlay pins")
        #expect(lines.contains("  clock       MCLK 12.288 MHz, codec is clock provider"))
        // Android's gesture timings, the defaults (AOSP ViewConfiguration: 300, 400 and 50 ms).
        #expect(lines.contains("  gestures    multi-click 300 ms, hold 400 ms, repeat 50 ms"))
        #expect(lines.contains("hold          seek (hold the remote to seek)"))
        #expect(lines.contains("shift         none") && lines.contains("encoders      none"))
        #expect(lines.count == 23)
    }

    @Test func showReadsAFileAndTheBuiltInBoard() throws {
        let file = try ApplianceBinary.run(["board", "show", Self.boardConfigs + "/iqaudio-dacplus.yaml"])
        #expect(file.status == 0)
        #expect(file.stdout.contains("amplifier     mute on GPIO22 active-low"))
        let builtIn = try ApplianceBinary.run(["board", "show", "simulated", "--boards", "/nonexistent"])
        #expect(builtIn.status == 0)
        #expect(builtIn.stdout.hasPrefix("name          simulated\n"))
    }

    @Test func showOfAnUnknownOrBrokenBoardFailsWithOneLine() throws {
        let unknown = try ApplianceBinary.run(["board", "show", "respeaker", "--boards", Self.boardConfigs])
        #expect(unknown.status == 1)
        #expect(unknown.stderrLines.count == 1)
        #expect(unknown.stderr.hasPrefix("appliance: unknown board 'respeaker' (known boards: audioinjector-stereo,"))
        let broken = try ApplianceBinary.run(["board", "show", Self.broken + "/dac-with-capture.yaml"])
        #expect(broken.status == 1)
        #expect(broken.stderrLines == ["appliance: \(Self.broken)/dac-with-capture.yaml:9: pcm.capture: the pcm5122 has no "
            + "inputs (remove capture: it is a DAC only) (and 2 more: see 'appliance board check \(Self.broken)/dac-with-capture.yaml')"])
    }

    @Test func checkPrintsOkOrEveryErrorAndExitsOneOnAnyError() throws {
        let good = try ApplianceBinary.run(["board", "check", Self.boardConfigs + "/fe-pi-audio.yaml",
                                            Self.boardConfigs + "/simulated.yaml"])
        #expect(good.status == 0)
        #expect(good.stderr.isEmpty)
        #expect(good.stdout == "\(Self.boardConfigs)/fe-pi-audio.yaml: ok\n\(Self.boardConfigs)/simulated.yaml: ok\n")

        let bad = Self.broken + "/duplicate-line.yaml"
        let mixed = try ApplianceBinary.run(["board", "check", Self.boardConfigs + "/fe-pi-audio.yaml", bad,
                                             "/nonexistent/x.yaml"])
        #expect(mixed.status == 1)
        #expect(mixed.stdout.split(separator: "\n").map(String.init) == [
            "\(Self.boardConfigs)/fe-pi-audio.yaml: ok",
            "\(bad):13: buttons[1].line: GPIO17 is already used by buttons[0].line (line 11)",
            "\(bad):15: amplifier.line: GPIO17 is already used by buttons[0].line (line 11)",
            "/nonexistent/x.yaml: cannot read '/nonexistent/x.yaml': no such file or directory",
        ])
        #expect(mixed.stderrLines == ["appliance: 2 of 3 board files have errors"])
    }
}
