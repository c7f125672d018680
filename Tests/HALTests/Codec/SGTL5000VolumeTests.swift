import Testing
import Codec8_24
@testable import HAL

@Suite("SGTL5000 volume split")
struct SGTL5000VolumeTests {
    static let split = SGTL5000VolumeSplit(lineOutNominalCode: SGTL5000Supplies.fePi.lineOutNominalCode)
    /// -160 dB (below every stage) to +12 dB in 0.25 dB steps.
    static let levels = (0...688).map { -160 + Double($0) * 0.25 }

    @Test(arguments: [CodecOutput.headphones, .line])
    func theSplitIsExactOnEveryStepAndMonotonic(output: CodecOutput) {
        let stages = Self.split.stages(for: output)
        var previousCodec = -Double.infinity
        var previousLevel = -Double.infinity
        for level in Self.levels {
            let setting = Self.split.split(level, output: output)
            let capped = Swift.min(level, stages[0].maximumDB)
            #expect(setting.levelDB == capped)
            if setting.isMuted {
                #expect(capped < Self.split.minimumDB(for: output) && setting.fineGain == .zero)
                continue
            }
            #expect(setting.codecDB + setting.fineDB == capped, "\(setting)")
            let analog = setting.stageDB[0], digital = setting.stageDB[1]
            #expect(stages[0].minimumDB <= analog && analog <= stages[0].maximumDB && (analog * 2).rounded() == analog * 2)
            #expect(-90 <= digital && digital <= 0 && (digital * 2).rounded() == digital * 2)
            #expect(setting.fineDB <= 0 && setting.fineDB > -0.5, "\(setting)")
            if capped > previousLevel {
                #expect(setting.codecDB + setting.fineDB > previousCodec, "the curve rises with the level")
            }
            previousCodec = setting.codecDB + setting.fineDB
            previousLevel = capped
            // The register codes decode back to the same stage gains.
            let (analogCode, dacCode) = Self.split.codes(setting)
            let decoded = output == .line ? Self.split.lineOutDB(code: analogCode)
                : SGTL5000VolumeSplit.headphoneDB(code: analogCode)
            #expect(decoded == analog && SGTL5000VolumeSplit.dacDB(code: dacCode) == digital)
        }
    }

    @Test func stagesMatchTheDatasheet() {
        #expect(SGTL5000VolumeSplit.headphoneCode(12) == 0x00 && SGTL5000VolumeSplit.headphoneCode(0) == 0x18)
        #expect(SGTL5000VolumeSplit.headphoneCode(-51.5) == 0x7F)
        #expect(SGTL5000VolumeSplit.dacCode(0) == 0x3C && SGTL5000VolumeSplit.dacCode(-90) == 0xF0)
        #expect(SGTL5000VolumeSplit.dacCode(nil) == 0xFC && SGTL5000VolumeSplit.dacDB(code: 0xFC) == nil)
        #expect(SGTL5000VolumeSplit.headphoneStage.stepCount == 128 && SGTL5000VolumeSplit.dacStage.stepCount == 181)
        #expect(SGTL5000VolumeSplit.headphoneStage.zeroCross && !SGTL5000VolumeSplit.headphoneStage.softRamp)
        #expect(SGTL5000VolumeSplit.dacStage.softRamp && !SGTL5000VolumeSplit.dacStage.zeroCross)
        // Fe-Pi: VAG = min(3.3 V / 2, 1.575 V), line-out reference 1.65 V: 40 log10(1.575 / 1.65) + 15 = 14.19.
        #expect(SGTL5000Supplies.fePi.vagCode == 31 && SGTL5000Supplies.fePi.lineOutVAGCode == 34)
        #expect(Self.split.lineOutNominalCode == 14 && Self.split.lineOutStage.minimumDB == -8.5)
        #expect(Self.split.lineOutCode(0) == 14 && Self.split.lineOutCode(-8.5) == 31)
        let lowRails = SGTL5000Supplies(vddaMillivolts: 1800, vddioMillivolts: 1800)
        #expect(lowRails.needsChargePump && !lowRails.bothRailsHigh && lowRails.vagCode == 4)
    }

    @Test func setThenGetRoundTripsOnThePoweredChip() throws {
        let model = SGTL5000Model(address: try I2CAddress(0x0a), mclk: 12_288_000)
        let codec = SGTL5000(bus: model.bus, clock: ManualClock(skipsSleeps: true), mclk: 12_288_000)
        try codec.reset()
        try codec.configure(CodecStreamFormat(sampleRate: 48_000))
        try codec.powerUp()
        for level in stride(from: -141.5, through: 12, by: 0.5) {
            let setting = try codec.setVolume(level, output: .headphones)
            #expect(codec.volume(of: .headphones) == setting && setting.levelDB == level)
            #expect(setting.codecDB + setting.fineDB == level && setting.fineDB == 0)
            #expect(model.state.headphoneLevel == setting.codecDB, "the chip holds \(level) dB")
        }
        try codec.select(output: .line)
        for level in stride(from: -98.5, through: 0, by: 0.5) {
            let setting = try codec.setVolume(level, output: .line)
            #expect(model.state.lineOutLevel(codec.volumeSplit) == setting.codecDB && setting.codecDB == level)
        }
    }

    @Test func theBoardMaximumCapsAndBelowTheRangeMutes() throws {
        let model = SGTL5000Model(address: try I2CAddress(0x0a), mclk: 12_288_000)
        let codec = SGTL5000(bus: model.bus, clock: ManualClock(skipsSleeps: true), mclk: 12_288_000, maximumVolumeDB: -6)
        try codec.reset()
        try codec.configure(CodecStreamFormat(sampleRate: 48_000))
        try codec.powerUp()
        #expect(try codec.setVolume(9, output: .headphones).levelDB == -6)
        #expect(model.state.headphoneLevel == -6)
        #expect(try codec.setVolume(-6.25, output: .headphones).levelDB == -6.25)
        let muted = try codec.setVolume(-142, output: .headphones)
        #expect(muted.isMuted && muted.fineGain == .zero)
        #expect(model.state.dacGain.dB == nil && model.state.headphoneLevel == nil)
        do {
            try codec.setVolume(.nan, output: .headphones)
            Issue.record("NaN accepted")
        } catch {
            guard case .invalidGain(let value) = error else { Issue.record("unexpected \(error)"); return }
            #expect(value.isNaN)
        }
        #expect(throws: CodecError.self) { try codec.setVolume(-10, output: .speaker) }
    }

    @Test func theFineGainIsThe824Remainder() {
        let setting = Self.split.split(-10.25, output: .headphones)
        #expect(setting.stageDB == [-10, 0] && setting.fineDB == -0.25)
        // 10^(-0.25/20) = 0.97162795157710617; 8.24 rounds to the nearest 2^-24.
        #expect(setting.fineGain.raw == 16_301_212)
        let deep = Self.split.split(-100.75, output: .headphones)
        #expect(deep.stageDB == [-51.5, -49] && deep.fineDB == -0.25)
    }

    @Test func inputGainUsesPreampAndADCVolume() {
        let mic31 = SGTL5000VolumeSplit.inputGain(31, microphone: true)
        #expect(mic31.micDB == 30 && mic31.adcDB == 1.5 && mic31.totalDB == 31.5)
        #expect(SGTL5000VolumeSplit.inputGain(62.5, microphone: true).totalDB == 62.5)
        #expect(SGTL5000VolumeSplit.inputGain(99, microphone: true).totalDB == 62.5)
        let low = SGTL5000VolumeSplit.inputGain(-6, microphone: true)
        #expect(low.micDB == 0 && low.adcMinus6dB && low.adcCode == 0 && low.totalDB == -6)
        #expect(SGTL5000VolumeSplit.inputGain(23, microphone: false).totalDB == 22.5)
        #expect(SGTL5000VolumeSplit.inputGain(20, microphone: true) == .init(micGainCode: 1, adcCode: 0, adcMinus6dB: false))
        // The 1.5 dB grid from -6 to +52.5 dB (preamp 0 or +30 dB) is reachable exactly; above it only the
        // +40 dB preamp reaches, whose grid is 1 dB off (40, 41.5, ...): the nearest setting, within 0.5 dB.
        for step in 0...45 {
            let dB = -6 + Double(step) * 1.5
            let total = SGTL5000VolumeSplit.inputGain(dB, microphone: true).totalDB
            if dB <= 52.5 { #expect(total == dB) } else { #expect(abs(total - dB) == 0.5) }
        }
    }
}
