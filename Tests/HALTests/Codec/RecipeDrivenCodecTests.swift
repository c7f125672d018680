import Testing
@testable import HAL

/// The rules every recipe-driven driver shares (RecipeDrivenCodec): a reset forgets format, clock plan and
/// power; a format the chip cannot clock leaves the previous configuration as it was, chip included; power
/// moves only where the state allows them.
@Suite("Recipe-driven codecs")
struct RecipeDrivenCodecTests {
    /// Each chip on its twin: 12.288 MHz MCLK, or BCLK for the PCM5122.
    static func drivers() throws -> [(codec: any RecipeDrivenCodec, bus: SimulatedRegisterBus)] {
        let clock = ManualClock(skipsSleeps: true)
        let wm8960 = WM8960Model(address: try I2CAddress(0x1a), mclk: 12_288_000)
        let wm8731 = WM8731Model(address: try I2CAddress(0x1a), mclk: 12_288_000)
        let sgtl5000 = SGTL5000Model(address: try I2CAddress(0x0a), mclk: 12_288_000)
        let pcm5122 = PCM512xModel(address: try I2CAddress(0x4d), clockSource: .bitClock64)
        return [
            (WM8960(bus: wm8960.bus, clock: clock, mclk: 12_288_000), wm8960.bus),
            (WM8731(bus: wm8731.bus, clock: clock, mclk: 12_288_000), wm8731.bus),
            (SGTL5000(bus: sgtl5000.bus, clock: clock, mclk: 12_288_000), sgtl5000.bus),
            (PCM512x(bus: pcm5122.bus, clock: clock, clockSource: .bitClock64), pcm5122.bus),
        ]
    }

    @Test func theSharedRulesHoldForEveryChip() throws {
        for (codec, bus) in try Self.drivers() {
            try check(codec, bus: bus)
        }
    }

    private func check<Codec: RecipeDrivenCodec>(_ codec: Codec, bus: SimulatedRegisterBus) throws {
        try codec.reset()
        #expect(throws: CodecError.self, "\(codec.name): power-up before configure") { try codec.powerUp() }
        try codec.configure(CodecStreamFormat(sampleRate: 48_000))
        let planned = codec.clockPlan
        #expect(codec.format?.sampleRate == 48_000 && planned != nil)
        // 12345 Hz is no divisor of any of these clocks: refused before a byte goes out.
        bus.clearTrace()
        #expect(throws: CodecError.self, "\(codec.name): 12345 Hz") {
            try codec.configure(CodecStreamFormat(sampleRate: 12_345))
        }
        #expect(bus.trace.isEmpty && codec.format?.sampleRate == 48_000, "\(codec.name)")
        try codec.powerUp()
        #expect(codec.powerState == .on)
        bus.clearTrace()
        try codec.wake()
        #expect(bus.trace.isEmpty && codec.powerState == .on, "\(codec.name): wake only from standby")
        try codec.standby()
        #expect(codec.powerState == .standby)
        try codec.reset()
        #expect(codec.powerState == .off && codec.format == nil && codec.clockPlan == nil, "\(codec.name)")
    }
}
