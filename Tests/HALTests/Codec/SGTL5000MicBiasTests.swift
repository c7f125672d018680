import Testing
@testable import HAL

/// The mic bias the board wires. Fe-Pi: the kernel's arch/arm/boot/dts/overlays/fe-pi-audio-overlay.dts sets
/// micbias-resistor-k-ohms = <2> and micbias-voltage-m-volts = <3000>; sound/soc/codecs/sgtl5000.c
/// `sgtl5000_i2c_probe` turns them into BIAS_RESISTOR 1 (2 kΩ) and BIAS_VOLT 3000 / 250 - 5 = 7, and the
/// datasheet's CHIP_MIC_CTRL puts BIAS_RESISTOR at bits 9:8, BIAS_VOLT at 6:4 (1.25 V + 0.25 V x 7 = 3.0 V)
/// and GAIN at 1:0 (+30 dB = 2).
@Suite("SGTL5000 mic bias")
struct SGTL5000MicBiasTests {
    @Test func codesFollowTheKernelAndTheDatasheet() throws {
        let fePi = try #require(SGTL5000MicBias(millivolts: 3_000, kilohms: 2))
        #expect(fePi.voltageCode == 7 && fePi.resistorCode == 1 && fePi.micControlBits == 0x0170)
        #expect(fePi.description == "3.0 V through 2 kΩ")
        // The kernel's defaults without device-tree properties: 4 kΩ (code 2), 1.25 V (code 0).
        #expect(SGTL5000MicBias.kernelDefault.micControlBits == 0x0200)
        #expect(SGTL5000MicBias(millivolts: 2_250, kilohms: 8)?.micControlBits == 0x0340)
        #expect(SGTL5000MicBias(millivolts: 3_100, kilohms: 2) == nil && SGTL5000MicBias(millivolts: 3_000, kilohms: 3) == nil)
    }

    @Test func theFePisBiasReachesMicControl() throws {
        let model = SGTL5000Model(address: try I2CAddress(0x0a), mclk: 12_288_000)
        let bias = try #require(SGTL5000MicBias(millivolts: 3_000, kilohms: 2))
        let codec = SGTL5000(bus: model.bus, clock: ManualClock(skipsSleeps: true), mclk: 12_288_000, micBias: bias)
        try codec.reset()
        try codec.configure(CodecStreamFormat(sampleRate: 48_000, role: .provider))
        try codec.powerUp()
        model.bus.clearTrace()
        #expect(try codec.select(input: .microphone, micBias: true, pgaGainDB: 30) == 30)
        // CHIP_MIC_CTRL (0x002A): BIAS_RESISTOR 1 | BIAS_VOLT 7 | GAIN 2 (+30 dB).
        #expect(model.bus.trace.contains(.write(reg: 0x002A, value: 0x0172)))
        #expect(model.state.micBias == bias)
        #expect(model.state.description.contains("mic bias 3.0 V through 2 kΩ"))
    }
}
