import Foundation
import Testing
@testable import Codec8_24

/// A basic check of every ordered pair of standard rates (81, equal rates included): two in-band tones keep
/// their amplitude and predicted phase with images/aliases ≥ 90 dB down, and a full-scale-positive constant
/// (the 8.24 maximum, +128.0) comes out bit-exact, which proves every phase has exactly unity DC gain and the
/// accumulator never overflows.
@Suite("Sample-rate converter, every rate pair")
struct ResamplerAllPairsTests {
    static let allPairs: [ResamplerPassbandTests.Pair] = StandardSampleRate.allCases.flatMap { from in
        StandardSampleRate.allCases.map { ResamplerPassbandTests.Pair(from: from, to: $0) }
    }

    @Test(arguments: allPairs)
    func tonesAndExtremeConstantPass(pair: ResamplerPassbandTests.Pair) {
        let lower = Double(min(pair.from.hertz, pair.to.hertz))
        let tones = [0.1037 * lower, 0.4411 * lower]
        let converter = SampleRateConverter(from: pair.from, to: pair.to, channels: 3)
        let settle = ResampleFixtures.settlingFrames(converter)
        let measured = 128
        let inputFrames = converter.inputFramesRequired(forOutputFrames: settle + measured)
        let sines = ResampleFixtures.sines(tones, rate: pair.from.hertz, frames: inputFrames)
        var input: [Fixed824] = []
        for frame in 0..<inputFrames { input += [sines[2 * frame], sines[2 * frame + 1], .max] }
        let output = ResampleFixtures.convert(converter, input)
        #expect(output.count >= (settle + measured) * 3)

        var report = "pair \(pair.testDescription): L/M \(converter.ratio.interpolation)/\(converter.ratio.decimation), taps/phase \(converter.filterBank.tapsPerPhase), latency \(converter.latencyFrames), memory \(converter.memoryBytes) B"
        for (channel, tone) in tones.enumerated() {
            let y = ResampleFixtures.channel(output, channel, of: 3)
            let cycles = tone / Double(pair.to.hertz)
            let fit = ResampleFixtures.fitSine(y, cyclesPerSample: cycles, range: settle..<(settle + measured))
            let ripple = ResampleFixtures.dB(fit.amplitude / ResampleFixtures.amplitude)
            let residual = ResampleFixtures.dB(fit.residualRMS / (ResampleFixtures.amplitude / 2.0.squareRoot()))
            let phaseError = abs(remainder(fit.phase + 2 * Double.pi * cycles * Double(converter.latencyFrames),
                                           2 * Double.pi))
            #expect(abs(ripple) <= 0.1, "\(tone) Hz: \(ripple) dB")
            #expect(residual <= -90, "\(tone) Hz: residual \(residual) dB")
            #expect(phaseError <= 1e-3, "\(tone) Hz: phase error \(phaseError)")
            report += String(format: "; %.0f Hz: %+.5f dB, residual %.1f dB", tone, ripple, residual)
        }
        print(report)
        let constant = ResampleFixtures.channel(output, 2, of: 3)
        #expect(constant[settle..<(settle + measured)].allSatisfy { $0 == Fixed824.max.doubleValue })
    }

    @Test(arguments: allPairs)
    func designMeetsTheTableBudget(pair: ResamplerPassbandTests.Pair) {
        let bank = PolyphaseFilterBank(from: pair.from, to: pair.to)
        let ratio = bank.ratio
        #expect(ratio.interpolation * pair.from.hertz == ratio.decimation * pair.to.hertz)
        if pair.from == pair.to {
            #expect(bank.tapsPerPhase == 1 && bank.coefficient(phase: 0, age: 0) == 1 << 29)
            return
        }
        #expect(bank.tapsPerPhase % 4 == 0)
        // Kaiser's length estimate is ~128 taps per phase per unit of f_in/f_low; the table never exceeds
        // 128·max(L, M) coefficients by more than the rounding to a multiple of 4.
        #expect(bank.coefficientBytes <= 4 * 136 * max(ratio.interpolation, ratio.decimation))
        #expect(bank.largestRowMagnitudeSum < 1 << 32)
        for phase in [0, bank.phaseCount / 2, bank.phaseCount - 1] {
            var sum: Int64 = 0
            for age in 0..<bank.tapsPerPhase { sum += Int64(bank.coefficient(phase: phase, age: age)) }
            #expect(sum == PolyphaseFilterBank.unityCoefficient)
        }
    }
}
