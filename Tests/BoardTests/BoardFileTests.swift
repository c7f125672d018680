import HAL
import Testing
@testable import Board

@Suite("Board files")
struct BoardFileTests {
    @Test func everyShippedBoardFileValidates() throws {
        let names = try RepositoryFiles.yamlFiles(in: RepositoryFiles.boardConfigs)
        #expect(names.count >= 6)
        for name in names {
            let path = RepositoryFiles.boardConfigs + "/" + name
            do {
                let config = try BoardConfig.parse(try RepositoryFiles.text(path), file: path)
                #expect(config.name + ".yaml" == name, "a board's file is named after it")
            } catch {
                Issue.record("\(error)")
            }
        }
    }

    @Test func embeddedSimulatedBoardIsTheFileVerbatim() throws {
        let file = try RepositoryFiles.text(RepositoryFiles.boardConfigs + "/simulated.yaml")
        #expect(SimulatedBoard.yaml == file)
        let board = SimulatedBoard.config
        #expect(board.name == "simulated")
        #expect(board.codec.chip == .wm8960)
        #expect(board.pcm == PCMNames(playback: "simulated", capture: "simulated"))
        #expect(board.gpioChip == .chip(.label("simulated")))
        #expect(board.buttons.map(\.role) == [.remote, .volumeUp, .volumeDown, .record, .custom])
        #expect(board.shift == "shift" && board.holdAction == .seek)
        #expect(board.encoders == [EncoderConfig(name: "volume", lineA: 6, lineB: 13, active: .low, bias: .pullUp, role: .volume)])
    }

    @Test func respeakerFactsAndDefaults() throws {
        let path = RepositoryFiles.boardConfigs + "/respeaker-2mic.yaml"
        let board = try BoardConfig.parse(try RepositoryFiles.text(path), file: path)
        #expect(board.codec == CodecConfig(chip: .wm8960, bus: 1, address: 0x1a, clock: .mclk(12_288_000),
                                           role: .provider, control: .appliance))
        #expect(board.buttons == [ButtonConfig(name: "user", input: GPIOInputLine(line: 17, active: .low, bias: .pullUp,
                                                                                  debounceMilliseconds: 20), role: .remote)])
        #expect(board.leds == [LEDConfig(name: "pixels", kind: .apa102(bus: 0, chipSelect: 1, count: 3))])
        #expect(board.gpioChip == .raspberryPiHeader)
        #expect(board.jack == .none)
        #expect(board.hat == nil)
    }

    @Test func dacBoardHasNoCaptureAndAMuteLine() throws {
        let path = RepositoryFiles.boardConfigs + "/iqaudio-dacplus.yaml"
        let board = try BoardConfig.parse(try RepositoryFiles.text(path), file: path)
        #expect(board.codec.clock == .bclk)
        #expect(board.codec.address == 0x4c)
        #expect(board.pcm.capture == nil)
        #expect(board.route == DefaultRoute(output: .line, input: nil))
        #expect(board.amplifier == AmplifierConfig(line: 22, active: .low, control: .mute))
    }

    @Test func defaultsAreFilledIn() throws {
        let text = """
        name: minimal
        description: the least a board file says
        codec:
          chip: sgtl5000
          address: 0x2a
          mclk: 24576000
        pcm:
          playback: default
          capture: default
        jack:
          source: gpio
          line: 6
          active: high
        buttons:
          - name: b
            line: 16
        volume:
          max-db: -3.5
        """
        let board = try BoardConfig.parse(text, file: "minimal.yaml")
        #expect(board.codec.bus == 1)
        #expect(board.codec.role == .consumer)
        #expect(board.codec.control == .appliance)
        #expect(board.jack == .gpio(GPIOInputLine(line: 6, active: .high, bias: .pullDown, debounceMilliseconds: 50)))
        #expect(board.buttons[0].input == GPIOInputLine(line: 16, active: .low, bias: .pullUp, debounceMilliseconds: 20))
        #expect(board.buttons[0].role == .custom)
        #expect(board.volume == VolumeLimits(maximumDB: -3.5, defaultDB: -23.5))
        #expect(board.route == DefaultRoute(output: .headphones, input: .microphone))
        #expect(board.readableDescription.contains("clock       MCLK 24.576 MHz, codec is clock consumer"))
        #expect(board.readableDescription.contains("volume        max -3.5 dB, default -23.5 dB"))
    }

    @Test func gestureTimingsHoldShiftAndEncodersAreRead() throws {
        let text = """
        name: recorder
        description: a field recorder with a knob
        codec:
          chip: wm8960
          address: 0x1a
          mclk: 12288000
        pcm:
          playback: default
          capture: default
        buttons:
          - name: go
            line: 17
            role: remote
            multi-click-ms: 250
            hold-ms: 800
            repeat-ms: 100
          - name: fn
            line: 16
        hold: record
        shift: fn
        encoders:
          - name: knob
            line-a: 5
            line-b: 6
            active: high
        volume:
          max-db: 0
        """
        let board = try BoardConfig.parse(text, file: "recorder.yaml")
        #expect(board.buttons[0] == ButtonConfig(name: "go", input: GPIOInputLine(line: 17, active: .low, bias: .pullUp,
                                                                                  debounceMilliseconds: 20),
                                                 role: .remote, multiClickMilliseconds: 250, holdMilliseconds: 800,
                                                 repeatMilliseconds: 100))
        #expect(board.buttons[1].multiClickMilliseconds == 300 && board.buttons[1].holdMilliseconds == 400
                && board.buttons[1].repeatMilliseconds == 50)      // Android's ViewConfiguration defaults
        #expect(board.holdAction == .record && board.shift == "fn")
        #expect(board.encoders == [EncoderConfig(name: "knob", lineA: 5, lineB: 6, active: .high, bias: .pullDown, role: .volume)])
        #expect(board.readableDescription.contains("encoder       knob: volume, A GPIO5 B GPIO6 active-high, bias pull-down"))
        #expect(board.readableDescription.contains("  gestures    multi-click 250 ms, hold 800 ms, repeat 100 ms"))
    }

    /// Fixture name -> every error the check reports, exactly.
    static let broken: [String: [String]] = [
        "address-out-of-range": [":5: codec.address: 0x80 is not a 7-bit I2C address (0x08...0x77)"],
        "anchor": [":2: anchors ('&') are not supported"],
        "bclk-without-pll": [
            ":5: codec.address: the wm8960 does not answer on 0x1b (its strap pins allow 0x1a)",
            ":6: codec.mclk: the wm8960 cannot run from BCLK (give its MCLK crystal in Hz)",
        ],
        "codec-jack-status": [
            ":11: jack.source: the wm8731 has no readable jack status (use source: gpio with the jack's switch line)",
            ":12: jack.line: only used with source: gpio",
        ],
        // A bare crystal needs the codec's own oscillator: only the WM8731 has one (XTI/XTO, R6 OSCPD), and it
        // must say which clock it has, because its driver powers the oscillator only for a crystal.
        "crystal-clock": [":7: codec.clock: the SGTL5000 has no crystal oscillator (an oscillator drives its MCLK pin: clock: mclk)"],
        "wm8731-clock-unsaid": [
            ":6: codec.clock: the WM8731 runs from a crystal on XTI/XTO or from a clock on MCLK: say which (clock: crystal or clock: mclk)",
        ],
        // sound/soc/codecs/sgtl5000.c and its binding: micbias-voltage-m-volts 1250...3000 in 250 mV steps,
        // micbias-resistor-k-ohms 0, 2, 4 or 8 (0 is "off", which the input's bias switch says instead).
        "mic-bias": [
            ":7: codec.mic-bias-mv: 3100 is out of range (1250...3000)",
            ":8: codec.mic-bias-kohm: 3 kOhm is not a bias resistor the chip has (2, 4 or 8)",
        ],
        "mic-bias-fixed": [":7: codec.mic-bias-mv: the WM8960's mic bias is not programmable (remove it)"],
        "crystal-consumer": [
            ":7: codec.clock: a codec on its own crystal must drive BCLK and LRCLK: the Pi's clocks cannot keep phase with it (role: provider)",
        ],
        "clock-kind-typo": [":7: codec.clock: unknown value 'cristal' (did you mean 'crystal'?)"],
        "i2s-frame": [":10: i2s.slot-width: 64 is not a slot width (16...32)"],
        // USB mode drives BCLK at 12 MHz (audioinjector-pi-soundcard.c: bclk_ratio 250 at 48 kHz), not in slots.
        "usb-mode-in-slots": [
            ":7: i2s: a WM8731 providing the clocks from 12 MHz (USB mode) drives BCLK at 12 MHz, not in slots (write i2s: bit-clock: 12000000)",
        ],
        "fixed-bit-clock-wm8960": [
            ":10: i2s.bit-clock: only a WM8731 providing the clocks in USB mode (12 MHz) makes a fixed bit clock, equal to its MCLK (remove bit-clock; give slots and slot-width)",
        ],
        "dac-with-capture": [
            ":9: pcm.capture: the pcm5122 has no inputs (remove capture: it is a DAC only)",
            ":13: route.output: the pcm5122 has no headphones output (it has: line)",
            ":14: route.input: the pcm5122 has no microphone input (it has: none)",
        ],
        "debounce-range": [
            ":12: jack.bias: unknown value 'pullup' (did you mean 'pull-up'?)",
            ":13: jack.debounce-ms: 2000 is out of range (0...1000)",
        ],
        "duplicate-key": [":6: duplicate key 'chip' (first on line 4)"],
        "gestures": [
            ":14: buttons[0].hold-ms: 50 is out of range (100...10000)",
            ":15: buttons[0].multi-click-ms: 5000 is out of range (50...2000)",
            ":16: hold: unknown value 'rewind' (one of: seek, record)",
            ":17: shift: no button named 'fn' (the buttons are: play)",
        ],
        "shift-role": [
            ":13: hold: recording on hold needs a capture PCM (hold: seek, or add pcm.capture)",
            ":14: shift: the shift button 'fn' has role remote (a shift button only modifies the others: give it role custom (or none))",
            ":17: encoders[0].line-a: GPIO17 is already used by buttons[0].line (line 11)",
            ":20: encoders[1].name: 'knob' is already the name of encoders[0]",
        ],
        "duplicate-line": [
            ":13: buttons[1].line: GPIO17 is already used by buttons[0].line (line 11)",
            ":15: amplifier.line: GPIO17 is already used by buttons[0].line (line 11)",
        ],
        "i2s-line": [
            ":12: buttons[0].line: GPIO18 is the I2S BCLK pin (pick a free line)",
            ":14: buttons[1].line: GPIO40 is not on the Raspberry Pi header (0...27, or name the chip under gpio.chip)",
        ],
        // Fuzzing found the "did you mean" table grew with the key's length; keys are bounded instead.
        "long-key": [":5: a key of 300 characters; keys are at most 64"],
        // Fuzzing found the duplicate-key check quadratic in the number of keys; mappings are bounded (and the
        // check is a table lookup).
        "too-many-keys": [":68: more than 64 keys in one mapping (from line 4)"],
        "led-kind-mismatch": [
            ":12: leds[0].line: only used with kind: gpio",
            ":14: leds[1].name: 'ring' is already the name of leds[0]",
        ],
        "mclk-out-of-range": [":6: codec.mclk: 100000000 is out of range (1000000...50000000)"],
        "missing-required": [
            ":1: description: required key is missing (one line saying what board this is)",
            ":7: pcm.playback: required key is missing (an ALSA PCM name such as hw:CARD=x,DEV=0)",
        ],
        "tab-indent": [":3: tab in indentation (indent with spaces)"],
        "unknown-chip": [":4: codec.chip: unknown value 'wm8961' (did you mean 'wm8960'?)"],
        "unknown-key-typo": [
            ":4: codec.address: required key is missing (for example 0x1a)",
            ":5: codec.adress: unknown key (did you mean 'address'?)",
        ],
        "volume-default-above-cap": [":11: volume.default-db: 0 dB is above max-db (at most -6 dB)"],
        "volume-range": [":10: volume.max-db: 20 dB is out of range (-60...12 dB)"],
        "wrong-type": [
            ":6: codec.bus: expected an integer, found a mapping",
            ":7: codec.address: '0x1a' is quoted text, not a number (remove the quotes)",
        ],
    ]

    @Test func everyBrokenFixtureHasItsExpectedErrors() throws {
        let files = try RepositoryFiles.yamlFiles(in: RepositoryFiles.brokenFixtures)
        #expect(Set(files.map { String($0.dropLast(5)) }) == Set(Self.broken.keys), "table and fixtures agree")
        #expect(files.count >= 12)
        for file in files {
            let name = String(file.dropLast(5))
            let path = "Fixtures/broken/" + file
            let text = try RepositoryFiles.text(RepositoryFiles.brokenFixtures + "/" + file)
            do throws(BoardConfigErrors) {
                _ = try BoardConfig.parse(text, file: path)
                Issue.record("\(file) validated")
            } catch {
                #expect(error.errors.map(\.description) == (Self.broken[name] ?? []).map { path + $0 }, "\(file)")
            }
        }
    }

    /// Fuzzing fed the loader 256 KiB of keys (a minute of duplicate checks); a board file is a few KiB, so a
    /// document over the bound is refused at line 1 before any line is read.
    @Test func aDocumentOverTheSizeBoundIsRefusedWithItsSize() throws {
        let valid = try RepositoryFiles.text(RepositoryFiles.root + "/board-configs/simulated.yaml")
        let bound = 64 << 10
        let text = valid + String(repeating: "#", count: bound - valid.utf8.count) + "\n"
        #expect(text.utf8.count == bound + 1)
        #expect(throws: Never.self) { try BoardConfig.parse(valid, file: "big.yaml") }
        do throws(BoardConfigErrors) {
            _ = try BoardConfig.parse(text, file: "big.yaml")
            Issue.record("a document of \(text.utf8.count) bytes was read")
        } catch {
            #expect(error.errors.map(\.description) == ["big.yaml:1: the file is 65537 bytes; a board file is at most 65536 (is it the right file?)"])
        }
    }

    @Test func errorDescriptionReadsFileLineFieldMessageHint() {
        let error = BoardConfigError(file: "board-configs/foo.yaml", line: 12, field: "codec.address",
                                     message: "0x80 is not a 7-bit I2C address", hint: "0x08...0x77")
        #expect(error.description == "board-configs/foo.yaml:12: codec.address: 0x80 is not a 7-bit I2C address (0x08...0x77)")
        #expect(BoardConfigError(file: "f", line: 1, field: "", message: "m").description == "f:1: m")
    }

    @Test func nearMatchesAreFoundOnlyWhenClose() {
        #expect(NearMatch.closest(to: "adrdess", in: ["address", "bus"]) == "address")
        #expect(NearMatch.closest(to: "bsu", in: ["address", "bus"]) == "bus")
        #expect(NearMatch.closest(to: "frequency", in: ["address", "bus"]) == nil)
        #expect(NearMatch.editDistance("kitten", "sitting") == 3)
    }
}
