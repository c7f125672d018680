import Testing
@testable import HAL

@Suite("PCM512x clock plans")
struct PCM512xClockPlanTests {
    static let all = PCM512xClockPlan.standardRates
    static let family44k1 = [11_025, 22_050, 44_100, 88_200, 176_400]

    /// Checks a plan against the datasheet's rules with exact integer arithmetic.
    func checkLimits(_ plan: PCM512xClockPlan, sourceLabel: String) {
        let rate = plan.sampleRate
        if let pll = plan.pll {
            // output == reference * R * (J + D/10000) / P exactly
            #expect(Int64(plan.referenceHertz) * Int64(pll.r) * Int64(pll.j * 10_000 + pll.d)
                        == Int64(pll.outputHertz) * Int64(pll.p) * 10_000, "\(sourceLabel) \(plan)")
            #expect((64_000_000...100_000_000).contains(pll.outputHertz))
            #expect((1...15).contains(pll.p) && (1...63).contains(pll.j) && (1...16).contains(pll.r))
            #expect((0...9_999).contains(pll.d))
            let input = Double(plan.referenceHertz) / Double(pll.p)
            if pll.d == 0 {
                #expect(input >= 1_000_000 && input <= 20_000_000, "\(plan)")
            } else {
                #expect(input >= 6_667_000 && input <= 20_000_000 && (4...11).contains(pll.j) && pll.r == 1, "\(plan)")
            }
            #expect(plan.masterClockHertz == pll.outputHertz)
        } else {
            #expect(plan.masterClockHertz == plan.referenceHertz && plan.masterClockHertz / rate >= 256)
        }
        #expect(plan.masterClockHertz % plan.dspDivider == 0 && plan.dspHertz <= 50_000_000)
        #expect(plan.dspHertz % rate == 0 && plan.idac * rate == plan.dspHertz && plan.idac >= 256)
        #expect(plan.masterClockHertz % plan.dacDivider == 0 && plan.dacHertz <= 6_144_000)
        #expect(plan.dacHertz == plan.osrDivider * 16 * rate, "OSR clock is 16 fs exactly")
        #expect(plan.ncpHertz <= 2_048_000 && plan.ncpHertz >= 1_000_000)
        for divider in [plan.dspDivider, plan.dacDivider, plan.ncpDivider, plan.osrDivider] {
            #expect((1...128).contains(divider))
        }
        #expect(plan.speedMode == (rate <= 48_000 ? 0 : rate <= 96_000 ? 1 : 2))
    }

    @Test(arguments: [12_288_000, 24_576_000, 11_289_600, 22_579_200, 12_000_000, 19_200_000, 24_000_000])
    func everyRateFromCommonMasterClocks(mclk: Int) throws {
        let source = PCM512xClockSource.masterClock(hertz: mclk)
        // A 44.1 kHz-family clock cannot make 192 kHz: 98.304 MHz / 11.2896 MHz = 8.7075... needs a P of
        // 147, and the PLL outputs it can make exactly leave fewer than 256 DSP clocks a sample.
        let expected = mclk % 11_025 == 0 && mclk % 8_000 != 0 ? Self.all.filter { $0 != 192_000 } : Self.all
        #expect(PCM512xClockPlan.supportedRates(source: source) == expected, "\(mclk) Hz")
        for rate in expected {
            let plan = try PCM512xClockPlan.plan(source: source, rate: rate)
            checkLimits(plan, sourceLabel: "\(mclk)")
        }
    }

    @Test func directSCKWhereTheRatioAllowsElseThePLL() throws {
        let sck = PCM512xClockSource.masterClock(hertz: 24_576_000)
        let at48 = try PCM512xClockPlan.plan(source: sck, rate: 48_000)
        #expect(at48.pll == nil && at48.idac == 512 && at48.dacDivider == 4 && at48.osrDivider == 8)
        // 192 kHz is 128 fs: too few DSP clocks a sample, so the PLL makes 98.304 MHz from SCK/2.
        let at192 = try PCM512xClockPlan.plan(source: sck, rate: 192_000)
        #expect(at192.pll == .init(fromBitClock: false, p: 2, j: 8, d: 0, r: 1, outputHertz: 98_304_000))
        #expect(at192.idac == 256 && at192.osrDivider == 2 && at192.speedMode == 2)
        // The datasheet's own example family: 12 MHz to 44.1 kHz needs J.D = 7.5264.
        let usb = try PCM512xClockPlan.plan(source: .masterClock(hertz: 12_000_000), rate: 44_100)
        #expect(usb.pll == .init(fromBitClock: false, p: 1, j: 7, d: 5_264, r: 1, outputHertz: 90_316_800))
        #expect(usb.description
            == "44100 Hz from SCK 12 MHz: PLL P=1 J.D=7.5264 R=1 -> 90.3168 MHz, DSP /2 (1024 fs), DAC /16, OSR /8, NCP /4")
    }

    @Test func fromBCLKAt64fsTheLowRatesAreRefused() throws {
        // 8 kHz x 64 = 512 kHz and 11.025 kHz x 64 = 705.6 kHz, 12 kHz x 64 = 768 kHz: below the PLL's 1 MHz input.
        let supported = [16_000, 22_050, 24_000, 32_000, 44_100, 48_000, 64_000, 88_200, 96_000, 176_400, 192_000]
        #expect(PCM512xClockPlan.supportedRates(source: .bitClock64) == supported)
        for rate in supported {
            let plan = try PCM512xClockPlan.plan(source: .bitClock64, rate: rate)
            #expect(plan.pll?.fromBitClock == true && plan.referenceHertz == 64 * rate)
            checkLimits(plan, sourceLabel: "BCLK")
        }
        let sixteen = try PCM512xClockPlan.plan(source: .bitClock64, rate: 16_000)
        #expect(sixteen.pll == .init(fromBitClock: true, p: 1, j: 48, d: 0, r: 2, outputHertz: 98_304_000))
        #expect(throws: CodecError.unsupportedRate(codec: "PCM512x", rate: 8_000, mclk: 0, supported: supported)) {
            try PCM512xClockPlan.plan(source: .bitClock64, rate: 8_000)
        }
        let error = CodecError.unsupportedRate(codec: "PCM512x", rate: 8_000, mclk: 0, supported: supported)
        #expect(error.description.hasPrefix("the PCM512x cannot make 8000 Hz exactly from BCLK (no MCLK); rates it "
            + "can make: 16000, 22050, 24000"))
        // With 32 bits a frame even 16 kHz (512 kHz) is out of reach.
        #expect(PCM512xClockPlan.supportedRates(source: .bitClock(bitsPerFrame: 32)).first == 32_000)
        #expect(throws: CodecError.self) { try PCM512xClockPlan.plan(source: .bitClock(bitsPerFrame: 40), rate: 48_000) }
    }

    @Test func theHiFiBerryProPicksTheOscillatorOfTheRateFamily() throws {
        #expect(PCM512xClockPlan.supportedRates(source: .hiFiBerryDACPlusPro) == Self.all)
        for rate in Self.all {
            let plan = try PCM512xClockPlan.plan(source: .hiFiBerryDACPlusPro, rate: rate)
            let expected = Self.family44k1.contains(rate) ? 22_579_200 : 24_576_000
            #expect(plan.oscillator?.hertz == expected && plan.referenceHertz == expected, "\(rate)")
            #expect(plan.oscillator?.gpio == (expected == 22_579_200 ? 6 : 3))
            checkLimits(plan, sourceLabel: "HiFiBerry")
        }
    }

    @Test func oddRatesAndClocksAreRefusedWithTheListOfRatesTheyCanMake() throws {
        let sck = PCM512xClockSource.masterClock(hertz: 24_576_000)
        #expect(throws: CodecError.unsupportedRate(codec: "PCM512x", rate: 44_000, mclk: 24_576_000, supported: Self.all)) {
            try PCM512xClockPlan.plan(source: sck, rate: 44_000)
        }
        let cd = PCM512xClockSource.masterClock(hertz: 11_289_600)
        #expect(throws: CodecError.unsupportedRate(codec: "PCM512x", rate: 192_000, mclk: 11_289_600,
                                                   supported: Self.all.filter { $0 != 192_000 })) {
            try PCM512xClockPlan.plan(source: cd, rate: 192_000)
        }
        // 13 MHz is no audio clock: what it can make, it makes exactly and inside the limits.
        let odd = PCM512xClockSource.masterClock(hertz: 13_000_000)
        for rate in PCM512xClockPlan.supportedRates(source: odd) {
            checkLimits(try PCM512xClockPlan.plan(source: odd, rate: rate), sourceLabel: "13 MHz")
        }
        #expect(throws: CodecError.self) { try PCM512xClockPlan.plan(source: .masterClock(hertz: 60_000_000), rate: 48_000) }
    }

    @Test(arguments: [PCM512xClockSource.bitClock64, .masterClock(hertz: 12_288_000), .hiFiBerryDACPlusPro])
    func theModelMakesEveryPlannedRate(source: PCM512xClockSource) throws {
        let model = PCM512xModel(address: try I2CAddress(0x4c), clockSource: source)
        let codec = PCM512x(bus: model.bus, clock: ManualClock(skipsSleeps: true), clockSource: source)
        try codec.reset()
        try codec.configure(CodecStreamFormat(sampleRate: 48_000))
        try codec.powerUp()
        // Every supported rate, in a shuffled order, so each change starts from another clock tree.
        let rates = PCM512xClockPlan.supportedRates(source: source)
        #expect(rates.count >= 11)
        for rate in rates.reversed() + rates.filter({ $0 % 2 == 1 || $0 % 3 == 0 }) {
            try codec.configure(CodecStreamFormat(sampleRate: rate, wordLength: 24))
            let state = model.state(streamRate: rate)
            #expect(state.sampleRate.map { ($0 - Double(rate)).magnitude < 1e-6 } == true, "\(source) \(rate): \(state)")
            #expect(state.clockWithinLimits && state.manualDividers && state.playing, "\(source) \(rate)")
            #expect(state.pllEnabled == (codec.clockPlan?.pll != nil))
        }
    }
}
