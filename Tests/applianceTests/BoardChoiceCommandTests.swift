import Foundation
import TestSupport
import Testing

/// `appliance board overlay`, `appliance board which` and `appliance run --board auto`, run as subprocesses.
@Suite("appliance board overlay and which")
struct BoardChoiceCommandTests {
    static let boardConfigs = SourceTree.root() + "/board-configs"

    func temporaryDirectory() throws -> String {
        let path = NSTemporaryDirectory() + "board-choice-" + UUID().uuidString
        try FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
        return path
    }

    @Test func overlayListsTheHardwareBoardsAndPrintsDTSForOne() throws {
        let list = try ApplianceBinary.run(["board", "overlay", "--all-in", Self.boardConfigs])
        #expect(list.status == 0, "\(list.stderr)")
        #expect(list.stdout == "audioinjector-stereo\nfe-pi-audio\niqaudio-dacplus\nrespeaker-2mic\nrpi-dacplus\nwaveshare-wm8960\n")
        let dts = try ApplianceBinary.run(["board", "overlay", "fe-pi-audio", "--boards", Self.boardConfigs])
        #expect(dts.status == 0, "\(dts.stderr)")
        #expect(dts.stdout.contains("/dts-v1/;\n/plugin/;\n"))
        #expect(dts.stdout.contains("bitclock-master = <&appliance_capture_codec>;"), "the SGTL5000 provides the clocks")
        let simulated = try ApplianceBinary.run(["board", "overlay", "simulated"])
        #expect(simulated.status == 1)
        #expect(simulated.stderrLines == ["appliance: board 'simulated' has no overlay: it is simulated (no hardware)"])
    }

    @Test func whichFollowsTheOrderAndSaysWhy() throws {
        let directory = try temporaryDirectory()
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let boot = directory + "/appliance.txt", local = directory + "/board.yaml", hat = directory + "/root"
        let base = ["board", "which", "--boards", Self.boardConfigs, "--local-board", local, "--boot-config", boot,
                    "--hat-root", hat]

        let none = try ApplianceBinary.run(base)
        #expect(none.status == 1)
        #expect(none.stderrLines.count == 1)
        #expect(none.stderr.hasPrefix("appliance: no board chosen: put one line 'dtoverlay=appliance-BOARD' in \(boot) "
            + "(or a board file at \(local)); no HAT EEPROM; boards: audioinjector-stereo, fe-pi-audio,"))

        // The firmware's HAT EEPROM strings, as on a Raspberry Pi DAC+ (its board file's hat: block).
        try FileManager.default.createDirectory(atPath: hat + "/proc/device-tree/hat", withIntermediateDirectories: true)
        try "Raspberry Pi Ltd.\0".write(toFile: hat + "/proc/device-tree/hat/vendor", atomically: true, encoding: .utf8)
        try "Raspberry Pi DAC Plus\0".write(toFile: hat + "/proc/device-tree/hat/product", atomically: true, encoding: .utf8)
        // Without appliance.txt's line the firmware loads only the EEPROM's own overlay: no generic card node.
        let notLoaded = try ApplianceBinary.run(base)
        #expect(notLoaded.status == 1)
        #expect(notLoaded.stderr.contains("but its overlay is not loaded: put the line 'dtoverlay=appliance-rpi-dacplus' in \(boot)"),
                "\(notLoaded.stderr)")
        try FileManager.default.createDirectory(atPath: hat + "/proc/device-tree/appliance-sound", withIntermediateDirectories: true)
        let byHAT = try ApplianceBinary.run(base)
        #expect(byHAT.stdout == "rpi-dacplus (the HAT EEPROM says \"Raspberry Pi Ltd. Raspberry Pi DAC Plus\")\n")

        try "# the board\ndtoverlay=appliance-respeaker-2mic\n".write(toFile: boot, atomically: true, encoding: .utf8)
        let byLine = try ApplianceBinary.run(base)
        #expect(byLine.stdout == "respeaker-2mic (\(boot):2: dtoverlay=appliance-respeaker-2mic)\n")

        try "dtoverlay=appliance-respeaker2mic\n".write(toFile: boot, atomically: true, encoding: .utf8)
        let typo = try ApplianceBinary.run(base)
        #expect(typo.status == 1)
        #expect(typo.stderr.hasPrefix("appliance: \(boot):1: dtoverlay=appliance-respeaker2mic names no known board; "
            + "did you mean appliance-respeaker-2mic?"))

        try String(contentsOfFile: Self.boardConfigs + "/fe-pi-audio.yaml", encoding: .utf8)
            .write(toFile: local, atomically: true, encoding: .utf8)
        let byFile = try ApplianceBinary.run(base)
        #expect(byFile.stdout == "fe-pi-audio (the local board file \(local))\n")
    }

    @Test func runWithBoardAutoTellsTheSameErrorBeforeStarting() throws {
        let directory = try temporaryDirectory()
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let result = try ApplianceBinary.run(["run", "--board", "auto", "--boards", Self.boardConfigs, "--state", directory,
                                              "--local-board", directory + "/none.yaml", "--boot-config",
                                              directory + "/none.txt", "--hat-root", directory])
        #expect(result.status == 1)
        #expect(result.stderrLines.count == 1)
        #expect(result.stderr.hasPrefix("appliance: no board chosen: put one line 'dtoverlay=appliance-BOARD' in "
            + "\(directory)/none.txt"))
    }
}
