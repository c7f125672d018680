import Testing
@testable import HAL

@Suite("SGTL5000 clock plan")
struct SGTL5000ClockPlanTests {
    /// The Fe-Pi's 12.288 MHz crystal with the Pi driving BCLK/LRCLK: every rate whose SYS_FS (32, 44.1,
    /// 48, 96 kHz) is 256, 384 or 512 x ... of MCLK, divided by 1, 2, 4 or 6.
    @Test(arguments: [
        (8_000, 32_000, 4, 384, RegisterValue(0x0021)),
        (12_000, 48_000, 4, 256, RegisterValue(0x0028)),
        (16_000, 32_000, 2, 384, RegisterValue(0x0011)),
        (24_000, 48_000, 2, 256, RegisterValue(0x0018)),
        (32_000, 32_000, 1, 384, RegisterValue(0x0001)),
        (48_000, 48_000, 1, 256, RegisterValue(0x0008)),
    ])
    func feP12288MHzRatesAreDirect(rate: Int, system: Int, divider: Int, ratio: Int, clockControl: RegisterValue) throws {
        let plan = try SGTL5000ClockPlan.plan(mclk: 12_288_000, rate: rate)
        #expect(plan.pll == nil && plan.pllControlValue == nil)
        #expect(plan.systemRate == system && plan.rateDivider == divider && plan.mclkRatio == ratio)
        #expect(12_288_000 == ratio * system && system == rate * divider)
        #expect(plan.clockControlValue == clockControl)
    }

    @Test func everyStandardRateFrom12288MHzIsEitherPlannedOrRefused() throws {
        #expect(SGTL5000ClockPlan.supportedRates(mclk: 12_288_000) == [8_000, 12_000, 16_000, 24_000, 32_000, 48_000])
        // As I2S provider the PLL may run: 96 kHz needs 196.608 MHz = 16 x 12.288 MHz exactly.
        #expect(SGTL5000ClockPlan.supportedRates(mclk: 12_288_000, role: .provider)
                == SGTL5000ClockPlan.standardRates)
        let plan96 = try SGTL5000ClockPlan.plan(mclk: 12_288_000, rate: 96_000, role: .provider)
        #expect(plan96.pll == SGTL5000ClockPlan.PLL(halvedInput: false, integer: 16, fraction: 0, output: 196_608_000))
        #expect(plan96.clockControlValue == 0x000F && plan96.pllControlValue == 0x8000)
        // With the Pi driving the clocks the PLL may not run (sound/soc/codecs/sgtl5000.c `sgtl5000_set_clock`:
        // "PLL not supported in slave mode"): the 44.1 kHz family stays refused.
        for rate in [11_025, 22_050, 44_100] {
            #expect(throws: CodecError.unsupportedRate(codec: "SGTL5000", rate: rate, mclk: 12_288_000,
                                                       supported: [8_000, 12_000, 16_000, 24_000, 32_000, 48_000])) {
                try SGTL5000ClockPlan.plan(mclk: 12_288_000, rate: rate)
            }
        }
    }

    /// The Fe-Pi as I2S provider at 44.1 kHz: SYS_MCLK 12.288 MHz cannot make 180.6336 MHz exactly. The kernel's
    /// divisors (sound/soc/codecs/sgtl5000.c `sgtl5000_set_clock`, datasheet "PLL" / CHIP_PLL_CTRL):
    /// INT = 180633600 / 12288000 = 14, FRAC = (180633600 mod 12288000) x 2048 / 12288000 = 8601600 x 2048 /
    /// 12288000 = 1433.6, truncated to 1433. The PLL then runs at 12.288 MHz x (14 + 1433/2048) = 180.630 MHz:
    /// -3600 Hz, -19.93 ppm, inside a ±50 ppm crystal's tolerance.
    @Test(arguments: [(44_100, 44_100, 1), (22_050, 44_100, 2), (11_025, 44_100, 4)])
    func the441kFamilyFrom12288MHzRunsThePLL20ppmSlow(rate: Int, system: Int, divider: Int) throws {
        let plan = try SGTL5000ClockPlan.plan(mclk: 12_288_000, rate: rate, role: .provider)
        let pll = try #require(plan.pll)
        #expect(pll.integer == 14 && pll.fraction == 1433 && !pll.halvedInput && pll.output == 180_633_600)
        #expect(plan.pllControlValue == 0x7599)  // CHIP_PLL_CTRL INT_DIVISOR[15:11] = 14, FRAC_DIVISOR[10:0] = 1433
        #expect(plan.systemRate == system && plan.rateDivider == divider)
        #expect(abs(pll.errorPPM - (-3600.0 / 180_633_600 * 1e6)) < 1e-9)
        #expect(abs(pll.errorPPM + 19.93) < 0.01)
        #expect(plan.description.hasSuffix("PLL 14 + 1433/2048 = 180.6336 MHz (-19.9 ppm)"))

        let model = SGTL5000Model(address: try I2CAddress(0x0a), mclk: 12_288_000)
        let codec = SGTL5000(bus: model.bus, clock: ManualClock(skipsSleeps: true), mclk: 12_288_000)
        try codec.configure(CodecStreamFormat(sampleRate: rate, wordLength: 24, role: .provider))
        let state = model.state
        let made = try #require(state.sampleRate)
        #expect(state.pllLocked && abs((made - Double(rate)) / Double(rate) * 1e6 + 19.93) < 0.01,
                "the twin runs the PLL's real output: \(made) Hz")
    }

    /// 15.72864 MHz = 2^20 x 15: the PLL makes 196.608 MHz with 12 + 1024/2048 and 180.6336 MHz with
    /// 11 + 992/2048, both exactly.
    @Test func aFractionalPLLCaseIsExact() throws {
        let plan48 = try SGTL5000ClockPlan.plan(mclk: 15_728_640, rate: 48_000, role: .provider)
        #expect(plan48.pll == SGTL5000ClockPlan.PLL(halvedInput: false, integer: 12, fraction: 1024, output: 196_608_000))
        #expect(plan48.pllControlValue == 0x6400 && plan48.clockControlValue == 0x000B)
        let mclk = 15_728_640, out48 = 196_608_000, out44 = 180_633_600
        #expect(mclk * (12 * 2048 + 1024) == out48 * 2048)
        let plan44 = try SGTL5000ClockPlan.plan(mclk: 15_728_640, rate: 44_100, role: .provider)
        #expect(plan44.pll == SGTL5000ClockPlan.PLL(halvedInput: false, integer: 11, fraction: 992, output: 180_633_600))
        #expect(plan44.pllControlValue == 0x5BE0 && plan44.clockControlValue == 0x0007)
        #expect(mclk * (11 * 2048 + 992) == out44 * 2048)
        #expect(plan44.description == "44100 Hz from 15.72864 MHz: SYS_FS 44100 Hz, PLL 11 + 992/2048 = 180.6336 MHz")
        // The same master clock without the PLL (codec consumer) makes nothing.
        #expect(SGTL5000ClockPlan.supportedRates(mclk: 15_728_640).isEmpty)
    }

    /// Above 17 MHz the PLL takes MCLK / 2: 19.6608 MHz / 2 = 9.8304 MHz, x 20 = 196.608 MHz, x 18.375 =
    /// 180.6336 MHz.
    @Test func aFastMasterClockIsHalvedIntoThePLL() throws {
        let plan = try SGTL5000ClockPlan.plan(mclk: 19_660_800, rate: 22_050, role: .provider)
        #expect(plan.pll == SGTL5000ClockPlan.PLL(halvedInput: true, integer: 18, fraction: 768, output: 180_633_600))
        #expect(plan.systemRate == 44_100 && plan.rateDivider == 2)
        #expect(SGTL5000ClockPlan.supportedRates(mclk: 19_660_800, role: .provider) == SGTL5000ClockPlan.standardRates)
    }

    @Test func masterClocksOutsideTheInputRangeAreRefused() {
        #expect(throws: CodecError.unsupportedMasterClock(codec: "SGTL5000", mclk: 5_000_000,
                                                          reason: "SYS_MCLK must lie in 8...27 MHz")) {
            try SGTL5000ClockPlan.plan(mclk: 5_000_000, rate: 48_000)
        }
        #expect(throws: CodecError.self) { try SGTL5000ClockPlan.plan(mclk: 36_864_000, rate: 96_000) }
        #expect(SGTL5000ClockPlan.supportedRates(mclk: 30_000_000).isEmpty)
    }

    @Test func theDriverRefusesBeforeAnyWriteAndTheModelMakesThePLLRate() throws {
        let model = SGTL5000Model(address: try I2CAddress(0x0a), mclk: 15_728_640)
        let codec = SGTL5000(bus: model.bus, clock: ManualClock(skipsSleeps: true), mclk: 15_728_640)
        #expect(throws: CodecError.self) { try codec.configure(CodecStreamFormat(sampleRate: 44_100)) }
        #expect(throws: CodecError.unsupportedWordLength(codec: "SGTL5000", bits: 16, supported: [20, 24])) {
            try codec.configure(CodecStreamFormat(sampleRate: 44_100, wordLength: 16, format: .rightJustified, role: .provider))
        }
        #expect(model.bus.trace.isEmpty)
        #expect(throws: CodecError.notConfigured(codec: "SGTL5000", operation: "power-up")) { try codec.powerUp() }

        try codec.configure(CodecStreamFormat(sampleRate: 44_100, wordLength: 24, role: .provider))
        #expect(model.bus.trace == [
            .write(reg: 0x0032, value: 0x5BE0),  // PLL_CTRL: 11 + 992/2048
            .write(reg: 0x0030, value: 0x7560),  // ANA_POWER: PLL and VCO amplifier on
            .write(reg: 0x0004, value: 0x0007),  // CLK_CTRL: SYS_FS 44.1 kHz from the PLL
            .write(reg: 0x0006, value: 0x0090),  // I2S_CTRL: provider (MS), 24-bit, 64 Fs
        ])
        let state = model.state
        #expect(state.pllLocked && state.sampleRate == 44_100 && state.isClockProvider)
        let rates: [Int] = codec.capabilities.sampleRates
        #expect(rates == SGTL5000ClockPlan.standardRates, "as provider, 15.72864 MHz makes every rate through the PLL")
    }
}
