import Codec8_24
import Testing
@testable import HAL

@Suite("WM8960 volume split")
struct WM8960VolumeTests {
    /// -200 dB (every stage at its bottom) to +6 dB in 0.5 dB steps.
    static let levels = (0...412).map { -200 + Double($0) * 0.5 }

    @Test func theSplitIsExactOnEveryStageGridAndMonotonic() {
        var previousCodec = -Double.infinity
        for level in Self.levels {
            let setting = WM8960VolumeSplit.split(level, output: .headphones)
            #expect(!setting.isMuted)
            #expect(setting.levelDB == level)
            #expect(setting.codecDB + setting.fineDB == level, "\(setting)")
            let analog = setting.stageDB[0], digital = setting.stageDB[1]
            #expect((-73...6).contains(analog) && analog == analog.rounded(), "\(setting)")
            #expect((-127...0).contains(digital) && digital * 2 == (digital * 2).rounded(), "\(setting)")
            #expect(setting.fineDB <= 0 && setting.fineDB > -0.5)
            #expect(setting.codecDB >= previousCodec, "codec gain never falls as the level rises")
            previousCodec = setting.codecDB
            // The codes decode back to the same stage gains.
            #expect(WM8960VolumeSplit.outputDB(code: WM8960VolumeSplit.outputCode(setting)) == analog)
            #expect(WM8960VolumeSplit.dacDB(code: WM8960VolumeSplit.dacCode(setting)) == digital)
        }
    }

    @Test func offGridLevelsLeaveASmallNonPositiveRemainder() {
        for level in stride(from: -80.0, through: 6, by: 0.1) {
            let setting = WM8960VolumeSplit.split(level, output: .speaker)
            #expect(abs(setting.codecDB + setting.fineDB - level) < 1e-12)
            #expect(setting.fineDB <= 0 && setting.fineDB > -0.5)
        }
    }

    @Test func setThenGetRoundTripsOnThePoweredChip() throws {
        let model = WM8960Model(address: try I2CAddress(0x1a), mclk: 12_288_000)
        let codec = WM8960(bus: model.bus, clock: ManualClock(skipsSleeps: true), mclk: 12_288_000)
        try codec.configure(CodecStreamFormat(sampleRate: 48_000))
        try codec.powerUp()
        for level in Self.levels {
            let setting = try codec.setVolume(level, output: .headphones)
            #expect(codec.volume(of: .headphones).levelDB == level)
            #expect(setting.codecDB + setting.fineDB == level)
            #expect(model.state.level(.headphones) == setting.codecDB, "the chip holds the codec part of \(level) dB")
        }
    }

    @Test func theBoardMaximumCapsAndBelowTheRangeMutes() throws {
        let model = WM8960Model(address: try I2CAddress(0x1a), mclk: 12_288_000)
        let codec = WM8960(bus: model.bus, clock: ManualClock(skipsSleeps: true), mclk: 12_288_000, maximumVolumeDB: -6)
        try codec.configure(CodecStreamFormat(sampleRate: 48_000))
        try codec.powerUp()
        #expect(try codec.setVolume(3, output: .headphones).levelDB == -6)
        #expect(model.state.level(.headphones) == -6)
        #expect(try codec.setVolume(-6.5, output: .headphones).levelDB == -6.5)
        let muted = try codec.setVolume(-250, output: .headphones)
        #expect(muted.isMuted && muted.fineGain == .zero)
        #expect(model.state.headphoneGain.dB == nil && model.state.dacGain.dB == nil)
        do {
            try codec.setVolume(.nan, output: .headphones)
            Issue.record("NaN accepted")
        } catch {
            guard case .invalidGain(let value) = error else { Issue.record("unexpected \(error)"); return }
            #expect(value.isNaN)
        }
        do {
            try codec.setVolume(-10, output: .line)
            Issue.record("line output accepted")
        } catch {
            #expect(error.description.contains("headphone output drives line") || error.description.contains("headphone"))
        }
    }

    @Test func theFineGainIsThe824Remainder() {
        let setting = WM8960VolumeSplit.split(-10.25, output: .headphones)
        #expect(setting.stageDB == [-10, 0] && setting.fineDB == -0.25)
        // 10^(-0.25/20) = 0.97162795157710617; 8.24 rounds to the nearest 2^-24.
        #expect(setting.fineGain.raw == 16_301_212)
    }

    @Test func theDriversFineRemainderIsWhatThe824StageApplies() throws {
        let model = WM8960Model(address: try I2CAddress(0x1a), mclk: 12_288_000)
        let codec = WM8960(bus: model.bus, clock: ManualClock(skipsSleeps: true), mclk: 12_288_000)
        let setting = try codec.setVolume(-10.25, output: .headphones)
        var stage = FineGainStage()
        stage.take(fineGain: setting.fineGain)
        var samples: [Fixed824] = [.one, Fixed824(raw: -8_388_608)]
        samples.withUnsafeMutableBufferPointer { stage.process($0, channels: 2) }
        // -10 dB on the amplifier (1 dB steps, datasheet R2/R3 LOUT1VOL), -0.25 dB in the samples:
        // 10^(-0.25/20) · 2^24 = 16301212.015, so full scale becomes 16301212 and -0.5 becomes -8150606.
        #expect(samples.map(\.raw) == [16_301_212, -8_150_606])
    }

    @Test func inputPGACodesCoverTheDatasheetRange() {
        #expect(WM8960VolumeSplit.inputCode(-17.25) == 0x00)
        #expect(WM8960VolumeSplit.inputCode(0) == 0x17)
        #expect(WM8960VolumeSplit.inputCode(30) == 0x3F)
        #expect(WM8960VolumeSplit.inputCode(99) == 0x3F)
        #expect(WM8960VolumeSplit.inputDB(code: 0x3F) == 30)
        #expect(WM8960VolumeSplit.inputStage.stepCount == 64)
        #expect(WM8960VolumeSplit.outputStage.stepCount == 80)
    }
}
