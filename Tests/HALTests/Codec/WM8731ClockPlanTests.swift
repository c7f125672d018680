import Testing
@testable import HAL

@Suite("WM8731 clock plan")
struct WM8731ClockPlanTests {
    /// The datasheet's normal-mode and USB-mode rows: (MCLK, rate, R8 value).
    @Test(arguments: [
        (12_288_000, 48_000, 0x000), (12_288_000, 8_000, 0x00C), (12_288_000, 32_000, 0x018), (12_288_000, 96_000, 0x01C),
        (11_289_600, 44_100, 0x020), (11_289_600, 88_200, 0x03C),
        (18_432_000, 48_000, 0x002), (18_432_000, 8_000, 0x00E), (18_432_000, 32_000, 0x01A), (18_432_000, 96_000, 0x01E),
        (16_934_400, 44_100, 0x022), (16_934_400, 88_200, 0x03E),
        (12_000_000, 48_000, 0x001), (12_000_000, 8_000, 0x00D), (12_000_000, 32_000, 0x019), (12_000_000, 96_000, 0x01D),
        (24_576_000, 48_000, 0x040), (22_579_200, 44_100, 0x060),
    ])
    func samplingControlMatchesTheDatasheetTable(mclk: Int, rate: Int, r8: Int) throws {
        let plan = try WM8731ClockPlan.plan(mclk: mclk, rate: rate)
        #expect(plan.samplingControl == RegisterValue(r8))
        #expect(plan.setting.rate * (plan.dividesMasterClock ? 2 : 1) * Double(plan.setting.divisor) == Double(mclk))
        #expect(plan.setting.exactRate == rate)
    }

    @Test func supportedRatesPerMasterClock() {
        #expect(WM8731ClockPlan.supportedRates(mclk: 12_288_000) == [8_000, 32_000, 48_000, 96_000])
        #expect(WM8731ClockPlan.supportedRates(mclk: 11_289_600) == [44_100, 88_200])
        #expect(WM8731ClockPlan.supportedRates(mclk: 18_432_000) == [8_000, 32_000, 48_000, 96_000])
        #expect(WM8731ClockPlan.supportedRates(mclk: 16_934_400) == [44_100, 88_200])
        #expect(WM8731ClockPlan.supportedRates(mclk: 12_000_000) == [8_000, 32_000, 48_000, 96_000])
        #expect(WM8731ClockPlan.supportedRates(mclk: 24_000_000) == [8_000, 32_000, 48_000, 96_000])
        #expect(WM8731ClockPlan.supportedRates(mclk: 19_200_000).isEmpty)
    }

    /// USB mode's 44.1 kHz row is 12 MHz / 272 = 44117.6 Hz, and 8 kHz from 11.2896 MHz is 8018.2 Hz:
    /// listed in the table, refused as the rate asked for.
    @Test func inexactRowsAreRefusedWithTheRatesThatWork() throws {
        let usb44 = try #require(WM8731ClockPlan.table.first { $0.usbMode && $0.sr == 0x8 })
        #expect(abs(usb44.rate - 44_117.647) < 0.001 && usb44.exactRate == nil)
        #expect(throws: CodecError.unsupportedRate(codec: "WM8731", rate: 44_100, mclk: 12_000_000,
                                                   supported: [8_000, 32_000, 48_000, 96_000])) {
            try WM8731ClockPlan.plan(mclk: 12_000_000, rate: 44_100)
        }
        #expect(throws: CodecError.unsupportedRate(codec: "WM8731", rate: 8_000, mclk: 11_289_600,
                                                   supported: [44_100, 88_200])) {
            try WM8731ClockPlan.plan(mclk: 11_289_600, rate: 8_000)
        }
        do {
            _ = try WM8731ClockPlan.plan(mclk: 12_288_000, rate: 44_100)
            Issue.record("44.1 kHz from 12.288 MHz accepted")
        } catch {
            #expect(error.description == "the WM8731 cannot make 44100 Hz exactly from a 12.288 MHz MCLK; rates it "
                    + "can make: 8000, 32000, 48000, 96000 Hz. Pick one of those, or resample in software")
        }
    }

    @Test func aMasterClockOutsideTheTableIsRefused() {
        do {
            _ = try WM8731ClockPlan.plan(mclk: 19_200_000, rate: 48_000)
            Issue.record("19.2 MHz accepted")
        } catch {
            guard case .unsupportedMasterClock(let codec, let mclk, _) = error else {
                Issue.record("unexpected \(error)"); return
            }
            #expect(codec == "WM8731" && mclk == 19_200_000)
            #expect(error.description.contains("no PLL"))
        }
    }

    @Test func theDriverRefusesBeforeAnyWrite() throws {
        let model = WM8731Model(address: try I2CAddress(0x1a), mclk: 12_288_000)
        let codec = WM8731(bus: model.bus, clock: ManualClock(skipsSleeps: true), mclk: 12_288_000)
        #expect(throws: CodecError.self) { try codec.configure(CodecStreamFormat(sampleRate: 44_100)) }
        #expect(throws: CodecError.unsupportedWordLength(codec: "WM8731", bits: 18, supported: [16, 20, 24, 32])) {
            try codec.configure(CodecStreamFormat(sampleRate: 48_000, wordLength: 18))
        }
        #expect(model.bus.trace.isEmpty)
        #expect(throws: CodecError.notConfigured(codec: "WM8731", operation: "power-up")) { try codec.powerUp() }
        #expect(codec.capabilities.sampleRates == [8_000, 32_000, 48_000, 96_000])
    }

    @Test func providerRoleAndUSBModeDecode() throws {
        // USB mode as provider drives BCLK at 12 MHz: a 32 kHz frame is 375 bit clocks (audioinjector-pi-soundcard.c
        // `snd_audioinjector_pi_soundcard_hw_params`: 32000 -> bclk_ratio 375).
        let frame = I2SFrame.fixedBitClock(hertz: 12_000_000)
        let model = WM8731Model(address: try I2CAddress(0x1b), mclk: 12_000_000, frame: frame)
        let codec = WM8731(bus: model.bus, clock: ManualClock(skipsSleeps: true), mclk: 12_000_000)
        try codec.configure(CodecStreamFormat(sampleRate: 32_000, wordLength: 20, format: .leftJustified, role: .provider,
                                              frame: frame))
        #expect(model.bus.trace == [
            .write(reg: 0x07, value: 0x045),  // R7 MS | IWL 01 (20-bit) | FORMAT 01 (left justified)
            .write(reg: 0x08, value: 0x019),  // R8 USB mode, BOSR 0, SR 0110: 12 MHz / 375 = 32 kHz
        ])
        let state = model.state
        #expect(state.sampleRate == 32_000 && state.isClockProvider && state.wordLength == 20 && !state.isI2S)
    }
}
