import Testing
@testable import HAL

/// The exact I2C writes of the WM8731's recipes, register by register, with the reason for each. Reset
/// values the writes start from: R2/R3 0x079, R4 0x00A (BYPASS, MUTEMIC), R5 0x008 (DACMU), R6 0x09F
/// (POWEROFF, OUTPD, DACPD, ADCPD, MICPD, LINEINPD), R7 0x00A (24-bit I2S), R8 0x000, R9 0x000.
@Suite("WM8731 golden I2C traces")
struct WM8731GoldenTraceTests {
    /// A freshly reset WM8731 on the simulated bus with the board's MCLK; the trace starts empty.
    struct Rig {
        let model: WM8731Model
        let clock = ManualClock(skipsSleeps: true)
        let codec: WM8731

        init(mclk: Int, maximumVolumeDB: Double = 0) throws {
            model = WM8731Model(address: try I2CAddress(0x1a), mclk: mclk)
            codec = WM8731(bus: model.bus, clock: clock, mclk: mclk, maximumVolumeDB: maximumVolumeDB)
            let identity = try codec.reset()
            #expect(identity.name == "WM8731" && identity.chipID == nil)
            #expect(model.bus.trace == [.write(reg: 0x0F, value: 0x000)])  // R15 soft reset
            model.bus.clearTrace()
        }

        var elapsed: Duration { clock.now - .zero }
    }

    @Test func powerUpAt48kFrom12288MHz() throws {
        let rig = try Rig(mclk: 12_288_000)
        try rig.codec.setVolume(-20, output: .headphones)
        #expect(rig.model.bus.trace.isEmpty, "an unpowered output's volume waits for power-up")
        try rig.codec.configure(CodecStreamFormat(sampleRate: 48_000))
        #expect(rig.model.bus.trace == [
            .write(reg: 0x07, value: 0x002),  // R7: 16-bit words (IWL 00), I2S (FORMAT 10), codec consumer (MS 0)
        ], "48 kHz from 12.288 MHz is normal mode, BOSR 0, SR 0000: R8's reset value")
        rig.model.bus.clearTrace()

        try rig.codec.powerUp()
        #expect(rig.model.bus.trace == [
            // (R5 DACMU is already set from reset: no write)
            .write(reg: 0x06, value: 0x07F),  // R6 POWEROFF off: references first; OSCPD, CLKOUTPD on; the rest still down
            .write(reg: 0x04, value: 0x012),  // R4 DACSEL on, BYPASS off (MUTEMIC kept)
            .write(reg: 0x06, value: 0x077),  // R6 DACPD off: DAC on, soft-muted
            .write(reg: 0x02, value: 0x0E5),  // R2 LZCEN | 0x65 (-20 dB)
            .write(reg: 0x03, value: 0x0E5),  // R3 RZCEN | 0x65 (-20 dB)
            .write(reg: 0x09, value: 0x001),  // R9 ACTIVE
            .write(reg: 0x06, value: 0x067),  // R6 OUTPD off: outputs last
            .write(reg: 0x05, value: 0x000),  // R5 DACMU off: soft unmute
        ])
        #expect(rig.elapsed == .zero, "the datasheet's power-up sequence has no waits")

        let state = rig.model.state
        #expect(state.poweredOn && state.active && state.dacPowered && state.dacSelected && !state.bypass)
        #expect(state.headphoneGain.dB == -20 && state.headphoneGain.zeroCross)
        #expect(state.level(.headphones) == -20)
        #expect(state.sampleRate == 48_000 && state.wordLength == 16 && state.isI2S && !state.isClockProvider)
        #expect(state.description == """
            chip: on, interface active
            clock: 48000 Hz, 16-bit I2S
            DAC: powered
            headphones: powered at -20.0 dB
            input: off
            """)
    }

    @Test func rateChangeTo44100From112896MHzDeactivatesAroundTheClock() throws {
        let rig = try Rig(mclk: 11_289_600)
        try rig.codec.configure(CodecStreamFormat(sampleRate: 88_200))
        #expect(rig.model.bus.trace == [
            .write(reg: 0x07, value: 0x002),  // R7 16-bit I2S
            .write(reg: 0x08, value: 0x03C),  // R8 normal mode, BOSR 0, SR 1111: 11.2896 MHz / 128 = 88.2 kHz
        ])
        #expect(rig.model.state.sampleRate == 88_200)
        try rig.codec.setVolume(-20, output: .headphones)
        try rig.codec.powerUp()
        rig.model.bus.clearTrace()
        let before = rig.clock.now

        try rig.codec.configure(CodecStreamFormat(sampleRate: 44_100, wordLength: 24))
        #expect(rig.model.bus.trace == [
            .write(reg: 0x05, value: 0x008),  // R5 DACMU: soft mute before the clock changes; 20 ms margin
            .write(reg: 0x09, value: 0x000),  // R9 inactive: R7/R8 change only while ACTIVE is 0
            .write(reg: 0x07, value: 0x00A),  // R7 24-bit (IWL 10), I2S
            .write(reg: 0x08, value: 0x020),  // R8 SR 1000: 11.2896 MHz / 256 = 44.1 kHz
            .write(reg: 0x09, value: 0x001),  // R9 active again
            .write(reg: 0x05, value: 0x000),  // R5 soft unmute on the new clock
        ])
        #expect(rig.clock.now - before == .milliseconds(20))
        let state = rig.model.state
        #expect(state.sampleRate == 44_100 && state.wordLength == 24 && state.active)
        #expect(state.level(.headphones) == -20, "the rate change leaves the volume alone")
        #expect(rig.codec.clockPlan?.description == "44100 Hz from 11.2896 MHz: normal mode, BOSR 0, SR 0x8")
    }

    @Test func volumeChangeWritesOnlyTheHeadphoneAmplifier() throws {
        let rig = try Rig(mclk: 12_288_000)
        try rig.codec.configure(CodecStreamFormat(sampleRate: 48_000))
        try rig.codec.setVolume(-20, output: .headphones)
        try rig.codec.powerUp()
        rig.model.bus.clearTrace()

        let setting = try rig.codec.setVolume(-35.5, output: .headphones)
        #expect(rig.model.bus.trace == [
            .write(reg: 0x02, value: 0x0D6),  // R2 LZCEN | 0x56 = -35 dB (ceil of -35.5)
            .write(reg: 0x03, value: 0x0D6),  // R3 RZCEN | 0x56
        ])
        #expect(setting.stageDB == [-35] && setting.fineDB == -0.5)
        // The same transfers as bytes: [reg << 1 | bit 8, bits 7...0] to address 0x1a.
        #expect(rig.model.bus.traceDescription == """
            write 0x02 = 0x0D6      w2@0x1a 0x04 0xd6
            write 0x03 = 0x0D6      w2@0x1a 0x06 0xd6
            """)
        #expect(rig.model.state.level(.headphones) == -35)
        rig.model.bus.clearTrace()

        // -35.25 dB: the same amplifier step, 0.25 dB left for the 8.24 stage: nothing to send.
        let finer = try rig.codec.setVolume(-35.25, output: .headphones)
        #expect(rig.model.bus.trace.isEmpty)
        #expect(finer.stageDB == [-35] && finer.fineDB == -0.25)
        #expect(rig.codec.volume(of: .headphones) == finer)
    }

    @Test func powerDownReversesPowerUp() throws {
        let rig = try Rig(mclk: 12_288_000)
        try rig.codec.configure(CodecStreamFormat(sampleRate: 48_000))
        try rig.codec.setVolume(-20, output: .headphones)
        try rig.codec.powerUp()
        rig.model.bus.clearTrace()
        let before = rig.clock.now

        try rig.codec.powerDown()
        #expect(rig.model.bus.trace == [
            .write(reg: 0x05, value: 0x008),  // R5 DACMU: soft mute; 20 ms margin
            .write(reg: 0x02, value: 0x080),  // R2 LZCEN | mute
            .write(reg: 0x03, value: 0x080),  // R3 RZCEN | mute
            .write(reg: 0x06, value: 0x077),  // R6 OUTPD: outputs off first
            .write(reg: 0x09, value: 0x000),  // R9 inactive
            .write(reg: 0x06, value: 0x07F),  // R6 DACPD, ADCPD, MICPD, LINEINPD
            .write(reg: 0x06, value: 0x0FF),  // R6 POWEROFF: references last
        ])
        #expect(rig.clock.now - before == .milliseconds(20))
        let state = rig.model.state
        #expect(!state.poweredOn && !state.active && !state.dacPowered && !state.outputsPowered && state.dacSoftMuted)
        #expect(state.headphoneGain.dB == nil && state.level(.headphones) == nil)
        #expect(state.description == """
            chip: off, interface inactive
            clock: 48000 Hz, 16-bit I2S
            DAC: off
            headphones: off
            input: off
            """)
    }

    @Test func standbyKeepsTheReferencesAndWakeRestores() throws {
        let rig = try Rig(mclk: 12_288_000)
        try rig.codec.configure(CodecStreamFormat(sampleRate: 48_000))
        try rig.codec.setVolume(-20, output: .headphones)
        try rig.codec.powerUp()
        rig.model.bus.clearTrace()

        try rig.codec.standby()
        #expect(rig.model.bus.trace == [
            .write(reg: 0x05, value: 0x008),  // R5 DACMU soft mute
            .write(reg: 0x06, value: 0x077),  // R6 OUTPD: outputs off
            .write(reg: 0x09, value: 0x000),  // R9 inactive
            .write(reg: 0x06, value: 0x07F),  // R6 DACPD (POWEROFF stays clear: references kept)
        ])
        #expect(rig.model.state.poweredOn && rig.model.state.level(.headphones) == nil)
        rig.model.bus.clearTrace()

        try rig.codec.wake()
        #expect(rig.model.bus.trace == [
            .write(reg: 0x06, value: 0x077),  // R6 DAC on
            // (R2/R3 still hold -20 dB: no writes)
            .write(reg: 0x09, value: 0x001),  // R9 active
            .write(reg: 0x06, value: 0x067),  // R6 outputs on
            .write(reg: 0x05, value: 0x000),  // R5 soft unmute
        ])
        #expect(rig.model.state.level(.headphones) == -20)
    }

    @Test func inputSelectionRoutesAndPowersTheADC() throws {
        let rig = try Rig(mclk: 12_288_000)
        try rig.codec.configure(CodecStreamFormat(sampleRate: 48_000))
        try rig.codec.powerUp()
        rig.model.bus.clearTrace()

        #expect(try rig.codec.select(input: .line, micBias: false, pgaGainDB: 0.5) == 0)
        #expect(rig.model.bus.trace == [
            // (R4 already says INSEL line, MUTEMIC: no write)
            .write(reg: 0x00, value: 0x017),  // R0 0x17 = 0 dB, LINMUTE off
            .write(reg: 0x01, value: 0x017),  // R1 likewise
            .write(reg: 0x06, value: 0x062),  // R6 ADCPD and LINEINPD off (MICPD kept)
        ])
        #expect(rig.model.state.input == .line(dB: 0))
        rig.model.bus.clearTrace()

        #expect(try rig.codec.select(input: .microphone, micBias: true, pgaGainDB: 20) == 20)
        #expect(rig.model.bus.trace == [
            .write(reg: 0x04, value: 0x015),  // R4 INSEL mic, MUTEMIC off, MICBOOST, DACSEL kept
            .write(reg: 0x06, value: 0x061),  // R6 MICPD off, LINEINPD on
        ])
        #expect(rig.model.state.input == .microphone(boostDB: 20))
        #expect(rig.model.state.description.hasSuffix("input: microphone, boost 20.0 dB"))
        #expect(throws: CodecError.self) { try rig.codec.select(input: .headsetMicrophone, micBias: true, pgaGainDB: 0) }
    }

    @Test func everyRecipeWriteHasAReason() throws {
        let rig = try Rig(mclk: 12_288_000)
        try rig.codec.configure(CodecStreamFormat(sampleRate: 48_000))
        let recipes = [rig.codec.powerUpRecipe(), rig.codec.powerDownRecipe(), rig.codec.standbyRecipe(),
                       rig.codec.wakeRecipe(), try rig.codec.configureRecipe(CodecStreamFormat(sampleRate: 8_000))]
        for recipe in recipes {
            for step in recipe.steps { #expect(step.reason.count > 5, "\(recipe.name): \(step)") }
        }
        #expect(rig.codec.powerUpRecipe().totalDelay == .zero)
        #expect(rig.codec.powerDownRecipe().totalDelay == .milliseconds(20))
        #expect(rig.codec.powerUpRecipe().description.contains("outputs on last"))
    }
}
