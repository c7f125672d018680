import Foundation
import Testing
@testable import Codec8_24

/// The cookbook designs: known points of each response, and the magnitude formula against direct evaluation.
@Suite("Biquad design")
struct BiquadDesignTests {
    func dB(_ c: BiquadCoefficients, _ f: Double, _ rate: Double) -> Double {
        20 * log10(c.magnitude(atFrequency: f, sampleRate: rate))
    }

    /// |H(e^jw)| evaluated the direct way, with complex arithmetic.
    func direct(_ c: BiquadCoefficients, _ f: Double, _ rate: Double) -> Double {
        let w = 2 * Double.pi * f / rate
        let br = c.b0 + c.b1 * cos(w) + c.b2 * cos(2 * w), bi = -(c.b1 * sin(w) + c.b2 * sin(2 * w))
        let ar = 1 + c.a1 * cos(w) + c.a2 * cos(2 * w), ai = -(c.a1 * sin(w) + c.a2 * sin(2 * w))
        return ((br * br + bi * bi) / (ar * ar + ai * ai)).squareRoot()
    }

    @Test func knownPointsOfEachShape() {
        for rate in [8_000.0, 44_100, 48_000, 96_000] {
            let fc = min(1000.0, rate / 8)
            let lp = BiquadCoefficients(.lowPass, frequency: fc, q: 0.5.squareRoot(), sampleRate: rate)
            #expect(abs(dB(lp, 0, rate)) < 1e-9)
            #expect(abs(dB(lp, fc, rate) + 3.0103) < 1e-3)
            let hp = BiquadCoefficients(.highPass, frequency: fc, q: 0.5.squareRoot(), sampleRate: rate)
            #expect(abs(dB(hp, rate / 2, rate)) < 1e-9)
            #expect(abs(dB(hp, fc, rate) + 3.0103) < 1e-3)
            let bell = BiquadCoefficients(.peaking, frequency: fc, q: 2, gainDB: 9, sampleRate: rate)
            #expect(abs(dB(bell, fc, rate) - 9) < 1e-9)
            #expect(abs(dB(bell, 0, rate)) < 1e-9)
            let bp = BiquadCoefficients(.bandPass, frequency: fc, q: 3, sampleRate: rate)
            #expect(abs(dB(bp, fc, rate)) < 1e-9)
            #expect(dB(bp, fc / 8, rate) < -20)
            let notch = BiquadCoefficients(.notch, frequency: fc, q: 3, sampleRate: rate)
            #expect(dB(notch, fc, rate) < -120)
            #expect(abs(dB(notch, 0, rate)) < 1e-9)
            let low = BiquadCoefficients(.lowShelf, frequency: fc, q: 0.707, gainDB: 6, sampleRate: rate)
            #expect(abs(dB(low, 0, rate) - 6) < 1e-9)
            #expect(abs(dB(low, rate / 2, rate)) < 1e-9)
            #expect(abs(dB(low, fc, rate) - 3) < 1e-6)
            let high = BiquadCoefficients(.highShelf, frequency: fc, q: 0.707, gainDB: -6, sampleRate: rate)
            #expect(abs(dB(high, 0, rate)) < 1e-9)
            #expect(abs(dB(high, rate / 2, rate) + 6) < 1e-9)
            #expect(abs(dB(high, fc, rate) + 3) < 1e-6)
        }
    }

    @Test func magnitudeFormulaMatchesDirectEvaluation() {
        var random = SplitMix64(seed: 3)
        for type in BiquadType.allCases {
            for _ in 0..<50 {
                let rate = [8_000.0, 44_100, 96_000][random.next(in: 0...2)]
                let f0 = 20 * exp2(Double(random.next(in: 0...1000)) / 1000 * 10)
                let c = BiquadCoefficients(type, frequency: min(f0, 0.45 * rate), q: 0.3 + Double(random.next(in: 0...50)) / 10,
                                           gainDB: Double(random.next(in: -24...24)), sampleRate: rate)
                let f = Double(random.next(in: 1...999)) / 1000 * rate / 2
                let a = c.magnitude(atFrequency: f, sampleRate: rate), b = direct(c, f, rate)
                #expect(abs(a - b) <= 1e-9 * max(b, 1e-6), "\(type) at \(f): \(a) vs \(b)")
            }
        }
    }

    @Test func designsAreStableAtEverySupportedRate() {
        for rate in [8_000.0, 11_025, 16_000, 22_050, 32_000, 44_100, 48_000, 88_200, 96_000] {
            for type in BiquadType.allCases {
                for f in [20.0, 31, 1000, 0.45 * rate] {
                    for q in [0.1, 0.707, 20] {
                        let c = BiquadCoefficients(type, frequency: f, q: q, gainDB: 24, sampleRate: rate)
                        #expect(c.poleRadius < 1, "\(type) \(f) Hz Q \(q) @ \(rate)")
                        // Every coefficient fits the kernel's Q5.58 range.
                        for v in [c.b0, c.b1, c.b2, c.a1, c.a2] { #expect(abs(v) < 32) }
                    }
                }
            }
        }
    }

    @Test func quantizedCoefficientsRoundTripWithinTheirLSB() {
        let c = BiquadCoefficients(.lowShelf, frequency: 31, q: 0.707, gainDB: 24, sampleRate: 96_000)
        let q = BiquadFixedCoefficients(c).doubleValues
        let lsb = 1.0 / 288_230_376_151_711_744.0  // 2^-58
        for (a, b) in [(c.b0, q.b0), (c.b1, q.b1), (c.b2, q.b2), (c.a1, q.a1), (c.a2, q.a2)] {
            #expect(abs(a - b) <= lsb / 2 + abs(a) * 1e-16)
        }
    }
}
