import Foundation
import Testing

/// `appliance codec ...` run as a subprocess on the boards' simulated twins.
@Suite("appliance codec")
struct CodecCommandTests {
    static let boardConfigs = BoardCommandTests.boardConfigs

    /// The (register, value) writes of a trace, each checked against the i2ctransfer line under it: a 7+9
    /// chip sends `reg << 1 | bit 8` and the value's low byte.
    static func writes(in trace: String) throws -> [(register: Int, value: Int)] {
        let lines = trace.split(separator: "\n").map { $0.trimmingCharacters(in: .whitespaces) }
        var writes: [(Int, Int)] = []
        for (index, line) in lines.enumerated() where line.hasPrefix("write 0x") {
            let words = line.split(separator: " ")
            let register = try #require(Int(words[1].dropFirst(2), radix: 16))
            let value = try #require(Int(words[3].dropFirst(2), radix: 16))
            let bytes = lines[index + 1].split(separator: " ").suffix(2).compactMap { Int($0.dropFirst(2), radix: 16) }
            #expect(lines[index + 1].hasPrefix("i2ctransfer -y 1 w2@0x1a "), "\(lines[index + 1])")
            #expect(bytes == [register << 1 | value >> 8, value & 0xFF], "\(line)")
            writes.append((register, value))
        }
        return writes
    }

    @Test func aPowerUpTraceIsTheDriversRecipeFromPowerOnWithBytesAndReasons() throws {
        let result = try ApplianceBinary.run(["codec", "trace", "power-up", "--board", "waveshare-wm8960",
                                              "--boards", Self.boardConfigs])
        #expect(result.status == 0, "\(result.stderr)")
        let lines = result.stdout.split(separator: "\n").map(String.init)
        #expect(lines.first == "WM8960 on i2c-1 at 0x1a, MCLK 12.288 MHz (board 'waveshare-wm8960'): power-up, "
                + "48000 Hz, 16-bit i2s, codec provider, speaker at -20.0 dB")
        #expect(lines.last == "20 transfers, 100 ms of waits")
        #expect(lines.contains { $0.hasPrefix("  wait 100 ms") && $0.hasSuffix("; VMID charging") })
        let writes = try Self.writes(in: result.stdout)
        #expect(writes.map(\.register) == [0x0F, 0x07, 0x08, 0x06, 0x1C, 0x19, 0x19, 0x1C, 0x17, 0x22, 0x25, 0x2F,
                                          0x1A, 0x1A, 0x31, 0x28, 0x29, 0x0A, 0x0B, 0x05])
        #expect(writes.map(\.value) == [0x000, 0x042, 0x1C4, 0x008, 0x09C, 0x080, 0x0C0, 0x008, 0x1C1, 0x150, 0x150,
                                       0x00C, 0x180, 0x198, 0x0F7, 0x0E5, 0x1E5, 0x0FF, 0x1FF, 0x000])
        // Every write line carries its step's reason.
        #expect(lines.filter { $0.hasPrefix("  write ") }.allSatisfy { $0.contains("; ") && !$0.hasSuffix("; ") })
    }

    @Test func aVolumeTraceIsOnlyTheGainWrites() throws {
        let result = try ApplianceBinary.run(["codec", "trace", "volume", "--volume", "-30"])
        #expect(result.status == 0, "\(result.stderr)")
        let writes = try Self.writes(in: result.stdout)
        // Speaker -30 dB: 0x79 (0 dB) - 30 = 0x5B, zero-cross (bit 7); the right write sets the update bit.
        #expect(writes.map(\.register) == [0x28, 0x29] && writes.map(\.value) == [0x0DB, 0x1DB])
        #expect(result.stdout.hasSuffix("2 transfers, 0 ms of waits\n"))
    }

    @Test func aVolumeTraceShowsTheFineGainThe824StageApplies() throws {
        let result = try ApplianceBinary.run(["codec", "trace", "volume", "--volume", "-30.25"])
        #expect(result.status == 0, "\(result.stderr)")
        // The speaker amplifier steps 1 dB (WM8960 datasheet, R40/R41 SPKLVOL) and the DAC 0.5 dB (R10/R11):
        // -0.25 dB is left for the samples, 10^(-0.25/20) = 0.971627951, 8.24 raw round(0.971627951 · 2^24).
        let lines = result.stdout.split(separator: "\n")
        #expect(lines.dropFirst().first == "speaker -30.25 dB = codec -30.00 dB + fine -0.25 dB: the 8.24 stage scales by 0.97162795 (raw 16301212)")
    }

    @Test func aResetTraceShowsTheDriversIdentificationReads() throws {
        let result = try ApplianceBinary.run(["codec", "trace", "reset", "--board", "fe-pi-audio",
                                              "--boards", Self.boardConfigs])
        #expect(result.status == 0, "\(result.stderr)")
        let lines = result.stdout.split(separator: "\n").map(String.init)
        // CHIP_ID (register 0x0000) holds part 0xA0 in bits 15:8 (SGTL5000 datasheet, CHIP_ID); a 16+16 read
        // is the two register bytes written, a repeated start and two bytes read.
        #expect(lines.dropFirst().prefix(3) == ["SGTL5000 reset:",
                                                "  read 0x0000 -> 0xA011                 ; reading CHIP_ID",
                                                "    i2ctransfer -y 1 w2@0x0a 0x00 0x00 r2"])
    }

    @Test func aDumpDecodesTheFieldsAndTheAnalogState() throws {
        let result = try ApplianceBinary.run(["codec", "dump", "--after", "power-up"])
        #expect(result.status == 0, "\(result.stderr)")
        let lines = result.stdout.split(separator: "\n").map(String.init)
        #expect(lines.first == "WM8960 on i2c-1 at 0x1a, MCLK 12.288 MHz (board 'simulated'; simulated twin, after power-up)")
        #expect(lines.contains { $0.hasPrefix("R25   0x19  Pwr Mgmt (1)") && $0.contains(" 0x0C0  cache  ") && $0.contains("VMIDSEL=0b01") })
        #expect(lines.contains { $0.hasPrefix("R15   0x0F") && $0.hasSuffix("(write-only: a command, not a state)") })
        #expect(lines.contains("speaker: powered at -20.0 dB"))
        #expect(lines.contains("headphones: off"))
    }

    @Test(arguments: ["audioinjector-stereo", "fe-pi-audio", "iqaudio-dacplus", "respeaker-2mic", "waveshare-wm8960"])
    func everyBoardsCodecTracesItsOperations(board: String) throws {
        for operation in ["power-up", "rate-change", "power-down"] {
            let result = try ApplianceBinary.run(["codec", "trace", operation, "--board", board, "--rate", "32000",
                                                  "--boards", Self.boardConfigs])
            #expect(result.status == 0, "\(board) \(operation): \(result.stderr)")
            let lines = result.stdout.split(separator: "\n")
            #expect(lines.first?.contains("(board '\(board)'): \(operation)") == true)
            #expect(lines.last?.contains(" transfer") == true && lines.last?.hasSuffix(" ms of waits") == true)
            // Every transfer line is followed by the i2ctransfer bytes that repeat it.
            for (index, line) in lines.enumerated() where line.hasPrefix("  write ") || line.hasPrefix("  read ") {
                #expect(lines[index + 1].hasPrefix("    i2ctransfer -y 1 "), "\(board) \(operation): \(line)")
            }
        }
    }

    @Test func aMissingBusIsNamedWithWhatToEnable() throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("codec-bus-\(getpid())").path
        try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: directory) }
        // The Fe-Pi's file moved to a bus no machine has.
        let file = directory + "/fe-pi-250.yaml"
        try String(contentsOfFile: Self.boardConfigs + "/fe-pi-audio.yaml", encoding: .utf8)
            .replacingOccurrences(of: "  bus: 1  ", with: "  bus: 250").write(toFile: file, atomically: true, encoding: .utf8)
        let result = try ApplianceBinary.run(["codec", "dump", "--hardware", "--board", file])
        #expect(result.status == 1)
        #expect(result.stderr.hasPrefix("appliance: cannot open /dev/i2c-250: No such file or directory (ENOENT). No such I2C bus"))
        #expect(result.stderr.contains("dtparam=i2c_arm=on"))
    }

    @Test func mistakesGetOneLine() throws {
        let unknown = try ApplianceBinary.run(["codec", "trace", "nope"])
        #expect(unknown.status == 64)
        #expect(unknown.stderr == "appliance: unknown operation 'nope'; use one of reset, power-up, rate-change, volume, "
                + "standby, wake, power-down (see 'appliance codec trace --help')\n")
        let readBack = try ApplianceBinary.run(["codec", "dump", "--read-back"])
        #expect(readBack.status == 64 && readBack.stderr.hasPrefix("appliance: --read-back needs --hardware"))
        let rate = try ApplianceBinary.run(["codec", "trace", "rate-change", "--rate", "12345"])
        #expect(rate.status == 1)
        #expect(rate.stderr.hasPrefix("appliance: the WM8960 cannot make 12345 Hz exactly from a 12.288 MHz MCLK; rates it can make: "))
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("codec-cli-\(getpid())").path
        try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let file = directory + "/kernel.yaml"
        let text = try String(contentsOfFile: Self.boardConfigs + "/waveshare-wm8960.yaml", encoding: .utf8)
            .replacingOccurrences(of: "control: appliance", with: "control: kernel")
        try text.write(toFile: file, atomically: true, encoding: .utf8)
        let kernel = try ApplianceBinary.run(["codec", "dump", "--hardware", "--board", file])
        #expect(kernel.status == 1)
        #expect(kernel.stderr == "appliance: the board file says the kernel drives the WM8960 (codec.control: kernel); "
                + "the appliance leaves it alone and uses ALSA mixer controls\n")
    }
}
