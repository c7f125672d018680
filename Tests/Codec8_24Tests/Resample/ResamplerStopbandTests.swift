import Foundation
import Testing
@testable import Codec8_24

/// Stopband rejection: everything from 0.5 × the lower rate up is at least 90 dB down, whether it would
/// alias (downsampling: the input tone itself must vanish) or image (upsampling: the copies of an in-band
/// tone around multiples of the input rate must vanish).
@Suite("Sample-rate converter stopband")
struct ResamplerStopbandTests {
    typealias Pair = ResamplerPassbandTests.Pair

    static let downsamplingPairs: [Pair] = [
        Pair(from: .hz48000, to: .hz44100), Pair(from: .hz48000, to: .hz8000),
        Pair(from: .hz96000, to: .hz44100), Pair(from: .hz22050, to: .hz16000),
        Pair(from: .hz44100, to: .hz32000), Pair(from: .hz96000, to: .hz11025),
    ]

    static let upsamplingPairs: [Pair] = [
        Pair(from: .hz44100, to: .hz48000), Pair(from: .hz8000, to: .hz48000),
        Pair(from: .hz11025, to: .hz96000), Pair(from: .hz16000, to: .hz22050),
    ]

    /// Tones from the stopband edge (0.5 × output rate) to 0.95 × the input Nyquist frequency; the output must
    /// hold no more than −90 dB of their energy in steady state.
    @Test(arguments: downsamplingPairs)
    func tonesAboveTheOutputNyquistAreRejected(pair: Pair) {
        let edge = 0.5 * Double(pair.to.hertz)
        let top = 0.95 * 0.5 * Double(pair.from.hertz)
        // The edge itself (a hair above), then evenly up to `top`.
        let frequencies = [edge * 1.0005] + (1...15).map { edge + (top - edge) * Double($0) / 15 }
        let measured = 400
        var worst = -300.0
        for batch in 0..<2 {
            let group = Array(frequencies[(batch * 8)..<(batch * 8 + 8)])
            let converter = SampleRateConverter(from: pair.from, to: pair.to, channels: 8)
            let settle = ResampleFixtures.settlingFrames(converter)
            let inputFrames = converter.inputFramesRequired(forOutputFrames: settle + measured)
            let input = ResampleFixtures.sines(group, rate: pair.from.hertz, frames: inputFrames)
            let output = ResampleFixtures.convert(converter, input)
            for (channel, frequency) in group.enumerated() {
                let y = ResampleFixtures.channel(output, channel, of: 8)
                let window = y[settle..<(settle + measured)]
                let rms = (window.reduce(0) { $0 + $1 * $1 } / Double(measured)).squareRoot()
                let rejection = ResampleFixtures.dB(rms / (ResampleFixtures.amplitude / 2.0.squareRoot()))
                #expect(rejection <= -90, "\(frequency) Hz leaks at \(rejection) dB")
                worst = max(worst, rejection)
            }
        }
        print("stopband \(pair.testDescription) (aliasing): worst leak \(worst) dB")
    }

    /// In-band tones near the passband edge (whose first images sit just above the stopband edge) and lower
    /// ones; after subtracting the fitted tone, the remainder (images plus quantization noise) is ≤ −90 dB.
    @Test(arguments: upsamplingPairs)
    func imagesOfInBandTonesAreRejected(pair: Pair) {
        let inputNyquist = 0.5 * Double(pair.from.hertz)
        let frequencies = [0.9, 0.899, 0.88, 0.85, 0.8, 0.6, 0.3, 0.05].map { $0 * inputNyquist }
        let measured = 600
        let converter = SampleRateConverter(from: pair.from, to: pair.to, channels: 8)
        let settle = ResampleFixtures.settlingFrames(converter)
        let inputFrames = converter.inputFramesRequired(forOutputFrames: settle + measured)
        let input = ResampleFixtures.sines(frequencies, rate: pair.from.hertz, frames: inputFrames)
        let output = ResampleFixtures.convert(converter, input)
        var worst = -300.0
        for (channel, frequency) in frequencies.enumerated() {
            let y = ResampleFixtures.channel(output, channel, of: 8)
            let fit = ResampleFixtures.fitSine(y, cyclesPerSample: frequency / Double(pair.to.hertz),
                                               range: settle..<(settle + measured))
            let images = ResampleFixtures.dB(fit.residualRMS / (ResampleFixtures.amplitude / 2.0.squareRoot()))
            #expect(images <= -90, "images of \(frequency) Hz at \(images) dB")
            #expect(abs(ResampleFixtures.dB(fit.amplitude / ResampleFixtures.amplitude)) <= 0.1)
            worst = max(worst, images)
        }
        print("stopband \(pair.testDescription) (imaging): worst image residual \(worst) dB")
    }
}
