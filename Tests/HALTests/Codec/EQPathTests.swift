import Codec8_24
import Testing
@testable import HAL

/// The layer above asks any codec for a preset and learns which EQ runs it.
@Suite("Codec EQ path")
struct EQPathTests {
    @Test func aChipWithoutHardwareEQLeavesEveryPresetToSoftwareWithoutAWrite() throws {
        let model = WM8960Model(address: try I2CAddress(0x1a), mclk: 12_288_000)
        let codec: any AudioCodec = WM8960(bus: model.bus, clock: ManualClock(skipsSleeps: true), mclk: 12_288_000)
        try codec.reset()
        model.bus.clearTrace()
        let path = try codec.apply(preset: EQPreset.named("rock")!)
        #expect(path == .software("the WM8960 has no hardware EQ: the 8.24 EQ runs every preset"))
        #expect(codec.activeEQPath == path && !path.isHardware)
        #expect(model.bus.trace.isEmpty)
    }

    @Test func theSGTL5000RunsWhatFitsAndSaysWhenItCannot() throws {
        let model = SGTL5000Model(address: try I2CAddress(0x0a), mclk: 12_288_000)
        let codec: any AudioCodec = SGTL5000(bus: model.bus, clock: ManualClock(skipsSleeps: true), mclk: 12_288_000)
        try codec.reset()
        try codec.configure(CodecStreamFormat(sampleRate: 48_000, role: .provider))
        #expect(try codec.apply(preset: .flat).isHardware)
        #expect(codec.activeEQPath.isHardware)
        // Every preset gets a path, and the codec reports the one it took.
        var hardware = 0
        for preset in EQPreset.all {
            let path = try codec.apply(preset: preset)
            #expect(codec.activeEQPath == path)
            if path.isHardware { hardware += 1 } else {
                guard case .software(let reason) = path else { continue }
                #expect(!reason.isEmpty, "\(preset.name)")
            }
        }
        #expect(hardware > 0 && hardware < EQPreset.all.count, "some presets fit the DAP, some do not")
    }
}
