import Testing
@testable import HAL

/// The exact I2C writes of the SGTL5000's recipes, register by register, with the reason for each. Reset
/// values the writes start from: CHIP_CLK_CTRL 0x0008, CHIP_I2S_CTRL 0x0010, CHIP_ADCDAC_CTRL 0x020C,
/// CHIP_DAC_VOL 0x3C3C, CHIP_ANA_HP_CTRL 0x1818, CHIP_ANA_CTRL 0x0111, CHIP_ANA_POWER 0x7060, the rest 0.
/// Board: Fe-Pi Audio Z V2 (12.288 MHz crystal, VDDA = VDDIO = 3.3 V, internal VDDD), address 0x0a.
@Suite("SGTL5000 golden I2C traces")
struct SGTL5000GoldenTraceTests {
    /// A freshly reset SGTL5000 on the simulated bus; the trace starts empty.
    struct Rig {
        let model: SGTL5000Model
        let clock = ManualClock(skipsSleeps: true)
        let codec: SGTL5000

        init(mclk: Int = 12_288_000, maximumVolumeDB: Double = 12) throws {
            model = SGTL5000Model(address: try I2CAddress(0x0a), mclk: mclk)
            codec = SGTL5000(bus: model.bus, clock: clock, mclk: mclk, maximumVolumeDB: maximumVolumeDB)
            try codec.reset()
            model.bus.clearTrace()
        }

        var elapsed: Duration { clock.now - .zero }
    }

    @Test func resetIdentifiesThenWritesTheDefaultsMutedFirst() throws {
        let model = SGTL5000Model(address: try I2CAddress(0x0a), mclk: 12_288_000)
        let clock = ManualClock(skipsSleeps: true)
        let codec = SGTL5000(bus: model.bus, clock: clock, mclk: 12_288_000)
        let identity = try codec.reset()
        #expect(identity.name == "SGTL5000" && identity.chipID == 0xA011)
        #expect(identity.description == "SGTL5000 (ID 0xA011): CHIP_ID part 0xA0, revision 0x11 at i2c-1 address 0x0a")
        #expect(model.bus.trace == [
            .read(reg: 0x0000, value: 0xA011),   // CHIP_ID: part 0xA0 (SGTL5000), revision 0x11
            .read(reg: 0x0030, value: 0x7060),   // CHIP_ANA_POWER: VAG off, so no ramp-down is needed
            .write(reg: 0x0024, value: 0x0111),  // ANA_CTRL: line out, headphones, ADC muted before anything else
            .write(reg: 0x000E, value: 0x020C),  // ADCDAC_CTRL: DAC muted, volume ramp on
            .write(reg: 0x0004, value: 0x0008),  // CLK_CTRL: MCLK 256 Fs, 48 kHz: off the PLL before it powers down
            .write(reg: 0x0030, value: 0x7060),  // ANA_POWER: PLL, VAG, converters, outputs off
            .write(reg: 0x0002, value: 0x0000),  // DIG_POWER: I2S, DAP, DAC, ADC off
            .write(reg: 0x0032, value: 0x5000),  // PLL_CTRL: power-on divisors
            .write(reg: 0x0034, value: 0x0000),  // CLK_TOP_CTRL: PLL input undivided, oscillator off
            .write(reg: 0x0006, value: 0x0010),  // I2S_CTRL: 24-bit, 64 Fs, consumer
            .write(reg: 0x000A, value: 0x0010),  // SSS_CTRL: DAC from I2S in
            .write(reg: 0x0010, value: 0x3C3C),  // DAC_VOL: 0 dB both channels
            .write(reg: 0x0020, value: 0x0000),  // ANA_ADC_CTRL: ADC volume 0 dB
            .write(reg: 0x0022, value: 0x1818),  // ANA_HP_CTRL: headphones 0 dB
            .write(reg: 0x0026, value: 0x0000),  // LINREG_CTRL: power-on regulator setting
            .write(reg: 0x0028, value: 0x0000),  // REF_CTRL: power-on references
            .write(reg: 0x002A, value: 0x0000),  // MIC_CTRL: bias off, preamp 0 dB
            .write(reg: 0x002C, value: 0x0000),  // LINE_OUT_CTRL: power-on reference and bias
            .write(reg: 0x002E, value: 0x0404),  // LINE_OUT_VOL: power-on level
            .write(reg: 0x003C, value: 0x0000),  // SHORT_CTRL: short detect off
            .write(reg: 0x0100, value: 0x0000),  // DAP_CONTROL: DAP off
            .write(reg: 0x0102, value: 0x0000),  // DAP_PEQ: no filters
            .write(reg: 0x0108, value: 0x0000),  // DAP_AUDIO_EQ: off
            .write(reg: 0x0116, value: 0x002F),  // graphic EQ 115 Hz: 0 dB
            .write(reg: 0x0118, value: 0x002F),  // 330 Hz: 0 dB
            .write(reg: 0x011A, value: 0x002F),  // 990 Hz: 0 dB
            .write(reg: 0x011C, value: 0x002F),  // 3 kHz: 0 dB
            .write(reg: 0x011E, value: 0x002F),  // 9.9 kHz: 0 dB
            .write(reg: 0x0120, value: 0x8000),  // DAP_MAIN_CHAN: 100 %
        ])
        #expect(clock.now == .zero, "no VAG to ramp down")
        #expect(model.state.description == """
            supplies: VDDD regulator off, charge pump automatic
            references: VAG off (800 mV), REFTOP on
            clock: MCLK, 48000 Hz, 24-bit I2S
            DAC: off
            headphones: off
            line out: off
            input: off
            EQ: off
            """)
    }

    @Test func resetRampsALeftOverVAGDownBeforeTurningThingsOff() throws {
        let rig = try Rig()
        try rig.codec.configure(CodecStreamFormat(sampleRate: 48_000))
        try rig.codec.setVolume(-10, output: .headphones)
        try rig.codec.powerUp()
        // A new process finds the chip playing: its cache knows nothing, the chip still has VAG up.
        let again = SGTL5000(bus: rig.model.bus, clock: rig.clock, mclk: 12_288_000)
        rig.model.bus.clearTrace()
        let before = rig.clock.now
        try again.reset()
        #expect(Array(rig.model.bus.trace.prefix(6)) == [
            .read(reg: 0x0000, value: 0xA011),   // CHIP_ID
            .read(reg: 0x0030, value: 0x72FC),   // ANA_POWER: VAG, DAC, headphones still on
            .write(reg: 0x0024, value: 0x0111),  // everything muted first
            .write(reg: 0x000E, value: 0x020C),  // DAC muted
            .write(reg: 0x0030, value: 0x727C),  // VAG off alone, outputs still powered: they follow it down
            .write(reg: 0x0004, value: 0x0008),  // after the 500 ms ramp, the defaults as usual
        ])
        #expect(rig.clock.now - before == .milliseconds(500))
        #expect(rig.model.state.headphoneLevel == nil && !rig.model.state.vag)
    }

    @Test func aWrongChipIDIsRefusedNamingWhatWasFound() throws {
        let model = SGTL5000Model(address: try I2CAddress(0x0a), mclk: 12_288_000, chipID: 0x5A11)
        let codec = SGTL5000(bus: model.bus, clock: ManualClock(skipsSleeps: true), mclk: 12_288_000)
        let expected = CodecError.notIdentified(codec: "SGTL5000",
                                                evidence: "CHIP_ID at i2c-1 address 0x0a reads 0x5A11, not part 0xA0 in bits 15:8",
                                                hint: "Check the board file's codec and I2C address")
        #expect(throws: expected) { try codec.reset() }
        #expect(model.bus.trace == [.read(reg: 0x0000, value: 0x5A11)], "nothing is written to a stranger")
        #expect(expected.description == "no SGTL5000 found: CHIP_ID at i2c-1 address 0x0a reads 0x5A11, not part "
                + "0xA0 in bits 15:8. Check the board file's codec and I2C address")
        // No chip at all: the read fails and says which step it was.
        let absent = SGTL5000Model(address: try I2CAddress(0x0a), mclk: 12_288_000)
        absent.bus.failNextTransfers(10)
        do {
            try SGTL5000(bus: absent.bus, clock: ManualClock(skipsSleeps: true), mclk: 12_288_000).reset()
            Issue.record("a silent bus identified")
        } catch {
            #expect(error.description.hasPrefix("no SGTL5000 found: reading CHIP_ID at i2c-1 address 0x0a failed: "))
            #expect(error.description.hasSuffix("Check the board file's I2C bus and address, and that the HAT is seated"))
        }
    }

    @Test func powerUpAt48kFollowsTheDatasheetOrder() throws {
        let rig = try Rig()
        try rig.codec.setVolume(-20, output: .headphones)
        #expect(rig.model.bus.trace.isEmpty, "an unpowered output's volume waits for power-up")
        try rig.codec.configure(CodecStreamFormat(sampleRate: 48_000))
        #expect(rig.model.bus.trace == [
            // CLK_CTRL already says 48 kHz at 256 Fs (12.288 MHz = 256 x 48 kHz), the PLL is off: no writes
            // I2S_CTRL: SCLKFREQ 64 Fs (datasheet CHIP_I2S_CTRL: SCLKFREQ must match the SCLK input rate; the
            // Pi's frame is two 32-bit slots for 16-bit streams too, bcm2835-i2s.c with the slot width pinned),
            // DLEN 16-bit, I2S, consumer
            .write(reg: 0x0006, value: 0x0030),
        ])
        rig.model.bus.clearTrace()

        try rig.codec.powerUp()
        #expect(rig.model.bus.trace == [
            // ANA_CTRL (all muted) and ADCDAC_CTRL (DAC muted, ramp on) already hold their values: no writes
            .write(reg: 0x0026, value: 0x0068),  // LINREG_CTRL: VDDD 1.2 V; charge pump from VDDIO (both rails 3.3 V)
            .write(reg: 0x0030, value: 0x7260),  // ANA_POWER: LINREG_D on (internal VDDD), start-up supplies kept
            .write(reg: 0x0028, value: 0x01FF),  // REF_CTRL: VAG 1.575 V, bias -50 %, SMALL_POP slow VAG ramp
            .write(reg: 0x002C, value: 0x0322),  // LINE_OUT_CTRL: line-out reference 1.65 V, bias 0.36 mA
            .write(reg: 0x003C, value: 0x1106),  // SHORT_CTRL: headphone short detect L/R and centre, 75 mA
            .write(reg: 0x0024, value: 0x0133),  // ANA_CTRL: zero-cross detect for headphones and ADC, still muted
            .write(reg: 0x0002, value: 0x0021),  // DIG_POWER: I2S in and DAC
            .write(reg: 0x0022, value: 0x4040),  // ANA_HP_CTRL: -20 dB both channels (DAC_VOL stays 0 dB: no write)
            .write(reg: 0x0030, value: 0x727C),  // ANA_POWER: DAC, headphone amplifier, capless ground on (muted)
            .write(reg: 0x0030, value: 0x72FC),  // ANA_POWER: VAG on last; 500 ms slow ramp
            .write(reg: 0x0024, value: 0x0123),  // ANA_CTRL: headphones unmuted, at a zero crossing
            .write(reg: 0x000E, value: 0x0200),  // ADCDAC_CTRL: DAC unmuted, ramps up
        ])
        #expect(rig.elapsed == .milliseconds(500), "the VAG ramp")
        let state = rig.model.state
        #expect(state.vag && state.reftop && state.vdddRegulator == 1.2 && state.chargePump == "from VDDIO")
        #expect(state.headphonesPowered && !state.lineOutPowered && state.headphoneGain.zeroCross && state.dacRamp)
        #expect(state.headphoneLevel == -20)
        #expect(state.sampleRate == 48_000 && !state.pllPowered && state.wordLength == 16 && state.isI2S)
        #expect(state.description == """
            supplies: VDDD regulator 1.20 V, charge pump from VDDIO
            references: VAG on (1575 mV, slow ramp), REFTOP on, short detect on
            clock: MCLK, 48000 Hz, 16-bit I2S
            DAC: powered at 0.0 dB
            headphones: powered at -20.0 dB
            line out: off
            input: off
            EQ: off
            """)
    }

    @Test func rateChangeTo32kAnd24BitIsMutedAroundTheClockChange() throws {
        let rig = try Rig()
        try rig.codec.configure(CodecStreamFormat(sampleRate: 48_000))
        try rig.codec.setVolume(-20, output: .headphones)
        try rig.codec.powerUp()
        rig.model.bus.clearTrace()
        let before = rig.clock.now

        try rig.codec.configure(CodecStreamFormat(sampleRate: 32_000, wordLength: 24))
        #expect(rig.model.bus.trace == [
            .write(reg: 0x000E, value: 0x020C),  // ADCDAC_CTRL: DAC muted (ramped) before the clock changes
            .write(reg: 0x0004, value: 0x0001),  // CLK_CTRL: SYS_FS 32 kHz, MCLK_FREQ 384 Fs (12.288 MHz / 384)
            // PLL already off: no ANA_POWER write
            .write(reg: 0x0006, value: 0x0010),  // I2S_CTRL: 24-bit, 64 Fs BCLK, I2S
            .write(reg: 0x000E, value: 0x0200),  // ADCDAC_CTRL: DAC unmuted on the new clock
        ])
        #expect(rig.clock.now - before == SGTL5000.dacRampDelay)
        let state = rig.model.state
        #expect(state.sampleRate == 32_000 && state.wordLength == 24)
        #expect(state.headphoneLevel == -20, "the rate change leaves the volume alone")
    }

    @Test func rateChangeThroughThePLLWhenTheCodecDrivesTheClocks() throws {
        let rig = try Rig()
        try rig.codec.configure(CodecStreamFormat(sampleRate: 48_000, role: .provider))
        try rig.codec.powerUp()
        rig.model.bus.clearTrace()

        // 96 kHz from 12.288 MHz: 128 Fs is no direct ratio; the PLL makes 196.608 MHz = 16 x 12.288 MHz.
        try rig.codec.configure(CodecStreamFormat(sampleRate: 96_000, role: .provider))
        #expect(rig.model.bus.trace == [
            .write(reg: 0x000E, value: 0x020C),  // ADCDAC_CTRL: DAC muted first
            // CLK_TOP_CTRL: input undivided (12.288 MHz is below 17 MHz) is already so: no write
            .write(reg: 0x0032, value: 0x8000),  // PLL_CTRL: INT_DIVISOR 16, FRAC 0
            .write(reg: 0x0030, value: 0x77FC),  // ANA_POWER: PLL and VCO amplifier on, before CLK_CTRL selects it
            .write(reg: 0x0004, value: 0x000F),  // CLK_CTRL: SYS_FS 96 kHz, MCLK_FREQ = PLL
            .write(reg: 0x000E, value: 0x0200),  // ADCDAC_CTRL: DAC unmuted
        ])
        let state = rig.model.state
        #expect(state.pllPowered && state.pllLocked && state.sysclkFromPLL && state.isClockProvider)
        #expect(state.sampleRate == 96_000)
        #expect(state.description.contains("clock: PLL, PLL locked, 96000 Hz, 16-bit I2S, codec drives BCLK/LRCLK"))
    }

    @Test func volumeChangeWritesBothStagesOnlyWhenTheyChange() throws {
        let rig = try Rig()
        try rig.codec.configure(CodecStreamFormat(sampleRate: 48_000))
        try rig.codec.setVolume(-20, output: .headphones)
        try rig.codec.powerUp()
        rig.model.bus.clearTrace()

        let setting = try rig.codec.setVolume(-60.25, output: .headphones)
        #expect(rig.model.bus.trace == [
            .write(reg: 0x0022, value: 0x7F7F),  // ANA_HP_CTRL: -51.5 dB, the amplifier's bottom, both channels
            .write(reg: 0x0010, value: 0x4D4D),  // DAC_VOL: 0x3C + 17 = -8.5 dB both channels, ramped
        ])
        #expect(setting.stageDB == [-51.5, -8.5] && setting.fineDB == -0.25)
        #expect(rig.model.bus.traceDescription == """
            write 0x0022 = 0x7F7F   w4@0x0a 0x00 0x22 0x7f 0x7f
            write 0x0010 = 0x4D4D   w4@0x0a 0x00 0x10 0x4d 0x4d
            """)
        #expect(rig.model.state.headphoneLevel == -60)
        rig.model.bus.clearTrace()

        let louder = try rig.codec.setVolume(-3.5, output: .headphones)
        #expect(rig.model.bus.trace == [
            .write(reg: 0x0022, value: 0x1F1F),  // ANA_HP_CTRL: 0x1F = -3.5 dB, at a zero crossing
            .write(reg: 0x0010, value: 0x3C3C),  // DAC_VOL: back to 0 dB
        ])
        #expect(louder.stageDB == [-3.5, 0] && louder.fineDB == 0)
        rig.model.bus.clearTrace()
        try rig.codec.setVolume(-3.5, output: .headphones)
        #expect(rig.model.bus.trace.isEmpty, "the same level again sends nothing")
    }

    @Test func powerDownRampsVAGDownWhileTheOutputsAreStillPowered() throws {
        let rig = try Rig()
        try rig.codec.configure(CodecStreamFormat(sampleRate: 48_000))
        try rig.codec.setVolume(-20, output: .headphones)
        try rig.codec.powerUp()
        rig.model.bus.clearTrace()
        let before = rig.clock.now

        try rig.codec.powerDown()
        #expect(rig.model.bus.trace == [
            .write(reg: 0x000E, value: 0x020C),  // ADCDAC_CTRL: DAC muted, ramps down; 100 ms
            .write(reg: 0x0024, value: 0x0133),  // ANA_CTRL: headphones (and line out, ADC) muted
            .write(reg: 0x0030, value: 0x727C),  // ANA_POWER: VAG off first, amplifier still on; 500 ms ramp
            .write(reg: 0x0030, value: 0x7260),  // ANA_POWER: headphone amplifier, capless ground, DAC off
            .write(reg: 0x0002, value: 0x0000),  // DIG_POWER: I2S in and DAC off
            // PLL already off: no write
        ])
        #expect(rig.clock.now - before == .milliseconds(600))
        let state = rig.model.state
        #expect(!state.vag && !state.dacPowered && !state.headphonesPowered && state.dacMuted)
        #expect(state.headphoneLevel == nil)
        #expect(state.description.contains("headphones: off"))
    }

    @Test func standbyKeepsVAGUpAndWakeNeedsNoRamp() throws {
        let rig = try Rig()
        try rig.codec.configure(CodecStreamFormat(sampleRate: 48_000))
        try rig.codec.setVolume(-20, output: .headphones)
        try rig.codec.powerUp()
        try rig.codec.standby()
        #expect(rig.model.state.vag && !rig.model.state.headphonesPowered && !rig.model.state.dacPowered)
        let before = rig.clock.now
        try rig.codec.wake()
        #expect(rig.clock.now == before, "VAG stayed charged")
        #expect(rig.model.state.headphoneLevel == -20)
    }

    @Test func lineOutAndInputSelection() throws {
        let rig = try Rig()
        try rig.codec.configure(CodecStreamFormat(sampleRate: 48_000))
        try rig.codec.setVolume(-3, output: .line)
        try rig.codec.powerUp()
        try rig.codec.select(output: .line)
        let state = rig.model.state
        #expect(!state.headphonesPowered && state.lineOutPowered && !state.lineOutMuted)
        #expect(state.lineOutCodes.left == 20, "nominal code 14 + 6 half-dB steps")
        #expect(state.lineOutLevel(rig.codec.volumeSplit) == -3)
        #expect(throws: CodecError.self) { try rig.codec.select(output: .speaker) }

        let gain = try rig.codec.select(input: .microphone, micBias: true, pgaGainDB: 31)
        #expect(gain == 31.5, "preamp +30 dB, ADC +1.5 dB")
        let input = rig.model.state
        #expect(input.adcPowered && input.inputSource == .microphone && input.inputGainDB == 31.5 && input.micBias == .kernelDefault)
        #expect(try rig.codec.select(input: .line, micBias: false, pgaGainDB: -4) == -4.5)
        #expect(rig.model.state.inputSource == .line && rig.model.state.inputGainDB == -4.5 && rig.model.state.micBias == nil)
    }

    @Test func everyRecipeStepHasAReason() throws {
        let rig = try Rig()
        try rig.codec.configure(CodecStreamFormat(sampleRate: 48_000))
        let recipes = [rig.codec.powerUpRecipe(), rig.codec.powerDownRecipe(), rig.codec.standbyRecipe(),
                       rig.codec.wakeRecipe(), rig.codec.resetRecipe(vagWasOn: true),
                       try rig.codec.configureRecipe(CodecStreamFormat(sampleRate: 8_000))]
        for recipe in recipes {
            for step in recipe.steps { #expect(step.reason.count > 5, "\(recipe.name): \(step)") }
        }
        #expect(rig.codec.powerUpRecipe().totalDelay == .milliseconds(500))
        #expect(rig.codec.powerDownRecipe().totalDelay == .milliseconds(600))
        #expect(rig.codec.resetRecipe(vagWasOn: true).totalDelay == .milliseconds(500))
    }

    @Test func registerMapNamesTheFieldsOfEveryRegisterTheDriverWrites() throws {
        for register in SGTL5000Register.map.addresses {
            #expect(!(SGTL5000Register.map[register]?.fields.isEmpty ?? true), "register \(register)")
        }
        let power = try #require(SGTL5000Register.map[SGTL5000Register.analogPower])
        #expect(power.describeFields(0x72FC).hasPrefix("DAC_MONO=1 LINREG_SIMPLE_POWERUP=1 STARTUP_POWERUP=1"))
        #expect(power.describeFields(0x72FC).contains("VAG_POWERUP=1"))
        let id = try #require(SGTL5000Register.map[SGTL5000Register.chipID])
        #expect(id.access == .readOnly && id.isVolatile && id.describeFields(0xA011) == "PARTID=0xA0 REVID=0x11")
        // Writes to the read-only registers are refused by the twin.
        let model = SGTL5000Model(address: try I2CAddress(0x0a), mclk: 12_288_000)
        #expect(throws: I2CError.self) { try model.bus.write(SGTL5000Register.analogStatus, 0) }
        #expect(throws: I2CError.self) { try model.bus.write(SGTL5000Register.chipID, 0) }
    }
}
