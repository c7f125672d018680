import Testing
@testable import HAL

/// The exact I2C writes of the PCM5122's recipes, page selects included, with the reason for each. The
/// trace names page-1 registers by their virtual address (0x102 is page 1 register 2); `write 0x00` is
/// the page select. Reset values the writes start from: R2 0x00, R3 0x00, R4 0x01 (PLLE), R37 0x00
/// (DCAS off: auto dividers), R40 0x02 (24-bit I2S), R61/R62 0x30 (0 dB), P1 R2 0x00 (0 dB analog),
/// PLL P/J/D/R and the dividers 0, IDAC 0x0100.
@Suite("PCM512x golden I2C traces")
struct PCM512xGoldenTraceTests {
    /// A freshly reset PCM5122 on the simulated bus; the trace starts empty.
    struct Rig {
        let model: PCM512xModel
        let clock = ManualClock(skipsSleeps: true)
        let codec: PCM512x

        init(_ source: PCM512xClockSource, maximumVolumeDB: Double = 0) throws {
            model = PCM512xModel(address: try I2CAddress(0x4d), clockSource: source)
            codec = PCM512x(bus: model.bus, clock: clock, clockSource: source, maximumVolumeDB: maximumVolumeDB)
            try codec.reset()
            model.bus.clearTrace()
        }

        var elapsed: Duration { clock.now - .zero }

        /// Configured at 48 kHz, -20 dB, playing; trace cleared.
        func playing(at rate: Int = 48_000) throws {
            try codec.configure(CodecStreamFormat(sampleRate: rate))
            try codec.setVolume(-20, output: .line)
            try codec.powerUp()
            model.bus.clearTrace()
        }
    }

    @Test func resetAndIdentifyReadBackTheResetValues() throws {
        let model = PCM512xModel(address: try I2CAddress(0x4d), clockSource: .bitClock64)
        try model.bus.write(0x3D, 0x80)  // left volume changed before: the reset must undo it
        model.bus.clearTrace()
        let codec = PCM512x(bus: model.bus, clock: ManualClock(skipsSleeps: true), clockSource: .bitClock64)
        let identity = try codec.reset()
        #expect(model.bus.trace == [
            .write(reg: 0x000, value: 0x00),  // page 0: the page the chip is on is unknown before a reset
            .write(reg: 0x001, value: 0x11),  // RSTM | RSTR: modules and every register to defaults
            .write(reg: 0x001, value: 0x00),  // release the reset bits
            .read(reg: 0x028, value: 0x02),   // identify: I2S config resets to 24-bit I2S
            .read(reg: 0x02A, value: 0x11),   // DAC routing: left data to left DAC, right to right
            .read(reg: 0x03D, value: 0x30),   // left digital volume 0 dB
            .read(reg: 0x03E, value: 0x30),   // right digital volume 0 dB
            .read(reg: 0x03F, value: 0x22),   // volume ramps: every sample, 1 dB a step
            .read(reg: 0x041, value: 0x07),   // auto-mute enables: both channels, both must be zero
            .write(reg: 0x002, value: 0x10),  // RQST: standby until the clocks are configured
        ])
        #expect(identity.name == "PCM5122" && identity.chipID == nil)
        #expect(identity.evidence == "no ID register; after reset page 0 R40=0x02 R42=0x11 R61=0x30 R62=0x30 "
            + "R63=0x22 R65=0x07 read back at their reset values at i2c-1 address 0x4d")
        #expect(codec.pagedBus.currentPage == 0)
        let state = model.state
        #expect(state.standby && !state.poweredDown && !state.manualDividers && state.sampleRate == nil)
        #expect(state.digitalDB.left == 0 && state.autoMute)
        #expect(state.description == "power: standby\nclock: automatic, 24-bit I2S\nline: off")
    }

    @Test func theHiFiBerryProSetupMakesTheOscillatorEnablesOutputs() throws {
        let model = PCM512xModel(address: try I2CAddress(0x4d), clockSource: .hiFiBerryDACPlusPro)
        let codec = PCM512x(bus: model.bus, clock: ManualClock(skipsSleeps: true), clockSource: .hiFiBerryDACPlusPro)
        try codec.reset()
        #expect(Array(model.bus.trace.suffix(4)) == [
            .write(reg: 0x002, value: 0x10),  // RQST standby
            .write(reg: 0x008, value: 0x24),  // G6OE | G3OE: GPIO3 and GPIO6 are outputs
            .write(reg: 0x052, value: 0x02),  // GPIO3 follows R86 bit 2 (24.576 MHz enable)
            .write(reg: 0x055, value: 0x02),  // GPIO6 follows R86 bit 5 (22.5792 MHz enable)
        ])
        #expect(model.sckHertz == nil, "both oscillators off until a rate is configured")
    }

    @Test func aSilentAddressIsNotIdentified() throws {
        let model = PCM512xModel(address: try I2CAddress(0x4c), clockSource: .bitClock64)
        model.bus.failNextTransfers(100)
        let codec = PCM512x(bus: model.bus, clock: ManualClock(skipsSleeps: true), clockSource: .bitClock64)
        do {
            try codec.reset()
            Issue.record("reset succeeded with nothing on the bus")
        } catch {
            guard case .notIdentified(let name, let evidence, let hint) = error else {
                Issue.record("unexpected \(error)"); return
            }
            #expect(name == "PCM5122")
            #expect(evidence.hasPrefix("the reset write was not acknowledged"))
            #expect(hint.contains("0x4c or 0x4d") && hint.contains("i2cdetect -y 1"))
            #expect(error.description.hasPrefix("no PCM5122 found: the reset write was not acknowledged"))
        }
    }

    @Test func anotherChipIsNotIdentified() throws {
        // A chip that takes the writes but keeps 0x00 everywhere (any 8+8 device without this register map).
        let other = SimulatedRegisterBus(address: try I2CAddress(0x4d), layout: .reg8Value8)
        let codec = PCM512x(bus: other, clock: ManualClock(skipsSleeps: true), clockSource: .bitClock64)
        #expect(throws: CodecError.notIdentified(
            codec: "PCM5122",
            evidence: "after reset P0 R40 at i2c-1 address 0x4d reads 0x00, a PCM512x resets it to 0x02",
            hint: "Another chip answers at this address: check the board file's codec and address")) {
            try codec.reset()
        }
        #expect(other.trace.count == 4, "page, reset, release, then the first read-back that failed to match")
    }

    @Test func aFailedReadBackIsNotIdentified() throws {
        let model = PCM512xModel(address: try I2CAddress(0x4d), clockSource: .bitClock64)
        model.bus.failTransfers(to: 0x028)
        let codec = PCM512x(bus: model.bus, clock: ManualClock(skipsSleeps: true), clockSource: .bitClock64)
        do {
            try codec.reset()
            Issue.record("identified without reading back")
        } catch {
            guard case .notIdentified(_, let evidence, _) = error else { Issue.record("unexpected \(error)"); return }
            #expect(evidence.hasPrefix("a chip at i2c-1 address 0x4d took the reset but the read-back of P0 R40 failed"))
        }
    }

    @Test func theMuteTimeIs150SamplesPlus200Microseconds() {
        #expect(PCM512x.muteDelay(rate: 48_000) == .nanoseconds(3_325_000))
        #expect(PCM512x.muteDelay(rate: 44_100) == .nanoseconds(3_401_361 + 200_000))  // rounded up to a ns
        #expect(PCM512x.muteDelay(rate: 8_000) == .nanoseconds(18_950_000))
    }

    @Test func powerUpFromBCLKAt48k() throws {
        let rig = try Rig(.bitClock64)
        try rig.codec.setVolume(-20, output: .line)
        #expect(rig.model.bus.trace.isEmpty, "the volume of a chip in standby waits for power-up")
        try rig.codec.configure(CodecStreamFormat(sampleRate: 48_000))
        #expect(rig.model.bus.trace == [
            // (R2 RQST already set by reset: no write)
            .write(reg: 0x025, value: 0x7A),  // DCAS: our dividers; IDFS IDBK IDSK ratio checks off; IDCH (no SCK)
            .write(reg: 0x004, value: 0x00),  // PLL off while P, J.D, R change
            .write(reg: 0x00D, value: 0x10),  // SREF: the PLL locks to BCLK (3.072 MHz = 64 fs)
            // (P = 1, D = 0, R = 1 are the reset values: no writes)
            .write(reg: 0x015, value: 0x20),  // J = 32: 3.072 MHz x 32 = 98.304 MHz
            .write(reg: 0x004, value: 0x01),  // PLL on
            .write(reg: 0x01B, value: 0x01),  // DSP = PLL/2 = 49.152 MHz
            .write(reg: 0x01C, value: 0x0F),  // DAC = PLL/16 = 6.144 MHz
            .write(reg: 0x01D, value: 0x03),  // charge pump = DAC/4 = 1.536 MHz
            .write(reg: 0x01E, value: 0x07),  // OSR = DAC/8 = 768 kHz = 16 fs
            // (FSSP 0, single rate, is the reset value)
            .write(reg: 0x023, value: 0x04),  // IDAC = 1024 DSP clocks a sample (low byte stays 0)
            .write(reg: 0x028, value: 0x00),  // 16-bit I2S
        ])
        rig.model.bus.clearTrace()

        try rig.codec.powerUp()
        #expect(rig.model.bus.trace == [
            .write(reg: 0x003, value: 0x11),  // RQML | RQMR: soft mute while the DAC starts
            // (auto-mute 0x07 and ramp 0x22 are the reset values: no writes)
            .write(reg: 0x000, value: 0x01),  // page 1
            .write(reg: 0x102, value: 0x11),  // analog gain -6 dB both channels (first: a drop goes first)
            .write(reg: 0x000, value: 0x00),  // page 0
            .write(reg: 0x03D, value: 0x4C),  // left digital -14 dB (48 + 28)
            .write(reg: 0x03E, value: 0x4C),  // right digital -14 dB
            .write(reg: 0x002, value: 0x00),  // out of standby: charge pump, DAC, line drivers start
            .write(reg: 0x003, value: 0x00),  // soft unmute: ramps up to -20 dB
        ])
        #expect(rig.elapsed == .zero)
        let state = rig.model.state(streamRate: 48_000)
        #expect(state.pllEnabled && state.pllFromBitClock && state.manualDividers)
        #expect(state.sampleRate == 48_000 && state.clockWithinLimits)
        #expect(state.analogGainDB.left == -6 && state.digitalDB.right == -14)
        #expect(state.level(.line) == -20)
        #expect(state.description == "power: on\nclock: 48000 Hz, PLL from BCLK, 16-bit I2S\nline: playing at -20.0 dB")
        // The PLL multiplies BCLK: a 16 kHz stream on the same settings would run it at 32.768 MHz.
        #expect(!rig.model.state(streamRate: 16_000).clockWithinLimits)
    }

    @Test func rateChange48kTo44k1FromBCLKMutesAndStandsBy() throws {
        let rig = try Rig(.bitClock64)
        try rig.playing()
        let before = rig.clock.now
        try rig.codec.configure(CodecStreamFormat(sampleRate: 44_100, wordLength: 32))
        #expect(rig.model.bus.trace == [
            .write(reg: 0x003, value: 0x11),  // soft mute before the clocks change; 3.325 ms mute time at 48 kHz
            .write(reg: 0x002, value: 0x10),  // standby: the clock tree changes only with the DAC stopped
            .write(reg: 0x004, value: 0x00),  // PLL off
            // (2.8224 MHz x 32 = 90.3168 MHz: the same P, J.D, R; the same dividers, 1024 fs)
            .write(reg: 0x004, value: 0x01),  // PLL on, relocking to the new BCLK
            .write(reg: 0x028, value: 0x03),  // 32-bit I2S
            .write(reg: 0x002, value: 0x00),  // out of standby on the new clock
            .write(reg: 0x003, value: 0x00),  // soft unmute
        ])
        #expect(rig.clock.now - before == .microseconds(3_325), "150 samples at 48 kHz + 0.2 ms")
        let state = rig.model.state(streamRate: 44_100)
        #expect(state.sampleRate == 44_100 && state.clockWithinLimits && state.wordLength == 32)
        #expect(state.level(.line) == -20)
        #expect(rig.codec.clockPlan?.description
            == "44100 Hz from BCLK 2.8224 MHz: PLL P=1 J.D=32.0000 R=1 -> 90.3168 MHz, DSP /2 (1024 fs), DAC /16, OSR /8, NCP /4")
    }

    @Test func rateChange48kTo44k1FromA24MHzMCLKUsesTheFractionalPLL() throws {
        let rig = try Rig(.masterClock(hertz: 24_576_000))
        try rig.codec.configure(CodecStreamFormat(sampleRate: 48_000))
        #expect(rig.model.bus.trace == [
            .write(reg: 0x025, value: 0x73),  // DCAS, IDFS IDBK IDSK; IPLK: the PLL is not used
            .write(reg: 0x004, value: 0x00),  // PLL off: 24.576 MHz = 512 fs drives the DSP directly
            // (DSP divider 1 is the reset value)
            .write(reg: 0x01C, value: 0x03),  // DAC = SCK/4 = 6.144 MHz
            .write(reg: 0x01D, value: 0x03),  // charge pump = DAC/4 = 1.536 MHz
            .write(reg: 0x01E, value: 0x07),  // OSR = DAC/8 = 16 fs
            .write(reg: 0x023, value: 0x02),  // IDAC = 512
            .write(reg: 0x028, value: 0x00),  // 16-bit I2S
        ])
        try rig.codec.setVolume(-20, output: .line)
        try rig.codec.powerUp()
        #expect(rig.model.state.sampleRate == 48_000 && rig.model.state.clockWithinLimits)
        rig.model.bus.clearTrace()

        try rig.codec.configure(CodecStreamFormat(sampleRate: 44_100))
        #expect(rig.model.bus.trace == [
            .write(reg: 0x003, value: 0x11),  // soft mute; mute time
            .write(reg: 0x002, value: 0x10),  // standby
            .write(reg: 0x025, value: 0x72),  // IPLK off: the PLL is used now
            .write(reg: 0x004, value: 0x00),  // PLL off while its coefficients change
            // (SREF = SCK is the reset value)
            .write(reg: 0x014, value: 0x01),  // P = 2: 12.288 MHz into the PLL (fractional mode needs 6.667...20)
            .write(reg: 0x015, value: 0x07),  // J = 7
            .write(reg: 0x016, value: 0x0D),  // D = 3500 = 0x0DAC, high bits
            .write(reg: 0x017, value: 0xAC),  // D low bits: 12.288 MHz x 7.35 = 90.3168 MHz
            .write(reg: 0x004, value: 0x01),  // PLL on
            .write(reg: 0x01B, value: 0x01),  // DSP = PLL/2 = 45.1584 MHz
            .write(reg: 0x01C, value: 0x0F),  // DAC = PLL/16 = 5.6448 MHz (NCP /4 and OSR /8 unchanged)
            .write(reg: 0x023, value: 0x04),  // IDAC = 1024
            .write(reg: 0x002, value: 0x00),  // out of standby
            .write(reg: 0x003, value: 0x00),  // soft unmute
        ])
        let state = rig.model.state
        #expect(state.pllEnabled && !state.pllFromBitClock)
        #expect(state.sampleRate.map { ($0 - 44_100).magnitude < 1e-6 } == true && state.clockWithinLimits)
        #expect(state.level(.line) == -20)
    }

    @Test func theHiFiBerryProSwitchesOscillatorsForTheRateFamily() throws {
        let rig = try Rig(.hiFiBerryDACPlusPro)
        try rig.playing()
        #expect(rig.model.sckHertz == 24_576_000 && rig.model.state.sampleRate == 48_000)
        try rig.codec.configure(CodecStreamFormat(sampleRate: 44_100))
        #expect(rig.model.bus.trace == [
            .write(reg: 0x003, value: 0x11),  // soft mute; mute time
            .write(reg: 0x002, value: 0x10),  // standby
            .write(reg: 0x056, value: 0x20),  // GPIO6 high, GPIO3 low: SCK from the 22.5792 MHz oscillator
            // (PLL stays off; 22.5792 MHz = 512 x 44.1 kHz: the same dividers as 24.576 MHz at 48 kHz)
            .write(reg: 0x004, value: 0x00),  // PLL off: the DSP runs from SCK
            .write(reg: 0x002, value: 0x00),  // out of standby
            .write(reg: 0x003, value: 0x00),  // soft unmute
        ])
        #expect(rig.model.sckHertz == 22_579_200)
        let state = rig.model.state
        #expect(state.sampleRate == 44_100 && state.clockWithinLimits && !state.pllEnabled)
        #expect(rig.codec.clockPlan?.oscillator == PCM512xOscillator(hertz: 22_579_200, gpio: 6))
    }

    @Test func volumeChangesOrderTheStagesSoNothingGetsLouder() throws {
        let rig = try Rig(.bitClock64)
        try rig.playing()

        // -20 -> -3: the analog stage rises (-6 -> 0 dB): digital first, then analog.
        let up = try rig.codec.setVolume(-3.25, output: .line)
        #expect(rig.model.bus.trace == [
            .write(reg: 0x03D, value: 0x36),  // left digital -3 dB (48 + 6), ramped
            .write(reg: 0x03E, value: 0x36),  // right digital -3 dB
            .write(reg: 0x000, value: 0x01),  // page 1
            .write(reg: 0x102, value: 0x00),  // analog gain 0 dB
        ])
        #expect(up.stageDB == [0, -3] && up.fineDB == -0.25)
        #expect(rig.model.state.level(.line) == -3)
        rig.model.bus.clearTrace()

        // -3 -> -30.5: the analog stage drops: analog first (the bus is on page 1 already), then digital.
        let down = try rig.codec.setVolume(-30.5, output: .line)
        #expect(rig.model.bus.trace == [
            .write(reg: 0x102, value: 0x11),  // analog gain -6 dB (no page select: still page 1)
            .write(reg: 0x000, value: 0x00),  // page 0
            .write(reg: 0x03D, value: 0x61),  // left digital -24.5 dB (48 + 49)
            .write(reg: 0x03E, value: 0x61),  // right digital -24.5 dB
        ])
        #expect(down.stageDB == [-6, -24.5] && down.fineDB == 0)
        #expect(rig.model.state.level(.line) == -30.5)
        rig.model.bus.clearTrace()

        // Within one half-dB step: nothing to send, only the 8.24 remainder changes.
        let fine = try rig.codec.setVolume(-30.75, output: .line)
        #expect(rig.model.bus.trace.isEmpty && fine.fineDB == -0.25 && fine.codecDB == -30.5)
        #expect(rig.codec.volume(of: .line) == fine)
    }

    @Test func powerDownMutesThenStandsByThenPowersDown() throws {
        let rig = try Rig(.bitClock64)
        try rig.playing(at: 96_000)
        let before = rig.clock.now
        try rig.codec.powerDown()
        #expect(rig.model.bus.trace == [
            .write(reg: 0x003, value: 0x11),  // soft mute: digital volume ramps to mute; 150/96000 s + 0.2 ms
            .write(reg: 0x002, value: 0x10),  // standby: DAC and line drivers stop
            .write(reg: 0x002, value: 0x11),  // RQPD: charge pump and references off
        ])
        #expect(rig.clock.now - before == .nanoseconds(1_562_500 + 200_000))
        let state = rig.model.state(streamRate: 96_000)
        #expect(state.standby && state.poweredDown && state.level(.line) == nil)
        #expect(state.description == "power: powered down\nclock: 96000 Hz, PLL from BCLK, 16-bit I2S\nline: off")
        #expect(rig.codec.powerState == .off)
    }

    @Test func standbyKeepsThePowerAndWakeRestores() throws {
        let rig = try Rig(.bitClock64)
        try rig.playing()
        try rig.codec.standby()
        #expect(rig.model.bus.trace == [
            .write(reg: 0x003, value: 0x11),  // soft mute
            .write(reg: 0x002, value: 0x10),  // standby (RQPD stays clear)
        ])
        try rig.codec.setVolume(-10, output: .line)
        rig.model.bus.clearTrace()
        try rig.codec.wake()
        #expect(rig.model.bus.trace == [
            .write(reg: 0x03D, value: 0x38),  // left digital -4 dB (48 + 8; the level changed in standby)
            .write(reg: 0x03E, value: 0x38),  // right
            // (analog stays -6 dB)
            .write(reg: 0x002, value: 0x00),  // out of standby
            .write(reg: 0x003, value: 0x00),  // soft unmute
        ])
        #expect(rig.model.state(streamRate: 48_000).level(.line) == -10)
    }

    @Test func outputsAndInputsAreRefusedWithAHint() throws {
        let rig = try Rig(.bitClock64)
        try rig.codec.select(output: .line)
        #expect(throws: CodecError.self) { try rig.codec.select(output: .headphones) }
        do {
            try rig.codec.select(input: .microphone, micBias: true, pgaGainDB: 0)
            Issue.record("an input was accepted")
        } catch {
            guard case .unsupportedInput(_, .microphone, let hint) = error else { Issue.record("\(error)"); return }
            #expect(hint.hasPrefix("the PCM5122 is a DAC only"))
        }
        #expect(throws: CodecError.self) { try rig.codec.powerUp() }  // not configured
        #expect(throws: CodecError.self) {
            try rig.codec.configure(CodecStreamFormat(sampleRate: 48_000, role: .provider))
        }
        #expect(throws: CodecError.unsupportedWordLength(codec: "PCM5122", bits: 8, supported: [16, 20, 24, 32])) {
            try rig.codec.configure(CodecStreamFormat(sampleRate: 48_000, wordLength: 8))
        }
        let caps = rig.codec.capabilities
        #expect(caps.outputs == [.line] && caps.inputs.isEmpty && caps.hardwareEQ == .none)
        #expect(caps.jackDetect == .none && !caps.micBias && caps.inputStages.isEmpty)
        #expect(caps.outputStages[.line]?.map(\.name) == ["analog gain", "digital volume"])
        #expect(caps.outputStages[.line]?[1].softRamp == true)
        #expect(rig.model.bus.trace.isEmpty, "refusals touch nothing")
    }
}
