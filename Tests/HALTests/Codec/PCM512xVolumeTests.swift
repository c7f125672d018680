import Testing
@testable import HAL

@Suite("PCM512x volume split")
struct PCM512xVolumeTests {
    /// -115 dB (below both stages) to +24 dB in 0.25 dB steps: every digital step and every fine remainder.
    static let levels = (0...556).map { -115 + Double($0) * 0.25 }

    @Test func theSplitIsExactMonotonicAndUsesTheAnalogStageBelowMinus6() {
        var previous = -Double.infinity
        for level in Self.levels {
            let setting = PCM512xVolumeSplit.split(level)
            #expect(setting.levelDB == level && setting.output == .line)
            if level < -109.0 - 0.25 {
                #expect(setting.isMuted && setting.fineGain == .zero, "\(level) dB is below -109 dB")
                #expect(PCM512xVolumeSplit.digitalCode(setting) == 0xFF)
                continue
            }
            #expect(!setting.isMuted, "\(level)")
            #expect(setting.codecDB + setting.fineDB == level, "\(setting)")
            #expect(setting.fineDB <= 0 && setting.fineDB > -0.5)
            let (analog, digital) = (setting.stageDB[0], setting.stageDB[1])
            #expect(analog == (level <= -6 ? -6 : 0))
            #expect((-103...24).contains(digital) && digital * 2 == (digital * 2).rounded())
            #expect(setting.codecDB >= previous, "the codec part never falls as the level rises")
            #expect(setting.codecDB - previous <= 0.5 || previous == -.infinity, "no jumps: \(previous) -> \(setting)")
            previous = setting.codecDB
            #expect(PCM512xVolumeSplit.digitalDB(code: PCM512xVolumeSplit.digitalCode(setting)) == digital)
        }
    }

    @Test func datasheetCodes() {
        func code(_ dB: Double) -> RegisterValue { PCM512xVolumeSplit.digitalCode(PCM512xVolumeSplit.split(dB)) }
        #expect(code(24) == 0x00 && code(23.5) == 0x01 && code(0) == 0x30 && code(-0.5) == 0x31)
        #expect(code(-5.5) == 0x3B, "above -6 dB the analog stage stays at 0 dB")
        #expect(code(-6) == 0x30, "at -6 dB the analog stage takes it all")
        #expect(code(-109) == 0xFE && code(-109.5) == 0xFF)
        #expect(PCM512xVolumeSplit.digitalDB(code: 0xFE) == -103 && PCM512xVolumeSplit.digitalDB(code: 0xFF) == nil)
        #expect(PCM512xVolumeSplit.analogGainValue(PCM512xVolumeSplit.split(-6)) == 0x11)
        #expect(PCM512xVolumeSplit.analogGainValue(PCM512xVolumeSplit.split(-5.5)) == 0x00)
        #expect(PCM512xVolumeSplit.digitalStage.stepCount == 255 && PCM512xVolumeSplit.minimumDB == -109)
        #expect(PCM512xVolumeSplit.split(30).levelDB == 24, "the digital stage's +24 dB is the ceiling")
    }

    @Test func setThenGetRoundTripsOnThePlayingChip() throws {
        let model = PCM512xModel(address: try I2CAddress(0x4d), clockSource: .masterClock(hertz: 12_288_000))
        let codec = PCM512x(bus: model.bus, clock: ManualClock(skipsSleeps: true),
                            clockSource: .masterClock(hertz: 12_288_000), maximumVolumeDB: 24)
        try codec.reset()
        try codec.configure(CodecStreamFormat(sampleRate: 48_000))
        try codec.powerUp()
        // Up the whole range, then down again: the stages cross -6 dB both ways.
        for level in Self.levels + Self.levels.reversed() {
            let setting = try codec.setVolume(level, output: .line)
            #expect(codec.volume(of: .line) == setting && codec.volume(of: .line).levelDB == level)
            let state = model.state
            if setting.isMuted {
                #expect(state.level(.line) == nil && state.digitalDB.left == nil && state.digitalDB.right == nil)
            } else {
                #expect(state.level(.line) == setting.codecDB, "the chip holds the codec part of \(level) dB")
                #expect(state.analogGainDB.left == setting.stageDB[0] && state.analogGainDB.right == setting.stageDB[0])
            }
        }
    }

    @Test func theBoardMaximumCaps() throws {
        let model = PCM512xModel(address: try I2CAddress(0x4d), clockSource: .bitClock64)
        let codec = PCM512x(bus: model.bus, clock: ManualClock(skipsSleeps: true), clockSource: .bitClock64,
                            maximumVolumeDB: -10)
        try codec.reset()
        try codec.configure(CodecStreamFormat(sampleRate: 48_000))
        try codec.powerUp()
        #expect(try codec.setVolume(6, output: .line).levelDB == -10)
        #expect(model.state(streamRate: 48_000).level(.line) == -10)
        #expect(try codec.setVolume(-10.25, output: .line).levelDB == -10.25)
        #expect(PCM512x(bus: model.bus, clock: ManualClock(), clockSource: .bitClock64, maximumVolumeDB: 40)
            .maximumVolumeDB == 24)
        #expect(PCM512x(bus: model.bus, clock: ManualClock(), clockSource: .bitClock64).maximumVolumeDB == 0,
                "0 dB unless the board allows digital gain")
        do {
            try codec.setVolume(.nan, output: .line)
            Issue.record("NaN accepted")
        } catch {
            guard case .invalidGain(let value) = error else { Issue.record("unexpected \(error)"); return }
            #expect(value.isNaN)
        }
        #expect(throws: CodecError.self) { try codec.setVolume(-10, output: .headphones) }
    }

    @Test func theFineGainIsThe824Remainder() {
        let setting = PCM512xVolumeSplit.split(-10.25)
        #expect(setting.stageDB == [-6, -4] && setting.fineDB == -0.25)
        // 10^(-0.25/20) = 0.9716279515771061 (Python); x 2^24 = 16301212.015, rounded to the nearest 2^-24.
        #expect(setting.fineGain.raw == 16_301_212)
    }
}
