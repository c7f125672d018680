import Testing
import Foundation
import Codec8_24
@testable import HAL

@Suite("SGTL5000 hardware EQ")
struct SGTL5000EqualizerTests {
    /// The presets whose bands fit the 7-band PEQ: they must run in hardware, within the tolerance.
    static let exactPresets = ["Flat", "Bass Booster", "Bass Reducer", "Latin", "Loudness", "Small Speakers",
                               "Spoken Word", "Treble Booster", "Treble Reducer"]

    /// The 1/6-octave points from 20 Hz, computed independently of the planner.
    static func points(sampleRate: Double) -> [Double] {
        (0...60).map { 20 * pow(2, Double($0) / 6) }.filter { $0 <= min(20_000, 0.45 * sampleRate) }
    }

    @Test(arguments: [44_100.0, 48_000.0])
    func everyPresetGetsAPathAndHardwarePathsKeepTheTolerance(sampleRate: Double) {
        for preset in EQPreset.all {
            let plan = SGTL5000Equalizer.plan(preset, sampleRate: sampleRate)
            switch plan.path {
            case .hardware(let text):
                #expect(plan.setting != nil && plan.maxDeviationDB <= SGTL5000Equalizer.toleranceDB, "\(preset.name)")
                #expect(text.hasPrefix("'\(preset.name)': "))
            case .software(let reason):
                #expect(plan.setting == nil && plan.maxDeviationDB > SGTL5000Equalizer.toleranceDB, "\(preset.name)")
                #expect(reason.contains("strays") && reason.hasSuffix("(tolerance 1.0 dB)"), "\(reason)")
            }
            if Self.exactPresets.contains(preset.name) {
                #expect(plan.path.isHardware, "\(preset.name): \(plan.path)")
            }
        }
    }

    @Test func theFlatPresetIsTheGraphicEQWithEveryBandAtZero() {
        let plan = SGTL5000Equalizer.plan(.flat, sampleRate: 48_000)
        #expect(plan.path == .hardware("'Flat': graphic EQ, all five bands at 0 dB"))
        #expect(plan.setting == .graphic(bandCodes: [0x2F, 0x2F, 0x2F, 0x2F, 0x2F], mainChannel: 0x8000))
        #expect(plan.maxDeviationDB == 0)
    }

    @Test func aPresetTheHardwareCannotFollowFallsBackWithTheReason() throws {
        // "Deep" lifts 31 Hz by 5 dB and cuts 16 kHz by 4.5 dB: no graphic band reaches there, and the
        // PEQ would have to drop three of its ten bands.
        let plan = SGTL5000Equalizer.plan(try #require(EQPreset.named("Deep")), sampleRate: 48_000)
        guard case .software(let reason) = plan.path else { Issue.record("\(plan.path)"); return }
        #expect(reason.hasPrefix("'Deep': 10 bands, the PEQ has 7; the 5-band graphic EQ strays "))
        #expect(reason.contains("the PEQ with the 7 strongest bands strays"))
        #expect(plan.maxDeviationDB > 1.5)
    }

    @Test func hardwarePresetsOnTheModelMeetTheToleranceFromTheRegistersAlone() throws {
        for name in Self.exactPresets {
            let preset = try #require(EQPreset.named(name))
            let model = SGTL5000Model(address: try I2CAddress(0x0a), mclk: 12_288_000)
            let codec = SGTL5000(bus: model.bus, clock: ManualClock(skipsSleeps: true), mclk: 12_288_000)
            try codec.reset()
            try codec.configure(CodecStreamFormat(sampleRate: 48_000))
            try codec.powerUp()
            let path = try codec.apply(preset: preset)
            #expect(path.isHardware && codec.activeEQPath == path)
            let state = model.state
            #expect(state.dacPowered, "the DAC plays through the DAP")
            // Rebuild the hardware's response from what the chip holds: main channel, then the EQ.
            let main = Decibels.decibels(Double(try model.bus.read(SGTL5000Register.dapMainChannel)) / 32_768)
            let stages: [BiquadCoefficients]
            switch state.eq {
            case .parametric(let count):
                stages = (0..<count).map { model.peqFilter($0).coefficients }
            case .graphic(let gains):
                #expect(gains == [0, 0, 0, 0, 0] && name == "Flat")
                stages = []
            default:
                Issue.record("\(name): EQ \(state.eq)")
                continue
            }
            let design = preset.design(sampleRate: 48_000)
            var worst = 0.0
            for f in Self.points(sampleRate: 48_000) {
                let hardware = main + Decibels.decibels(stages.magnitude(atFrequency: f, sampleRate: 48_000))
                worst = max(worst, abs(hardware - design.responseDB(at: f)))
            }
            #expect(worst <= SGTL5000Equalizer.toleranceDB, "\(name): \(worst) dB")
            #expect(worst < 0.5, "\(name): the PEQ runs the design's own biquads (\(worst) dB)")
        }
    }

    @Test func applyingRoutesThroughTheDAPAndBackMutedWhilePlaying() throws {
        let model = SGTL5000Model(address: try I2CAddress(0x0a), mclk: 12_288_000)
        let clock = ManualClock(skipsSleeps: true)
        let codec = SGTL5000(bus: model.bus, clock: clock, mclk: 12_288_000)
        try codec.reset()
        try codec.configure(CodecStreamFormat(sampleRate: 48_000))
        try codec.setVolume(-20, output: .headphones)
        try codec.powerUp()
        model.bus.clearTrace()

        #expect(try codec.apply(preset: .flat).isHardware)
        #expect(model.bus.trace == [
            .write(reg: 0x000E, value: 0x020C),  // ADCDAC_CTRL: DAC muted (ramped) around the re-routing
            .write(reg: 0x0002, value: 0x0031),  // DIG_POWER: DAP powered
            .write(reg: 0x0100, value: 0x0001),  // DAP_CONTROL: DAP_EN
            .write(reg: 0x000A, value: 0x0070),  // SSS_CTRL: DAP from I2S in, DAC from the DAP
            .write(reg: 0x0108, value: 0x0003),  // DAP_AUDIO_EQ: 5-band graphic EQ (bands already 0 dB, main 100 %)
            .write(reg: 0x000E, value: 0x0200),  // ADCDAC_CTRL: DAC unmuted
        ])
        #expect(model.state.eq == .graphic([0, 0, 0, 0, 0]) && model.state.headphoneLevel == -20)
        model.bus.clearTrace()

        let deep = try codec.apply(preset: try #require(EQPreset.named("Deep")))
        #expect(!deep.isHardware && codec.activeEQPath == deep)
        #expect(model.bus.trace == [
            .write(reg: 0x000E, value: 0x020C),  // DAC muted
            .write(reg: 0x000A, value: 0x0010),  // SSS_CTRL: DAC from I2S in again, DAP bypassed
            .write(reg: 0x0108, value: 0x0000),  // DAP_AUDIO_EQ off
            .write(reg: 0x0100, value: 0x0000),  // DAP_CONTROL off
            .write(reg: 0x0002, value: 0x0021),  // DIG_POWER: DAP unpowered
            .write(reg: 0x000E, value: 0x0200),  // DAC unmuted
        ])
        #expect(model.state.eq == .off && model.state.headphoneLevel == -20)
    }

    @Test func aPEQPresetLoadsItsCoefficientsThroughThePort() throws {
        let model = SGTL5000Model(address: try I2CAddress(0x0a), mclk: 12_288_000)
        let codec = SGTL5000(bus: model.bus, clock: ManualClock(skipsSleeps: true), mclk: 12_288_000)
        try codec.reset()
        try codec.configure(CodecStreamFormat(sampleRate: 48_000))
        model.bus.clearTrace()
        let preset = try #require(EQPreset.named("Bass Booster"))
        try codec.apply(preset: preset)
        guard case .parametric(let filters, let main)? = codec.eqPlan?.setting else {
            Issue.record("\(codec.activeEQPath)"); return
        }
        #expect(filters.count == 1 && model.peqFilter(0) == filters[0])
        let trace = model.bus.trace
        #expect(Array(trace.prefix(4)) == [
            .write(reg: 0x0002, value: 0x0010),  // DIG_POWER: DAP (the chip is not playing: no mute)
            .write(reg: 0x0100, value: 0x0001),  // DAP_EN
            .write(reg: 0x000A, value: 0x0070),  // I2S in -> DAP -> DAC
            .write(reg: 0x0108, value: 0x0001),  // DAP_AUDIO_EQ: PEQ
        ])
        let coefficientWrites = trace.dropFirst(4).prefix(10)
        #expect(coefficientWrites.map { event -> RegisterAddress in
            if case .write(let reg, _) = event { return reg } else { return 0 }
        } == [0x010E, 0x0110, 0x012C, 0x012E, 0x0130, 0x0132, 0x0134, 0x0136, 0x0138, 0x013A])
        #expect(Array(trace.dropFirst(14)) == [
            .write(reg: 0x010C, value: 0x0100),  // DAP_FILTER_COEF_ACCESS: WR | index 0 latches filter 0
            .write(reg: 0x0102, value: 0x0001),  // DAP_PEQ: one filter runs
            .write(reg: 0x0120, value: main),    // DAP_MAIN_CHAN: the design's pre-cut
        ])
        let precut = preset.design(sampleRate: 48_000).precutDB
        // +6 dB shelf: pre-cut -6.1 dB, 32768 x 10^(-6.1/20) = 16234.8.
        #expect(precut == -6.1 && main == 16_235)
        #expect(Int(main) == Int((32_768 * pow(10, precut / 20)).rounded()), "DAP_MAIN_CHAN is the pre-cut")
        #expect(model.bus.registerValue(SGTL5000Register.dapCoefficientAccess) == 0, "WR clears itself")
        // Power-up keeps the DAP powered for the hardware EQ.
        try codec.powerUp()
        #expect(model.state.dacPowered && model.state.eq == .parametric(filters: 1))
    }

    @Test func biquadQuantizationKeepsDCAndTheRegisterSplitRoundTrips() throws {
        #expect(SGTL5000Biquad(.identity)?.raw == [262_144, 0, 0, 0, 0])
        let highPass = try #require(SGTL5000Biquad(BiquadCoefficients(.highPass, frequency: 70, q: 0.707, sampleRate: 48_000)))
        #expect(highPass.raw[0] + highPass.raw[1] + highPass.raw[2] == 0, "the zero at DC survives quantization")
        #expect(SGTL5000Biquad(BiquadCoefficients(b0: 2.5, b1: 0, b2: 0, a1: 0, a2: 0)) == nil)
        // a1 = -1.5 (cookbook) is stored as +1.5 = 0x60000; a2 = 0.75 as -0.75 = 0xD0000 (20-bit two's complement).
        let filter = try #require(SGTL5000Biquad(BiquadCoefficients(b0: 1, b1: 0, b2: 0, a1: -1.5, a2: 0.75)))
        #expect(filter.raw == [262_144, 0, 0, 393_216, -196_608])
        #expect(filter.registerValues(3) == (0x6000, 0x0) && filter.registerValues(4) == (0xD000, 0x0))
        for value in [Int32(-524_288), -1, 0, 1, 262_143, 524_287, -196_609] {
            let raw = SGTL5000Biquad(raw: [value, 0, 0, 0, 0])
            let (msb, lsb) = raw.registerValues(0)
            #expect(SGTL5000Biquad.coefficient(msb: msb, lsb: lsb) == value)
        }
    }

    @Test func theGraphicFitRecoversBandsThatMatchItsModel() {
        let gains = [3.0, -2, 1.5, 4, -3.25]
        let bands = zip(SGTL5000Equalizer.graphicCentres, gains).map {
            EQBand(.peaking, frequency: $0, q: SGTL5000Equalizer.graphicQ, gainDB: $1)
        }
        let design = EQDesign(bands: bands, sampleRate: 48_000)
        let setting = SGTL5000Equalizer.graphicFit(design)
        #expect(setting == .graphic(bandCodes: gains.map { SGTL5000Equalizer.graphicCode($0) },
                                    mainChannel: SGTL5000Equalizer.mainChannelCode(design.precutDB)))
        #expect(SGTL5000Equalizer.deviation(of: setting, from: design).dB < 0.001)
        #expect(SGTL5000Equalizer.graphicCode(-11.75) == 0x00 && SGTL5000Equalizer.graphicCode(0) == 0x2F)
        #expect(SGTL5000Equalizer.graphicCode(12) == 0x5F && SGTL5000Equalizer.graphicCode(30) == 0x5F)
        #expect(SGTL5000Equalizer.checkFrequencies(sampleRate: 48_000).count == 60)
        #expect(SGTL5000Equalizer.checkFrequencies(sampleRate: 48_000) == Self.points(sampleRate: 48_000))
    }
}
