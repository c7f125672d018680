import Testing
@testable import Codec8_24

/// The kernel's arithmetic is exact: every output sample equals Σ c·x over the bank's signed Q2.29
/// coefficients (read through `coefficient(phase:age:)`) and the input, computed here directly in `Int64` from
/// the polyphase definition (output m at upsampled time m·M + φ, φ = delay mod M; tap `age` multiplies the input
/// `age` frames before the newest), then rounded half up and saturated as 8.24 does. Inputs are seeded noise
/// over the whole 8.24 range, Int32.min and Int32.max included, so the unsigned kernel's offset correction and
/// its wrapping are exercised at their extremes. Exactness is what makes x86_64 and aarch64 output identical.
@Suite("Sample-rate converter arithmetic")
struct ResamplerArithmeticTests {
    typealias Pair = ResamplerPassbandTests.Pair

    static let pairs: [Pair] = [
        Pair(from: .hz44100, to: .hz48000), Pair(from: .hz48000, to: .hz44100),
        Pair(from: .hz96000, to: .hz48000), Pair(from: .hz8000, to: .hz11025),
    ]

    @Test(arguments: pairs)
    func everyOutputIsTheExactSignedDotProduct(pair: Pair) {
        let seed: UInt64 = 0x5EED_0017
        var generator = ResampleFixtures.SplitMix64(seed: seed)
        let channels = 2
        let converter = SampleRateConverter(from: pair.from, to: pair.to, channels: channels)
        let bank = converter.filterBank
        let frames = 3 * bank.tapsPerPhase + 500
        var raw = [Int32](repeating: 0, count: frames * channels)
        for i in raw.indices {
            switch generator.next(in: 0...9) {
            case 0: raw[i] = .max
            case 1: raw[i] = .min
            default: raw[i] = Int32(truncatingIfNeeded: generator.next(in: 0...Int(UInt32.max)) - (1 << 31))
            }
        }
        let output = ResampleFixtures.convert(converter, raw.map { Fixed824(raw: $0) })
        let (l, m) = (bank.phaseCount, bank.ratio.decimation)
        let phi = bank.prototypeDelay % m
        var mismatches = 0
        for frame in 0..<(output.count / channels) {
            let time = frame * m + phi
            let newest = time / l, phase = time % l
            for channel in 0..<channels {
                var sum: Int64 = 0
                for age in 0..<bank.tapsPerPhase where newest - age >= 0 {
                    sum += Int64(bank.coefficient(phase: phase, age: age)) * Int64(raw[(newest - age) * channels + channel])
                }
                let expected = Fixed824.saturating(Fixed824.roundingShift(sum, by: PolyphaseFilterBank.coefficientFractionBits))
                if output[frame * channels + channel] != expected { mismatches += 1 }
            }
        }
        #expect(output.count / channels > 400)
        #expect(mismatches == 0, "\(mismatches) outputs differ from the exact sum (seed \(seed))")
    }
}
