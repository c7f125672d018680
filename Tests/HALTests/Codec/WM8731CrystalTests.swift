import Testing
@testable import HAL

/// The Audio Injector Stereo: a WM8731 clocked by a bare 12 MHz crystal on XTI/XTO (the Pi has no MCLK pin),
/// providing BCLK and LRCLK in USB mode. Sources: the kernel's sound/soc/bcm/audioinjector-pi-soundcard.c
/// (sysclk WM8731_SYSCLK_XTAL 12000000, CBM_CFM, the rate list and bclk_ratio per rate) and
/// sound/soc/codecs/wm8731.c (`coeff_div`; the "OSC" supply on R6 bit 5, which DAPM powers for the DAC and
/// ADC only when `wm8731_check_osc` finds sysclk_type == WM8731_SYSCLK_XTAL); the WM8731 datasheet's R6
/// "Power Down Control" (OSCPD, bit 5: 1 powers the oscillator down) and R8 "Sampling Control".
@Suite("WM8731 with a crystal")
struct WM8731CrystalTests {
    static let frame = I2SFrame.fixedBitClock(hertz: 12_000_000)

    struct Rig {
        let model = WM8731Model(address: try! I2CAddress(0x1a), mclk: 12_000_000, crystal: true,
                                frame: WM8731CrystalTests.frame)
        let codec: WM8731

        init() throws {
            codec = WM8731(bus: model.bus, clock: ManualClock(skipsSleeps: true), mclk: 12_000_000, crystal: true,
                           maximumVolumeDB: 0)
            try codec.reset()
            model.bus.clearTrace()
        }

        func format(_ rate: Int, bits: Int = 16) -> CodecStreamFormat {
            CodecStreamFormat(sampleRate: rate, wordLength: bits, role: .provider, frame: WM8731CrystalTests.frame)
        }
    }

    /// Power-up keeps the oscillator on: R6 goes from its reset value 0x09F (POWEROFF, OUTPD, DACPD, ADCPD,
    /// MICPD, LINEINPD; OSCPD clear) to 0x05F: POWEROFF cleared, CLKOUTPD set (CLKOUT unused), OSCPD still 0.
    @Test func powerUpKeepsTheCrystalOscillatorRunning() throws {
        let rig = try Rig()
        try rig.codec.configure(rig.format(48_000))
        try rig.codec.setVolume(-20, output: .headphones)
        try rig.codec.powerUp()
        let r6 = rig.model.bus.trace.compactMap { transfer -> RegisterValue? in
            if case .write(let reg, let value) = transfer, reg == 0x06 { return value }
            return nil
        }
        #expect(r6.first == 0x05F, "R6: chip on, CLKOUTPD 1, OSCPD 0")
        #expect(r6.allSatisfy { $0 & 0x020 == 0 }, "no R6 write sets OSCPD (bit 5)")
        let state = rig.model.state
        #expect(state.clockProblem == nil && state.sampleRate == 48_000 && state.isClockProvider)
        #expect(state.level(.headphones) == -20)
        #expect(rig.codec.powerUpRecipe().description.contains("crystal oscillator on"))
    }

    /// The twin refuses to make a clock from a crystal whose oscillator is powered down: the power-up R6 value
    /// an MCLK-driven WM8731 gets (0x07F: OSCPD and CLKOUTPD set, as the previous power-up wrote for every
    /// board) leaves the Audio Injector without a clock.
    @Test func aPoweredDownOscillatorMakesNoClock() throws {
        let rig = try Rig()
        try rig.codec.configure(rig.format(48_000))
        try rig.model.bus.write(0x06, 0x07F)
        let state = rig.model.state
        #expect(state.sampleRate == nil)
        #expect(state.clockProblem == "no clock: OSCPD powers the crystal oscillator down")
        #expect(state.description.contains("clock: no clock: OSCPD"))
        // The same write with the clock driven into MCLK leaves the clock alone.
        let driven = WM8731Model(address: try I2CAddress(0x1a), mclk: 12_000_000, frame: Self.frame)
        let codec = WM8731(bus: driven.bus, clock: ManualClock(skipsSleeps: true), mclk: 12_000_000)
        try codec.configure(rig.format(48_000))
        try driven.bus.write(0x06, 0x07F)
        #expect(driven.state.sampleRate == 48_000)
    }

    /// The rates: the kernel's `coeff_div` rows for 12 MHz (all USB mode) are 48 k (250 fs), 32 k (375),
    /// 8 k (1500), 96 k (125), 44.1 k (272, BOSR 1) and 88.2 k (136, BOSR 1); the machine driver's
    /// `bcm2835_rates_12000000` allows 8, 16, 32, 44.1, 48, 96 and 88.2 kHz (16 kHz has no coeff_div row).
    /// As provider the codec's LRCLK is the rate, so the 272 fs and 136 fs rows (44.1176 and 88.2353 kHz)
    /// are allowed as the kernel allows them; a consumer WM8731 must match the Pi's rate exactly.
    @Test func theKernelsTwelveMegahertzRates() throws {
        #expect(WM8731ClockPlan.supportedRates(mclk: 12_000_000, role: .provider)
                == [8_000, 32_000, 44_100, 48_000, 88_200, 96_000])
        #expect(WM8731ClockPlan.supportedRates(mclk: 12_000_000, role: .consumer) == [8_000, 32_000, 48_000, 96_000])
        // R8 for 44.1 kHz: USB 1, BOSR 1, SR 1000 (coeff_div {12000000, 44100, 272, 0x8, 0x1, 0x1}).
        let plan = try WM8731ClockPlan.plan(mclk: 12_000_000, rate: 44_100, role: .provider)
        #expect(plan.samplingControl == 0x023 && plan.providerBitsPerFrame == 272)
        let plan88 = try WM8731ClockPlan.plan(mclk: 12_000_000, rate: 88_200, role: .provider)
        #expect(plan88.samplingControl == 0x03F && plan88.providerBitsPerFrame == 136)
        #expect(throws: CodecError.self) { try WM8731ClockPlan.plan(mclk: 12_000_000, rate: 16_000, role: .provider) }
    }

    /// The frame is the machine driver's bclk_ratio for each rate (audioinjector-pi-soundcard.c
    /// `snd_audioinjector_pi_soundcard_hw_params`: 48000 -> 250, 44100 -> 272, 32000 -> 375, 96000 -> 125,
    /// 88200 -> 136). 8 kHz would need 1500 bit clocks a frame, beyond bcm2835-i2s's 10-bit frame length (the
    /// Audio Injector commit adding bclk_ratio says so); the driver refuses it before any write.
    @Test(arguments: [(48_000, 250, RegisterValue(0x001)), (44_100, 272, 0x023), (32_000, 375, 0x019),
                      (96_000, 125, 0x01D), (88_200, 136, 0x03F)])
    func eachRateClocksTheMachineDriversFrame(rate: Int, bits: Int, sampling: RegisterValue) throws {
        #expect(Self.frame.bitsPerFrame(rate: rate) == bits)
        let rig = try Rig()
        try rig.codec.configure(rig.format(rate, bits: 24))
        #expect(rig.model.bus.trace.last == .write(reg: 0x08, value: sampling))
        #expect(rig.model.state.clockProblem == nil)
        let made = try #require(rig.model.state.sampleRate)
        #expect(made == 12_000_000 / Double(bits))
    }

    @Test func eightKilohertzNeedsAFrameTheSoCCannotHold() throws {
        let rig = try Rig()
        #expect(throws: CodecError.frameMismatch(codec: "WM8731", frame: Self.frame,
                                                 reason: "1500 bit clocks a frame at 8000 Hz; bcm2835-i2s frames hold at most 1024")) {
            try rig.codec.configure(rig.format(8_000))
        }
        #expect(rig.model.bus.trace.isEmpty)
    }

    /// With the standard two 32-bit slots the Pi expects 64 bit clocks a frame, but USB mode makes 250 at
    /// 48 kHz: the driver refuses, and the twin reports the mismatch if the registers say so anyway.
    @Test func aSlotFrameIsRefusedInUSBMode() throws {
        let rig = try Rig()
        let slots = CodecStreamFormat(sampleRate: 48_000, role: .provider, frame: .standard)
        #expect(throws: CodecError.self) { try rig.codec.configure(slots) }
        let model = WM8731Model(address: try I2CAddress(0x1a), mclk: 12_000_000, crystal: true, frame: .standard)
        try model.bus.write(0x07, 0x042)  // R7 MS | I2S
        try model.bus.write(0x08, 0x001)  // R8 USB mode, 48 kHz
        #expect(model.state.sampleRate == nil)
        #expect(model.state.clockProblem == "frame mismatch: USB mode clocks 250 bits a frame, the Pi expects 64")
    }
}
