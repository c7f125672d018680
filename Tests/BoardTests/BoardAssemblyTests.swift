import Testing
@testable import Board
import HAL

@Suite("Board assembly")
struct BoardAssemblyTests {
    final class Events: @unchecked Sendable {
        private var events: [JackEvent] = []
        func append(_ event: JackEvent) { events.append(event) }
        var all: [JackEvent] { events }
    }

    @Test func theSimulatedBoardsJackLinesDriveAJackDetector() throws {
        let config = SimulatedBoard.config
        let clock = ManualClock()
        let gpio = SimulatedGPIO(clock: clock, chips: [SimulatedGPIO.Chip(label: "simulated", lineCount: 32)])
        let chip = try config.gpioChip.selector(on: gpio)
        let sensing = try #require(config.jackSensing(chip: chip))
        let events = Events()
        let detector = try JackDetector(sensing: sensing, gpio: gpio, clock: clock) { events.append($0) }
        #expect(detector.state == .unplugged)
        // The board file: jack switch on line 4, active low, 50 ms debounce; microphone on line 5, active low.
        let start = clock.now
        let plug = GPIOLineID(chip: "gpiochip0", offset: 4), mic = GPIOLineID(chip: "gpiochip0", offset: 5)
        gpio.press(plug, bounce: [.milliseconds(3), .milliseconds(9)])
        gpio.schedule(mic, level: false, at: start + .milliseconds(40))
        gpio.advance(by: .milliseconds(200))
        try detector.tick()
        #expect(events.all == [JackEvent(timestamp: start, state: .headset, previous: .unplugged)])
    }

    @Test func theHeaderChipIsFoundByAnyPiModelsLabel() throws {
        let clock = ManualClock()
        let pi5 = SimulatedGPIO(clock: clock, chips: [SimulatedGPIO.Chip(label: "gpio-brcmstb@107d508500", lineCount: 32),
                                                      SimulatedGPIO.Chip(label: "pinctrl-rp1", lineCount: 54)])
        #expect(try GPIOChipChoice.raspberryPiHeader.selector(on: pi5) == .label("pinctrl-rp1"))
        let other = SimulatedGPIO(clock: clock, chips: [SimulatedGPIO.Chip(label: "gpio-sim.0-node0", lineCount: 8)])
        #expect(throws: GPIOError.self) { try GPIOChipChoice.raspberryPiHeader.selector(on: other) }
        #expect(try GPIOChipChoice.chip(.label("gpio-sim.0-node0")).selector(on: other) == .label("gpio-sim.0-node0"))
    }

    @Test func boardsWithoutAJackSignalHaveNoSensing() throws {
        let config = try BoardCatalog.load(path: RepositoryFiles.boardConfigs + "/respeaker-2mic.yaml")
        #expect(config.jackSensing(chip: .label("pinctrl-bcm2711")) == nil)
    }

    /// The Fe-Pi's bias from its board file: 3.0 V through 2 kOhm (fe-pi-audio-overlay.dts micbias-voltage-m-volts
    /// = <3000>, micbias-resistor-k-ohms = <2>), which reach CHIP_MIC_CTRL as BIAS_VOLT 7, BIAS_RESISTOR 1.
    @Test func theFePisMicBiasComesFromItsBoardFile() throws {
        let config = try BoardCatalog.load(path: RepositoryFiles.boardConfigs + "/fe-pi-audio.yaml")
        #expect(config.codec.micBias == SGTL5000MicBias(millivolts: 3_000, kilohms: 2))
        let codec = try BoardCodec.simulated(config.codec, frame: config.i2s, maximumVolumeDB: config.volume.maximumDB,
                                             clock: ManualClock(skipsSleeps: true))
        try codec.codec.reset()
        try codec.codec.configure(CodecStreamFormat(sampleRate: 48_000, role: config.codec.role, frame: config.i2s))
        try codec.codec.powerUp()
        try codec.codec.select(input: .microphone, micBias: true, pgaGainDB: 20)
        #expect(codec.model?.bus.registerValue(0x002A).map { $0 & 0x0370 } == 0x0170)
        let state = try #require(codec.model?.describeState(streamRate: 48_000))
        #expect(state.contains("mic bias 3.0 V through 2 kΩ"), "\(state)")
    }

    /// Each chip's entry: the control-port layout its datasheet gives (WM8960 and WM8731 "Control interface":
    /// 7-bit register address and 9-bit data; SGTL5000 "I2C": 16-bit address and 16-bit data; PCM5122
    /// "I2C interface": 8-bit register and 8-bit data, paged), the same on the twin's bus as for the hardware,
    /// and the register map a dump decodes is the one the twin enforces.
    @Test(arguments: CodecChip.allCases)
    func eachChipsEntryAgreesWithItsDatasheetAndItsTwin(chip: CodecChip) throws {
        let expected: [CodecChip: RegisterLayout] = [.wm8960: .reg7Value9, .wm8731: .reg7Value9,
                                                     .sgtl5000: .reg16Value16, .pcm5122: .reg8Value8]
        #expect(chip.table.layout == expected[chip])
        let config = CodecConfig(chip: chip, address: chip.addresses[0],
                                 clock: chip.canClockFromBCLK ? .bclk : .mclk(12_288_000))
        let codec = try BoardCodec.simulated(config, maximumVolumeDB: 0, clock: ManualClock(skipsSleeps: true))
        let model = try #require(codec.model)
        #expect(model.bus.layout == chip.table.layout)
        #expect(model.bus.registerMap == chip.table.registerMap && codec.registerMap == chip.table.registerMap)
        #expect(codec.codec.name == chip.displayName)
    }

    /// Every board, 16- and 24-bit streams: the codec's clocks must make the board's I2S frame (bcm2835-i2s.c
    /// `bcm2835_i2s_hw_params` frames by the sample width unless the slot width is set; the overlay pins two
    /// 32-bit slots, so 16-bit streams run 64 bit clocks a frame too), which each twin checks against its
    /// registers: the WM8960's BCLKDIV, the SGTL5000's SCLKFREQ, the PCM5122's PLL from BCLK, the WM8731's
    /// 12 MHz USB-mode bit clock (audioinjector-pi-soundcard.c: bclk_ratio 250 at 48 kHz).
    @Test(arguments: [16, 24])
    func everyBoardsCodecComesUpOnItsTwin(wordLength: Int) throws {
        for file in try RepositoryFiles.yamlFiles(in: RepositoryFiles.boardConfigs) {
            let config = try BoardCatalog.load(path: RepositoryFiles.boardConfigs + "/" + file)
            let codec = try BoardCodec.simulated(config.codec, frame: config.i2s, maximumVolumeDB: config.volume.maximumDB,
                                                 clock: ManualClock(skipsSleeps: true))
            try codec.codec.reset()
            try codec.codec.configure(CodecStreamFormat(sampleRate: 48_000, wordLength: wordLength,
                                                        role: config.codec.role, frame: config.i2s))
            try codec.codec.select(output: config.route.output)
            let level = try codec.codec.setVolume(config.volume.defaultDB, output: config.route.output)
            try codec.codec.powerUp()
            #expect(level.levelDB == min(config.volume.defaultDB, config.volume.maximumDB))
            let state = try #require(codec.model?.describeState(streamRate: 48_000))
            // "headphones: powered at -20.0 dB" (WM89xx, WM8731), "line: playing at -20.0 dB" (PCM5122).
            #expect(state.contains("\(config.route.output): powered at \(level.codecDB) dB")
                    || state.contains("\(config.route.output): playing at \(level.codecDB) dB"), "\(file): \(state)")
            #expect(state.contains("48000 Hz") && !state.contains("mismatch") && !state.contains("no clock")
                        && !state.contains("outside the datasheet's limits"),
                    "\(file), \(wordLength)-bit: \(state)")
        }
    }
}
