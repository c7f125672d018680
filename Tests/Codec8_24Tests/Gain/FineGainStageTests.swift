import Testing
import Codec8_24

@Suite("Fine gain stage")
struct FineGainStageTests {
    /// -0.25 dB, the remainder a WM8960 leaves for -10.25 dB (its output amplifier steps 1 dB and its DAC
    /// 0.5 dB: WM8960 datasheet, R2/R3 LOUT1VOL and R10/R11 LDACVOL): 10^(-0.25/20) · 2^24 =
    /// 16301212.015, so 8.24 raw 16301212.
    static let quarterDB = Fixed824(raw: 16_301_212)

    @Test func aSettledFineGainScalesEverySampleByExactlyThatGain() {
        var stage = FineGainStage()
        stage.take(fineGain: Self.quarterDB)
        // Stereo frames; each product s · 16301212 / 2^24 rounded to nearest, worked by hand:
        //   1.0 (2^24) -> 16301212 exactly; 0.5 -> 8150606; -1.0 -> -16301212;
        //   1 -> 0.9716 -> 1; 3 -> 2.9149 -> 3; 1000 -> 971.63 -> 972; 123456789 -> 119954066.89 -> 119954067;
        //   -7 -> -6.80 -> -7.
        let input: [Int32] = [16_777_216, 8_388_608, -16_777_216, 1, 3, 1000, 123_456_789, -7]
        var samples = input.map(Fixed824.init(raw:))
        samples.withUnsafeMutableBufferPointer { stage.process($0, channels: 2) }
        #expect(samples.map(\.raw) == [16_301_212, 8_150_606, -16_301_212, 1, 3, 972, 119_954_067, -7])
        #expect(stage.fineGain == Self.quarterDB)
    }

    @Test func aChangeRampsAndThenHoldsTheNewGainExactly() {
        var stage = FineGainStage(rampFrames: 4)
        stage.take(fineGain: Self.quarterDB)
        var samples = [Fixed824](repeating: .one, count: 6)
        samples.withUnsafeMutableBufferPointer { stage.process($0, channels: 1) }
        // GainRamp's linear shape from 1.0 over 4 frames: a quarter of the 476 004 LSB drop (119 001) a frame.
        #expect(samples.map(\.raw) == [16_658_215, 16_539_214, 16_420_213, 16_301_212, 16_301_212, 16_301_212])
    }

    @Test func muteAndTooLargeAGain() {
        var stage = FineGainStage()
        stage.take(fineGain: .zero)
        var samples = [Fixed824](repeating: .one, count: 2)
        samples.withUnsafeMutableBufferPointer { stage.process($0, channels: 2) }
        #expect(samples == [.zero, .zero])
        // The remainder is never a boost: a gain above unity is held at 1.0, so the stage cannot clip.
        stage.take(fineGain: Fixed824(raw: Fixed824.unityRaw + 1000))
        samples = [.one, Fixed824(raw: -5)]
        samples.withUnsafeMutableBufferPointer { stage.process($0, channels: 2) }
        #expect(samples == [.one, Fixed824(raw: -5)] && stage.fineGain == .one)
    }
}
