import Testing
@testable import HAL

@Suite("WM8731 volume split")
struct WM8731VolumeTests {
    /// -80 dB (below the amplifier) to +6 dB in 0.5 dB steps.
    static let levels = (0...172).map { -80 + Double($0) * 0.5 }

    @Test func theSplitIsExactOnTheGridAndMonotonic() {
        var previous = -Double.infinity
        for level in Self.levels {
            let setting = WM8731VolumeSplit.split(level, output: .headphones)
            #expect(setting.levelDB == level)
            if level <= -74 {
                #expect(setting.isMuted && setting.fineGain == .zero, "\(level) dB is below -73 dB - 1 step")
                continue
            }
            #expect(!setting.isMuted)
            #expect(setting.codecDB + setting.fineDB == level, "\(setting)")
            let analog = setting.stageDB[0]
            #expect((-73...6).contains(analog) && analog == analog.rounded(), "\(setting)")
            #expect(setting.fineDB <= 0 && setting.fineDB > -1)
            #expect(setting.codecDB >= previous, "amplifier gain never falls as the level rises")
            previous = setting.codecDB
            #expect(WM8731VolumeSplit.headphoneDB(code: WM8731VolumeSplit.headphoneCode(setting)) == analog)
        }
    }

    @Test func datasheetCodes() {
        func code(_ dB: Double) -> RegisterValue { WM8731VolumeSplit.headphoneCode(WM8731VolumeSplit.split(dB, output: .headphones)) }
        #expect(code(6) == 0x7F && code(0) == 0x79 && code(-73) == 0x30 && code(-74) == 0x00)
        #expect(WM8731VolumeSplit.headphoneDB(code: 0x2F) == nil)
        #expect(WM8731VolumeSplit.headphoneStage.stepCount == 80)
        #expect(WM8731VolumeSplit.lineInputCode(0) == 0x17 && WM8731VolumeSplit.lineInputCode(12) == 0x1F)
        #expect(WM8731VolumeSplit.lineInputCode(-34.5) == 0x00 && WM8731VolumeSplit.lineInputCode(-99) == 0x00)
        #expect(WM8731VolumeSplit.lineInputDB(code: 0x1F) == 12 && WM8731VolumeSplit.lineInputStage.stepCount == 32)
    }

    @Test func setThenGetRoundTripsOnThePoweredChip() throws {
        let model = WM8731Model(address: try I2CAddress(0x1a), mclk: 12_288_000)
        let codec = WM8731(bus: model.bus, clock: ManualClock(skipsSleeps: true), mclk: 12_288_000)
        try codec.configure(CodecStreamFormat(sampleRate: 48_000))
        try codec.powerUp()
        for level in Self.levels {
            let setting = try codec.setVolume(level, output: .headphones)
            #expect(codec.volume(of: .headphones) == setting)
            #expect(codec.volume(of: .headphones).levelDB == level)
            if setting.isMuted {
                #expect(model.state.level(.headphones) == nil)
            } else {
                #expect(setting.codecDB + setting.fineDB == level)
                #expect(model.state.level(.headphones) == setting.codecDB, "the chip holds the codec part of \(level) dB")
            }
        }
    }

    @Test func theBoardMaximumCapsAndBadRequestsAreRefused() throws {
        let model = WM8731Model(address: try I2CAddress(0x1a), mclk: 12_288_000)
        let codec = WM8731(bus: model.bus, clock: ManualClock(skipsSleeps: true), mclk: 12_288_000, maximumVolumeDB: -6)
        try codec.configure(CodecStreamFormat(sampleRate: 48_000))
        try codec.powerUp()
        #expect(try codec.setVolume(3, output: .headphones).levelDB == -6)
        #expect(model.state.level(.headphones) == -6)
        #expect(try codec.setVolume(-6.5, output: .headphones).levelDB == -6.5)
        do {
            try codec.setVolume(.nan, output: .headphones)
            Issue.record("NaN accepted")
        } catch {
            guard case .invalidGain(let value) = error else { Issue.record("unexpected \(error)"); return }
            #expect(value.isNaN)
        }
        #expect(throws: CodecError.self) { try codec.setVolume(-10, output: .speaker) }
        #expect(throws: CodecError.self) { try codec.select(output: .line) }
    }

    @Test func theFineGainIsThe824Remainder() {
        let setting = WM8731VolumeSplit.split(-10.75, output: .headphones)
        #expect(setting.stageDB == [-10] && setting.fineDB == -0.75)
        // 10^(-0.75/20) = 0.9172759353897796; x 2^24 = 15389336.4996, rounded to the nearest 2^-24.
        #expect(setting.fineGain.raw == 15_389_336)
    }
}
