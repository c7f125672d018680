import Foundation
import Testing
@testable import Codec8_24

/// Passband flatness and timing: sines up to 0.45 × the lower rate come out at the input amplitude
/// (±0.1 dB), at the phase the reported latency predicts, and with any images or aliases 90 dB down.
@Suite("Sample-rate converter passband")
struct ResamplerPassbandTests {
    struct Pair: CustomTestStringConvertible, Sendable {
        var from: StandardSampleRate
        var to: StandardSampleRate
        var testDescription: String { "\(from.hertz)->\(to.hertz)" }
    }

    static let representativePairs: [Pair] = [
        Pair(from: .hz44100, to: .hz48000), Pair(from: .hz48000, to: .hz44100),
        Pair(from: .hz8000, to: .hz48000), Pair(from: .hz48000, to: .hz8000),
        Pair(from: .hz96000, to: .hz44100), Pair(from: .hz11025, to: .hz96000),
        Pair(from: .hz22050, to: .hz16000),
    ]

    @Test(arguments: representativePairs)
    func sinesAcrossThePassbandKeepAmplitudePhaseAndPurity(pair: Pair) {
        let lower = Double(min(pair.from.hertz, pair.to.hertz))
        // 24 frequencies up to 0.45 × the lower rate, 8 at a time (one per channel).
        let frequencies = (1...24).map { 0.45 * lower * Double($0) / 24 }
        let measured = 600
        var worstRipple = 0.0, worstPurity = -300.0, worstPhase = 0.0
        for batch in 0..<3 {
            let group = Array(frequencies[(batch * 8)..<(batch * 8 + 8)])
            let converter = SampleRateConverter(from: pair.from, to: pair.to, channels: 8)
            let settle = ResampleFixtures.settlingFrames(converter)
            let total = settle + measured
            let inputFrames = converter.inputFramesRequired(forOutputFrames: total)
            let expectedFrames = converter.outputFrames(forInputFrames: inputFrames)
            let input = ResampleFixtures.sines(group, rate: pair.from.hertz, frames: inputFrames)
            let output = ResampleFixtures.convert(converter, input)
            #expect(output.count == expectedFrames * 8 && expectedFrames >= total)
            let latency = converter.latencyFrames
            for (channel, frequency) in group.enumerated() {
                let y = ResampleFixtures.channel(output, channel, of: 8)
                let cycles = frequency / Double(pair.to.hertz)
                let fit = ResampleFixtures.fitSine(y, cyclesPerSample: cycles, range: settle..<total)
                let ripple = ResampleFixtures.dB(fit.amplitude / ResampleFixtures.amplitude)
                let purity = ResampleFixtures.dB(fit.residualRMS / (ResampleFixtures.amplitude / 2.0.squareRoot()))
                // Output frame m is the input at time (m − latency)·M/L: phase −2π·(f/f_out)·latency.
                let expected = -2 * Double.pi * cycles * Double(latency)
                let phaseError = abs(remainder(fit.phase - expected, 2 * Double.pi))
                #expect(abs(ripple) <= 0.1, "ripple \(ripple) dB at \(frequency) Hz")
                #expect(purity <= -90, "images/aliases \(purity) dB at \(frequency) Hz")
                #expect(phaseError <= 1e-3, "phase error \(phaseError) rad at \(frequency) Hz")
                worstRipple = max(worstRipple, abs(ripple))
                worstPurity = max(worstPurity, purity)
                worstPhase = max(worstPhase, phaseError)
            }
        }
        print("passband \(pair.testDescription): taps/phase \(PolyphaseFilterBank(from: pair.from, to: pair.to).tapsPerPhase), max |ripple| \(worstRipple) dB, worst residual \(worstPurity) dB, worst phase error \(worstPhase) rad")
    }
}
