import Testing
@testable import HAL

/// The exact I2C writes of the WM8960's recipes, register by register, with the reason for each. Reset
/// values the writes start from: R4 0x000, R5 0x008, R6 0x000, R7 0x00A, R23 0x1C0, R25/R26/R28/R47 0x000,
/// R34/R37 0x050, R52 0x008, K 0x3126E9.
@Suite("WM8960 golden I2C traces")
struct WM8960GoldenTraceTests {
    /// A freshly reset WM8960 on the simulated bus with the board's MCLK; the trace starts empty.
    struct Rig {
        let model: WM8960Model
        let clock = ManualClock(skipsSleeps: true)
        let codec: WM8960

        init(mclk: Int, maximumVolumeDB: Double = 0) throws {
            model = WM8960Model(address: try I2CAddress(0x1a), mclk: mclk, clock: clock)
            codec = WM8960(bus: model.bus, clock: clock, mclk: mclk, maximumVolumeDB: maximumVolumeDB)
            let identity = try codec.reset()
            #expect(identity.name == "WM8960" && identity.chipID == nil)
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
            .write(reg: 0x07, value: 0x002),  // R7: 16-bit words (WL 00), I2S (FORMAT 10), codec consumer
        ], "48 kHz is MCLK/256: R4 keeps its reset value (SYSCLKDIV 1, DACDIV 1, PLL off)")
        rig.model.bus.clearTrace()

        try rig.codec.powerUp()
        #expect(rig.model.bus.trace == [
            .write(reg: 0x06, value: 0x008),  // R6 DACSMM: the unmute at the end ramps up
            .write(reg: 0x1C, value: 0x09C),  // R28 anti-pop: POBCTRL, BUFDCOPEN, BUFIOEN, SOFT_ST before VMID
            .write(reg: 0x19, value: 0x080),  // R25 VMIDSEL 01: VMID through 2x50k (slow charge, no pop); 100 ms wait
            .write(reg: 0x19, value: 0x0C0),  // R25 VREF on
            .write(reg: 0x1C, value: 0x008),  // R28 anti-pop off, outputs biased from VREF, BUFIOEN kept
            .write(reg: 0x17, value: 0x1C1),  // R23 TOEN: zero-cross changes time out on silence
            .write(reg: 0x22, value: 0x150),  // R34 LD2LO: left DAC into the left output mixer
            .write(reg: 0x25, value: 0x150),  // R37 RD2RO: right DAC into the right output mixer
            .write(reg: 0x2F, value: 0x00C),  // R47 LOMIX, ROMIX: output mixers on
            .write(reg: 0x1A, value: 0x180),  // R26 DACL, DACR on (R5 DACMU still set from reset)
            .write(reg: 0x1A, value: 0x1E0),  // R26 LOUT1, ROUT1 on (volume still 0x000 = mute)
            .write(reg: 0x02, value: 0x0E5),  // R2 LO1ZC | 0x65 (-20 dB), waits for the update bit
            .write(reg: 0x03, value: 0x1E5),  // R3 OUT1VU | LO1ZC | 0x65: both channels to -20 dB at a zero crossing
            .write(reg: 0x0A, value: 0x0FF),  // R10 left DAC 0 dB, waits for the update bit
            .write(reg: 0x0B, value: 0x1FF),  // R11 DACVU | 0 dB
            .write(reg: 0x05, value: 0x000),  // R5 DACMU off: soft unmute ramps up
        ])
        #expect(rig.elapsed == .milliseconds(100), "the VMID charge wait")

        let state = rig.model.state
        #expect(state.vmid == .playback && state.vref)
        #expect(state.headphonesPowered && !state.speakerPowered)
        #expect(state.headphoneGain.dB == -20 && state.headphoneGain.zeroCross)
        #expect(state.level(.headphones) == -20)
        #expect(state.level(.speaker) == nil)
        #expect(state.sampleRate == 48_000 && !state.pllEnabled && state.wordLength == 16 && state.isI2S)
        #expect(state.description == """
            references: VMID 2x50k, VREF on
            clock: MCLK, 48000 Hz, 16-bit I2S
            DAC: powered at 0.0 dB
            headphones: powered at -20.0 dB
            speaker: off
            input: off
            """)
    }

    @Test func rateChangeTo44100From12288MHzUsesThePLL() throws {
        let rig = try Rig(mclk: 12_288_000)
        try rig.codec.configure(CodecStreamFormat(sampleRate: 48_000))
        try rig.codec.setVolume(-20, output: .headphones)
        try rig.codec.powerUp()
        rig.model.bus.clearTrace()
        let before = rig.clock.now

        try rig.codec.configure(CodecStreamFormat(sampleRate: 44_100, wordLength: 24))
        #expect(rig.model.bus.trace == [
            .write(reg: 0x05, value: 0x008),  // R5 DACMU: soft mute before the clock changes; 11 ms ramp at 48 kHz
            // (CLKSEL is already MCLK and the PLL already off: no writes)
            .write(reg: 0x34, value: 0x027),  // R52 SDM (fractional) | N = 7: f2 = 12.288 MHz x 7.35 = 90.3168 MHz
            .write(reg: 0x35, value: 0x059),  // R53 K[23:16]   K = round(0.35 x 2^24) = 0x59999A
            .write(reg: 0x36, value: 0x099),  // R54 K[15:8]
            .write(reg: 0x37, value: 0x09A),  // R55 K[7:0]
            .write(reg: 0x1A, value: 0x1E1),  // R26 PLL_EN on; 250 ms for the PLL to lock
            .write(reg: 0x04, value: 0x005),  // R4 SYSCLKDIV /2 | CLKSEL PLL: SYSCLK 11.2896 MHz, DACDIV 1
            .write(reg: 0x07, value: 0x00A),  // R7 24-bit (WL 10), I2S
            .write(reg: 0x05, value: 0x000),  // R5 soft unmute on the new clock
        ])
        // 510 samples of soft-mute ramp at 48 kHz, then the PLL's 250 ms to lock (kernel
        // sound/soc/codecs/wm8960.c `wm8960_set_pll`: PLL on, msleep(250), then CLKSEL).
        #expect(rig.clock.now - before == .milliseconds(11 + 250))
        let state = rig.model.state
        #expect(state.pllEnabled && state.sysclkFromPLL && state.wordLength == 24)
        let rate = try #require(state.sampleRate)
        #expect(abs(rate - 44_100) / 44_100 < 1e-8, "the PLL's 24-bit fraction makes 44.1 kHz within 0.01 ppm")
        #expect(state.level(.headphones) == -20, "the rate change leaves the volume alone")
    }

    @Test func rateChangesFrom24MHzBothNeedThePLLWithPrescale() throws {
        let rig = try Rig(mclk: 24_000_000)
        try rig.codec.configure(CodecStreamFormat(sampleRate: 48_000))
        #expect(rig.model.bus.trace == [
            .write(reg: 0x34, value: 0x038),  // R52 SDM | PLLPRESCALE (24 MHz / 2 in) | N = 8: 12 MHz x 8.192 = 98.304 MHz
            // K = round(0.192 x 2^24) = 0x3126E9 is the reset value: R53-R55 unchanged
            .write(reg: 0x1A, value: 0x001),  // R26 PLL_EN
            .write(reg: 0x04, value: 0x005),  // R4 SYSCLKDIV /2 | CLKSEL PLL: SYSCLK 12.288 MHz
            .write(reg: 0x07, value: 0x002),  // R7 16-bit I2S
        ])
        let rate48 = try #require(rig.model.state.sampleRate)
        #expect(abs(rate48 - 48_000) / 48_000 < 1e-8)
        try rig.codec.powerUp()
        rig.model.bus.clearTrace()

        try rig.codec.configure(CodecStreamFormat(sampleRate: 44_100))
        #expect(rig.model.bus.trace == [
            .write(reg: 0x05, value: 0x008),  // R5 DACMU: soft mute first
            .write(reg: 0x04, value: 0x004),  // R4 CLKSEL MCLK: SYSCLK off the PLL while it is reprogrammed
            .write(reg: 0x1A, value: 0x1E0),  // R26 PLL_EN off (DACs and headphones stay on)
            .write(reg: 0x34, value: 0x037),  // R52 SDM | PRESCALE | N = 7: 12 MHz x 7.5264 = 90.3168 MHz
            .write(reg: 0x35, value: 0x086),  // R53 K = round(0.5264 x 2^24) = 0x86C227 (the datasheet truncates: ...26)
            .write(reg: 0x36, value: 0x0C2),  // R54
            .write(reg: 0x37, value: 0x027),  // R55
            .write(reg: 0x1A, value: 0x1E1),  // R26 PLL_EN on
            .write(reg: 0x04, value: 0x005),  // R4 back to the PLL: SYSCLK 11.2896 MHz
            // R7 already says 16-bit I2S
            .write(reg: 0x05, value: 0x000),  // R5 soft unmute
        ])
        let rate44 = try #require(rig.model.state.sampleRate)
        #expect(abs(rate44 - 44_100) / 44_100 < 1e-8)
    }

    /// The kernel's order (sound/soc/codecs/wm8960.c `wm8960_set_pll`): CLKSEL to MCLK, PLL off, N and K,
    /// PLL on, msleep(250), CLKSEL to the PLL. The datasheet gives no lock time, so the kernel's 250 ms is the
    /// figure; a live DAC stays soft-muted (R5 DACMU) from before the switch until after it.
    @Test func sysclkSwitchesToThePLLOnlyAfterItLocksWithTheDACMuted() throws {
        let rig = try Rig(mclk: 12_288_000)
        try rig.codec.configure(CodecStreamFormat(sampleRate: 48_000))
        try rig.codec.powerUp()
        let steps = try rig.codec.configureRecipe(CodecStreamFormat(sampleRate: 44_100)).steps
        func index(_ register: RegisterAddress, _ bit: RegisterValue, set: Bool) -> Int? {
            steps.firstIndex {
                guard case .update(let reg, let mask, let value, _) = $0 else { return false }
                return reg == register && mask & bit != 0 && (value & bit != 0) == set
            }
        }
        let pllOn = try #require(index(0x1A, 0x001, set: true), "R26 PLL_EN on")
        let switchToPLL = try #require(index(0x04, 0x001, set: true), "R4 CLKSEL = PLL")
        let mute = try #require(index(0x05, 0x008, set: true), "R5 DACMU on")
        let unmute = try #require(index(0x05, 0x008, set: false), "R5 DACMU off")
        #expect(pllOn < switchToPLL)
        let waited = steps[pllOn..<switchToPLL].reduce(Duration.zero) { total, step in
            if case .delay(let duration, _) = step { return total + duration }
            return total
        }
        #expect(waited == .milliseconds(250), "kernel wm8960_set_pll: msleep(250) between PLL_EN and CLKSEL")
        #expect(mute < pllOn && switchToPLL < unmute, "the DAC is muted across the clock switch")
    }

    /// The twin holds the driver to the lock time: the same rate change without the 250 ms wait leaves SYSCLK
    /// on an unlocked PLL, which the twin counts as no clock; with the wait it makes 44.1 kHz.
    @Test func theTwinRefusesASwitchToAnUnlockedPLL() throws {
        let rig = try Rig(mclk: 12_288_000)
        try rig.codec.configure(CodecStreamFormat(sampleRate: 48_000))
        let recipe = try rig.codec.configureRecipe(CodecStreamFormat(sampleRate: 44_100))
        let hurried = CodecRecipe("without the lock wait", recipe.steps.filter {
            if case .delay = $0 { return false }
            return true
        })
        try hurried.run(on: rig.codec.registers, clock: rig.clock)
        #expect(rig.model.sysclkFromUnlockedPLL && rig.model.state.sampleRate == nil)
        try CodecRecipe("back to MCLK", [.update(0x04, mask: 0x001, value: 0, reason: "CLKSEL MCLK")])
            .run(on: rig.codec.registers, clock: rig.clock)
        try recipe.run(on: rig.codec.registers, clock: rig.clock)
        #expect(!rig.model.sysclkFromUnlockedPLL)
        let rate = try #require(rig.model.state.sampleRate)
        #expect(abs(rate - 44_100) / 44_100 < 1e-8)
    }

    @Test func volumeChangeWritesBothStagesWithUpdateBitsOnTheRight() throws {
        let rig = try Rig(mclk: 12_288_000)
        try rig.codec.configure(CodecStreamFormat(sampleRate: 48_000))
        try rig.codec.setVolume(-20, output: .headphones)
        try rig.codec.powerUp()
        rig.model.bus.clearTrace()

        let setting = try rig.codec.setVolume(-35.5, output: .headphones)
        #expect(rig.model.bus.trace == [
            .write(reg: 0x02, value: 0x0D6),  // R2 LO1ZC | 0x56 = -35 dB (ceil of -35.5)
            .write(reg: 0x03, value: 0x1D6),  // R3 OUT1VU | LO1ZC | 0x56: both change at a zero crossing
            .write(reg: 0x0A, value: 0x0FE),  // R10 0xFE = -0.5 dB
            .write(reg: 0x0B, value: 0x1FE),  // R11 DACVU | 0xFE
        ])
        #expect(setting.stageDB == [-35, -0.5] && setting.fineDB == 0)
        // The same four transfers as bytes: [reg << 1 | bit 8, bits 7...0] to address 0x1a.
        #expect(rig.model.bus.traceDescription == """
            write 0x02 = 0x0D6      w2@0x1a 0x04 0xd6
            write 0x03 = 0x1D6      w2@0x1a 0x07 0xd6
            write 0x0A = 0x0FE      w2@0x1a 0x14 0xfe
            write 0x0B = 0x1FE      w2@0x1a 0x17 0xfe
            """)
        #expect(rig.model.state.level(.headphones) == -35.5)
        rig.model.bus.clearTrace()

        // -35.25 dB: the same analog step, DAC back to 0 dB, 0.25 dB left for the 8.24 stage.
        let finer = try rig.codec.setVolume(-35.25, output: .headphones)
        #expect(rig.model.bus.trace == [
            .write(reg: 0x0A, value: 0x0FF),  // R10 0 dB (R2/R3 unchanged: not sent)
            .write(reg: 0x0B, value: 0x1FF),  // R11 DACVU | 0 dB
        ])
        #expect(finer.stageDB == [-35, 0] && finer.fineDB == -0.25)
        #expect(rig.codec.volume(of: .headphones) == finer)
        rig.model.bus.clearTrace()
        try rig.codec.setVolume(-35.25, output: .headphones)
        #expect(rig.model.bus.trace.isEmpty, "the same level again sends nothing")
    }

    @Test func powerDownReversesPowerUp() throws {
        let rig = try Rig(mclk: 12_288_000)
        try rig.codec.configure(CodecStreamFormat(sampleRate: 44_100))
        try rig.codec.setVolume(-20, output: .headphones)
        try rig.codec.powerUp()
        rig.model.bus.clearTrace()
        let before = rig.clock.now

        try rig.codec.powerDown()
        #expect(rig.model.bus.trace == [
            .write(reg: 0x05, value: 0x008),  // R5 DACMU: soft mute; 12 ms ramp at 44.1 kHz
            .write(reg: 0x02, value: 0x080),  // R2 LO1ZC | mute
            .write(reg: 0x03, value: 0x180),  // R3 OUT1VU | LO1ZC | mute: both mute at a zero crossing
            .write(reg: 0x1A, value: 0x181),  // R26 LOUT1, ROUT1 off
            .write(reg: 0x1A, value: 0x001),  // R26 DACL, DACR off
            .write(reg: 0x2F, value: 0x000),  // R47 output mixers off
            .write(reg: 0x1C, value: 0x09C),  // R28 anti-pop on: outputs held while VMID discharges
            .write(reg: 0x19, value: 0x000),  // R25 VMID, VREF off; 600 ms discharge
            .write(reg: 0x1A, value: 0x000),  // R26 PLL off last
        ])
        #expect(rig.clock.now - before == .milliseconds(612))
        let state = rig.model.state
        #expect(state.vmid == .off && !state.vref && !state.dacPowered && !state.pllEnabled)
        #expect(!state.headphonesPowered && state.headphoneGain.dB == nil && state.dacSoftMuted)
        #expect(state.level(.headphones) == nil)
    }

    @Test func everyRecipeWriteHasAReason() throws {
        let rig = try Rig(mclk: 12_288_000)
        try rig.codec.configure(CodecStreamFormat(sampleRate: 48_000))
        let recipes = [rig.codec.powerUpRecipe(), rig.codec.powerDownRecipe(), rig.codec.standbyRecipe(),
                       rig.codec.wakeRecipe(), try rig.codec.configureRecipe(CodecStreamFormat(sampleRate: 8_000))]
        for recipe in recipes {
            for step in recipe.steps { #expect(step.reason.count > 5, "\(recipe.name): \(step)") }
        }
        #expect(rig.codec.powerUpRecipe().totalDelay == .milliseconds(100))
        #expect(rig.codec.powerDownRecipe().totalDelay == .milliseconds(611))
        #expect(rig.codec.powerUpRecipe().description.contains("VMID charging"))
    }
}
