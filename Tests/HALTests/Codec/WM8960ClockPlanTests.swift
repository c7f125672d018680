import Testing
@testable import HAL

@Suite("WM8960 clock plan")
struct WM8960ClockPlanTests {
    @Test(arguments: [(8_000, 12), (12_000, 8), (16_000, 6), (24_000, 4), (32_000, 3), (48_000, 2)])
    func rates48kFamilyDivide12288MHzDirectly(rate: Int, halves: Int) throws {
        let plan = try WM8960ClockPlan.plan(mclk: 12_288_000, rate: rate)
        #expect(plan.pll == nil && plan.sysclkDivider == 1)
        #expect(plan.rateDividerHalves == halves)
        #expect(12_288_000 * 2 == 256 * rate * halves)
    }

    @Test func a24576MHzMasterClockDividesByTwo() throws {
        let plan = try WM8960ClockPlan.plan(mclk: 24_576_000, rate: 48_000)
        #expect(plan.pll == nil && plan.sysclkDivider == 2 && plan.rateDividerCode == 0)
    }

    /// The datasheet's PLL table: 12 MHz in, SYSCLK 12.288 MHz: R = 8.192, N = 8, K = 0x3126E9; SYSCLK
    /// 11.2896 MHz: R = 7.5264, N = 7, K = 0x86C226 (truncated; the nearest, which this plan takes, is ...27).
    @Test func pllSettingsMatchTheDatasheetTable() throws {
        let plan48 = try WM8960ClockPlan.plan(mclk: 12_000_000, rate: 48_000)
        #expect(plan48.pll == WM8960ClockPlan.PLL(prescale: false, n: 8, k: 0x3126E9))
        #expect(plan48.sysclk == 12_288_000)
        let plan44 = try WM8960ClockPlan.plan(mclk: 12_000_000, rate: 44_100)
        #expect(plan44.pll == WM8960ClockPlan.PLL(prescale: false, n: 7, k: 0x86C227))
        let plan11 = try WM8960ClockPlan.plan(mclk: 12_000_000, rate: 11_025)
        #expect(plan11.pll?.n == 7 && plan11.rateDividerHalves == 8)
        // 24 MHz is prescaled to 12 MHz, so N stays in 6...12.
        #expect(try WM8960ClockPlan.plan(mclk: 24_000_000, rate: 48_000).pll == WM8960ClockPlan.PLL(prescale: true, n: 8, k: 0x3126E9))
        #expect(plan44.description == "44100 Hz from 12 MHz: PLL N=7 K=0x86C227, SYSCLK 11.2896 MHz, DACDIV 1")
    }

    @Test func everyStandardRateWorksFromTheCommonMasterClocks() {
        for mclk in [12_000_000, 12_288_000, 24_000_000, 11_289_600, 19_200_000] {
            #expect(WM8960ClockPlan.supportedRates(mclk: mclk) == WM8960ClockPlan.standardRates, "\(mclk)")
        }
    }

    @Test func aRateItCannotMakeIsRefusedWithTheRatesThatWork() throws {
        #expect(throws: CodecError.unsupportedRate(codec: "WM8960", rate: 96_000, mclk: 12_288_000,
                                                   supported: WM8960ClockPlan.standardRates)) {
            try WM8960ClockPlan.plan(mclk: 12_288_000, rate: 96_000)
        }
        let error = CodecError.unsupportedRate(codec: "WM8960", rate: 96_000, mclk: 12_288_000,
                                               supported: [8_000, 48_000])
        #expect(error.description == "the WM8960 cannot make 96000 Hz exactly from a 12.288 MHz MCLK; rates it can "
                + "make: 8000, 48000 Hz. Pick one of those, or resample in software")
    }

    /// 5 MHz: N would be 18 or more (and halving only makes it larger), so the PLL cannot reach 90-100 MHz
    /// and no standard rate divides it.
    @Test func aMasterClockThePLLCannotUseListsNoRates() {
        #expect(WM8960ClockPlan.supportedRates(mclk: 5_000_000).isEmpty)
        do {
            _ = try WM8960ClockPlan.plan(mclk: 5_000_000, rate: 48_000)
            Issue.record("5 MHz accepted")
        } catch {
            #expect(error.description.contains("rates it can make: none"))
        }
        #expect(throws: CodecError.self) { try WM8960ClockPlan.plan(mclk: 40_000_000, rate: 48_000) }
    }

    @Test func theDriverRefusesBeforeAnyWrite() throws {
        let model = WM8960Model(address: try I2CAddress(0x1a), mclk: 12_288_000)
        let codec = WM8960(bus: model.bus, clock: ManualClock(skipsSleeps: true), mclk: 12_288_000)
        #expect(throws: CodecError.self) { try codec.configure(CodecStreamFormat(sampleRate: 88_200)) }
        #expect(throws: CodecError.unsupportedWordLength(codec: "WM8960", bits: 18, supported: [16, 20, 24, 32])) {
            try codec.configure(CodecStreamFormat(sampleRate: 48_000, wordLength: 18))
        }
        #expect(model.bus.trace.isEmpty)
        #expect(throws: CodecError.notConfigured(codec: "WM8960", operation: "power-up")) { try codec.powerUp() }
    }

    @Test func providerRoleSetsMasterModeAndBitClockDivider() throws {
        let model = WM8960Model(address: try I2CAddress(0x1a), mclk: 12_288_000)
        let codec = WM8960(bus: model.bus, clock: ManualClock(skipsSleeps: true), mclk: 12_288_000)
        try codec.configure(CodecStreamFormat(sampleRate: 16_000, role: .provider))
        #expect(model.bus.trace == [
            .write(reg: 0x04, value: 0x0D8),  // R4 ADCDIV = DACDIV = 011 (/3): 12.288 MHz / 768 = 16 kHz
            .write(reg: 0x07, value: 0x042),  // R7 MS (codec drives BCLK/LRCLK) | 16-bit I2S
            .write(reg: 0x08, value: 0x1C9),  // R8 BCLKDIV 1001 (/12): BCLK = 1.024 MHz = 64 fs
        ])
        #expect(model.state.sampleRate == 16_000 && model.state.isClockProvider)
    }
}
