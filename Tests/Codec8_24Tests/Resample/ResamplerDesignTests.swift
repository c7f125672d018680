import Foundation
import Testing
@testable import Codec8_24

/// The quantized prototype itself, checked in the frequency domain between the test tones: its response is
/// evaluated densely over the whole passband and over the first 60 sidelobes of the stopband (where a Kaiser
/// design's rejection is weakest), from the actual Q2.29 integer coefficients.
@Suite("Sample-rate converter filter design")
struct ResamplerDesignTests {
    typealias Pair = ResamplerPassbandTests.Pair

    /// |H(f)| / H(0) of the prototype, f in cycles per upsampled-rate sample.
    static func response(_ bank: PolyphaseFilterBank, at frequency: Double) -> Double {
        let phases = bank.phaseCount
        var re = 0.0, im = 0.0
        // Phasor e^{-j2πfk} advanced by multiplication, renormalized every tap row to stop drift.
        let stepRe = cos(-2 * Double.pi * frequency), stepIm = sin(-2 * Double.pi * frequency)
        for age in 0..<bank.tapsPerPhase {
            let start = Double(age * phases)
            var pRe = cos(-2 * Double.pi * frequency * start), pIm = sin(-2 * Double.pi * frequency * start)
            for phase in 0..<phases {
                let c = Double(bank.coefficient(phase: phase, age: age))
                re += c * pRe
                im += c * pIm
                (pRe, pIm) = (pRe * stepRe - pIm * stepIm, pRe * stepIm + pIm * stepRe)
            }
        }
        return (re * re + im * im).squareRoot() / (Double(phases) * Double(PolyphaseFilterBank.unityCoefficient))
    }

    @Test(arguments: [Pair(from: .hz48000, to: .hz44100), Pair(from: .hz44100, to: .hz48000),
                      Pair(from: .hz8000, to: .hz48000), Pair(from: .hz48000, to: .hz8000),
                      Pair(from: .hz22050, to: .hz16000)])
    func prototypeMeetsPassbandAndStopband(pair: Pair) {
        let bank = PolyphaseFilterBank(from: pair.from, to: pair.to)
        let upsampled = Double(bank.phaseCount * pair.from.hertz)
        let lower = Double(min(pair.from.hertz, pair.to.hertz))
        let passband = PolyphaseFilterBank.passbandEdge * lower / upsampled
        let stopband = PolyphaseFilterBank.stopbandEdge * lower / upsampled
        var ripple = 0.0
        for i in 0...60 {
            let gain = ResampleFixtures.dB(Self.response(bank, at: passband * Double(i) / 60))
            ripple = max(ripple, abs(gain))
        }
        let lobe = 1 / Double(bank.prototypeLength)
        var leak = -300.0
        for i in 0...240 {
            leak = max(leak, ResampleFixtures.dB(Self.response(bank, at: stopband + lobe * Double(i) / 4)))
        }
        print("design \(pair.testDescription): taps/phase \(bank.tapsPerPhase), beta \(bank.beta), passband ripple \(ripple) dB, stopband near edge \(leak) dB")
        #expect(ripple <= 0.1)
        #expect(leak <= -90)
    }
}
