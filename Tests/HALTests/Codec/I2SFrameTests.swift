import Testing
@testable import HAL

/// The board's I2S frame sets BCLK for every codec. bcm2835-i2s (sound/soc/bcm/bcm2835-i2s.c
/// `bcm2835_i2s_hw_params`) frames by the sample width unless the slot width is set, so the overlay pins it:
/// two 32-bit slots (64 fs) by default, the same for 16- and 24-bit streams. These tests give codecs a frame
/// other than 64 fs and check that their registers make that frame, and that the twins catch a codec that
/// clocks a different frame from the Pi's.
@Suite("I2S frame")
struct I2SFrameTests {
    static let thirtyTwo = I2SFrame.slots(count: 2, width: 16)

    @Test func framesCountBitClocks() {
        #expect(I2SFrame.standard.bitsPerFrame(rate: 48_000) == 64 && I2SFrame.standard.bitClock(rate: 48_000) == 3_072_000)
        #expect(Self.thirtyTwo.bitClock(rate: 44_100) == 1_411_200)
        #expect(I2SFrame.fixedBitClock(hertz: 12_000_000).bitsPerFrame(rate: 48_000) == 250)
        #expect(Self.thirtyTwo.problem(rate: 48_000, wordLength: 24) == "16-bit slots cannot carry 24-bit samples")
        #expect(I2SFrame.standard.problem(rate: 48_000, wordLength: 24) == nil)
    }

    /// WM8960 as provider: BCLK = SYSCLK / BCLKDIV (datasheet R8 BCLKDIV[3:0]; kernel sound/soc/codecs/wm8960.c
    /// `bclk_divs` = {10, 15, 20, 30, 40, 55, 60, 80, ...} tenths). 48 kHz from 12.288 MHz: SYSCLK 12.288 MHz;
    /// 64 fs = 3.072 MHz needs /4 (code 0100), 32 fs = 1.536 MHz needs /8 (code 0111). R8's reset value is
    /// 0x1C0 (DCLKDIV 111).
    @Test(arguments: [(I2SFrame.standard, RegisterValue(0x1C4)), (thirtyTwo, RegisterValue(0x1C7))])
    func wm8960ProviderMakesTheBoardsFrame(frame: I2SFrame, clocking2: RegisterValue) throws {
        let model = WM8960Model(address: try I2CAddress(0x1a), mclk: 12_288_000, frame: frame)
        let codec = WM8960(bus: model.bus, clock: ManualClock(skipsSleeps: true), mclk: 12_288_000)
        try codec.configure(CodecStreamFormat(sampleRate: 48_000, role: .provider, frame: frame))
        #expect(model.bus.trace.contains(.write(reg: 0x08, value: clocking2)))
        #expect(model.state.frameProblem == nil && model.state.sampleRate == 48_000)
    }

    /// 44.1 kHz through the PLL: SYSCLK 11.2896 MHz, 64 fs = 2.8224 MHz is SYSCLK / 4 again.
    @Test func wm8960ProviderFrameThroughThePLL() throws {
        let model = WM8960Model(address: try I2CAddress(0x1a), mclk: 12_288_000)
        let codec = WM8960(bus: model.bus, clock: ManualClock(skipsSleeps: true), mclk: 12_288_000)
        try codec.configure(CodecStreamFormat(sampleRate: 44_100, wordLength: 24, role: .provider))
        #expect(model.bus.trace.contains(.write(reg: 0x08, value: 0x1C4)))
        #expect(model.state.frameProblem == nil)
    }

    /// The twin compares its BCLKDIV with the Pi's frame: a WM8960 making 32 fs against a Pi expecting 64.
    @Test func wm8960TwinReportsAFrameMismatch() throws {
        let model = WM8960Model(address: try I2CAddress(0x1a), mclk: 12_288_000, frame: .standard)
        let codec = WM8960(bus: model.bus, clock: ManualClock(skipsSleeps: true), mclk: 12_288_000)
        try codec.configure(CodecStreamFormat(sampleRate: 48_000, role: .provider, frame: Self.thirtyTwo))
        #expect(model.state.frameProblem == "frame mismatch: BCLK makes 32 bits a frame, the Pi expects 64")
        #expect(model.state.description.contains("clock: MCLK, frame mismatch: BCLK makes 32 bits a frame"))
    }

    /// PCM5122 without SCK: its PLL's reference is BCLK = frame x rate, so a 32 fs frame gives it 1.536 MHz
    /// at 48 kHz, not the 3.072 MHz of 64 fs. The twin runs the PLL from the Pi's real BCLK; the rate the
    /// dividers make must be the stream's.
    @Test(arguments: [16, 24])
    func pcm5122PLLFollowsTheBoardsBitClock(wordLength: Int) throws {
        for frame in [I2SFrame.standard, Self.thirtyTwo] where frame.problem(rate: 48_000, wordLength: wordLength) == nil {
            let model = PCM512xModel(address: try I2CAddress(0x4c), clockSource: .bitClock64, frame: frame)
            let codec = PCM512x(bus: model.bus, clock: ManualClock(skipsSleeps: true), clockSource: .bitClock64)
            try codec.reset()
            try codec.configure(CodecStreamFormat(sampleRate: 48_000, wordLength: wordLength, frame: frame))
            let state = model.state(streamRate: 48_000)
            let rate = try #require(state.sampleRate, "\(frame)")
            #expect(abs(rate - 48_000) < 1e-6 && state.clockWithinLimits, "\(frame): \(state)")
        }
    }

    /// SGTL5000: CHIP_I2S_CTRL SCLKFREQ (datasheet: 0 = 64 Fs, 1 = 32 Fs; in slave mode it "must be set
    /// appropriately to match SCLK input rate") follows the board's frame, not the word length.
    @Test(arguments: [(I2SFrame.standard, 16, RegisterValue(0x00B0)), (I2SFrame.standard, 24, 0x0090),
                      (thirtyTwo, 16, 0x01B0)])
    func sgtl5000SCLKFreqFollowsTheFrame(frame: I2SFrame, wordLength: Int, control: RegisterValue) throws {
        let model = SGTL5000Model(address: try I2CAddress(0x0a), mclk: 12_288_000, frame: frame)
        let codec = SGTL5000(bus: model.bus, clock: ManualClock(skipsSleeps: true), mclk: 12_288_000)
        try codec.configure(CodecStreamFormat(sampleRate: 48_000, wordLength: wordLength, role: .provider, frame: frame))
        // I2S_CTRL: SCLKFREQ (bit 8), MS (bit 7), DLEN (bits 5:4: 16-bit 3, 24-bit 1), I2S mode 0.
        #expect(model.bus.trace.contains(.write(reg: 0x0006, value: control)))
        #expect(model.state.frameProblem == nil && model.state.sampleRate == 48_000)
    }

    @Test func sgtl5000TwinReportsAFrameMismatch() throws {
        let model = SGTL5000Model(address: try I2CAddress(0x0a), mclk: 12_288_000, frame: .standard)
        let codec = SGTL5000(bus: model.bus, clock: ManualClock(skipsSleeps: true), mclk: 12_288_000)
        try codec.configure(CodecStreamFormat(sampleRate: 48_000, role: .provider, frame: Self.thirtyTwo))
        #expect(model.state.frameProblem == "frame mismatch: SCLKFREQ says 32 Fs, the Pi runs 64")
    }
}
