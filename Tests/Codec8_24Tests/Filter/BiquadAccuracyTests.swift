import Foundation
import Testing
@testable import Codec8_24

/// Every biquad shape, including low-frequency ones at 48 and 96 kHz, against the `Double` reference.
@Suite("Biquad accuracy against Double")
struct BiquadAccuracyTests {
    struct Case: CustomStringConvertible, Sendable {
        let type: BiquadType
        let frequency: Double
        let q: Double
        let gainDB: Double
        let sampleRate: Double
        var description: String { "\(type) \(frequency) Hz Q \(q) \(gainDB) dB @ \(sampleRate)" }
    }

    static let cases: [Case] = {
        var cases: [Case] = []
        for rate in [48_000.0, 96_000.0] {
            for type in BiquadType.allCases {
                for frequency in [31.0, 1000, 16000] {
                    let gains = type.usesGain ? [12.0, -12] : [0.0]
                    for gain in gains {
                        cases.append(Case(type: type, frequency: frequency, q: type == .lowShelf || type == .highShelf ? 0.707 : 1.41,
                                          gainDB: gain, sampleRate: rate))
                    }
                }
            }
        }
        return cases
    }()

    @Test(arguments: cases)
    func singleStageWithinOneLSB(_ c: Case) {
        let stage = BiquadCoefficients(c.type, frequency: c.frequency, q: c.q, gainDB: c.gainDB, sampleRate: c.sampleRate)
        let count = 12_000
        // Noise, a sine at the band, and a 40 Hz sine (the low-frequency stress case).
        let signals: [[Fixed824]] = [
            noise(count: count, amplitude: 0.2, seed: 7),
            sine(count: count, frequency: c.frequency, sampleRate: c.sampleRate, amplitude: 0.2),
            sine(count: count, frequency: 40, sampleRate: c.sampleRate, amplitude: 0.2, phase: 0.3),
        ]
        for input in signals {
            let fixed = runFixed([stage], input)
            let reference = referenceCascade([stage], input.map(\.doubleValue))
            let (worst, snr) = compare(fixed, reference)
            // One rounding at the output: at most half an LSB, plus the internal rounding (far below).
            #expect(worst <= 1.0, "\(c): worst error \(worst) LSB")
            // Where the filter passes the signal, the error is also at least 120 dB down (where it rejects it,
            // the output itself is near the LSB and only the per-sample bound means anything).
            if rms(reference) >= 0.05 {
                #expect(snr >= 120, "\(c): SNR \(snr) dB")
            }
        }
    }

    @Test func formsAreChosenByShape() {
        let rate = 48_000.0
        #expect(BiquadFixedCoefficients(BiquadCoefficients(.peaking, frequency: 100, q: 1, gainDB: 6, sampleRate: rate)).isBell)
        #expect(BiquadFixedCoefficients(BiquadCoefficients(.notch, frequency: 100, q: 1, sampleRate: rate)).isBell)
        #expect(!BiquadFixedCoefficients(BiquadCoefficients(.lowShelf, frequency: 100, q: 1, gainDB: 6, sampleRate: rate)).isBell)
        #expect(!BiquadFixedCoefficients(BiquadCoefficients(.bandPass, frequency: 100, q: 1, sampleRate: rate)).isBell)
        #expect(!BiquadFixedCoefficients(BiquadCoefficients(.peaking, frequency: 100, q: 1, gainDB: 6, sampleRate: rate).scaled(by: 0.5)).isBell)
    }

    @Test func tenBandCascadesWithinOneLSB() {
        for rate in [44_100.0, 48_000, 96_000] {
            for gains in [[6.0, -6, 6, -6, 6, -6, 6, -6, 6, -6], [12.0, 12, 0, 0, -12, 0, 0, 0, 12, 12]] {
                let stages = GraphicEQ.bands(gains: gains, sampleRate: rate).map { $0.coefficients(sampleRate: rate) }
                let count = 20_000
                let input = noise(count: count, amplitude: 0.1, seed: 11).enumerated().map { i, n in
                    Fixed824(n.doubleValue + 0.1 * sin(2 * Double.pi * 31 * Double(i) / rate))
                }
                let fixed = runFixed(stages, input)
                let reference = referenceCascade(stages, input.map(\.doubleValue))
                let (worst, snr) = compare(fixed, reference)
                #expect(worst <= 1.0, "rate \(rate): worst \(worst) LSB")
                #expect(snr >= 120, "rate \(rate): SNR \(snr) dB")
            }
        }
    }

    @Test func everyPresetCascadeWithinOneLSB() {
        for rate in [44_100.0, 48_000, 96_000] {
            for preset in EQPreset.all {
                // The equalizer's cascade (pre-cut as input gain) against the plain biquads with the pre-cut
                // folded in.
                let design = preset.design(sampleRate: rate)
                let input = noise(count: 8_000, amplitude: 0.5, seed: 5)
                let fixed = run(design.makeCascade(channels: 1), input)
                let reference = referenceCascade(design.cascadeStages, input.map(\.doubleValue))
                let (worst, snr) = compare(fixed, reference)
                #expect(worst <= 1.0, "\(preset.name) @ \(rate): worst \(worst) LSB")
                #expect(snr >= 120, "\(preset.name) @ \(rate): SNR \(snr) dB")
            }
        }
    }
}
