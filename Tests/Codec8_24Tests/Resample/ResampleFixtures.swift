import Foundation
@testable import Codec8_24

/// Signals, a seeded generator and measurement helpers for the resampler tests.
enum ResampleFixtures {
    typealias SplitMix64 = NoiseGenerator

    /// -6 dBFS.
    static let amplitude = 0.5

    /// Interleaved sines, one frequency (Hz) per channel, sampled at `rate` Hz, quantized to 8.24.
    static func sines(_ frequencies: [Double], rate: Int, frames: Int, amplitude: Double = amplitude) -> [Fixed824] {
        let channels = frequencies.count
        var out = [Fixed824](repeating: .zero, count: frames * channels)
        for (channel, frequency) in frequencies.enumerated() {
            let step = 2 * Double.pi * frequency / Double(rate)
            for n in 0..<frames {
                out[n * channels + channel] = Fixed824(amplitude * sin(step * Double(n)))
            }
        }
        return out
    }

    /// Uniform noise in ±amplitude, interleaved.
    static func noise(frames: Int, channels: Int, seed: UInt64, amplitude: Double = 0.9) -> [Fixed824] {
        var generator = SplitMix64(seed: seed)
        return (0..<(frames * channels)).map { _ in Fixed824((generator.unit() * 2 - 1) * amplitude) }
    }

    /// Runs all of `input` through `converter` in one `process` call (output sized with the state-free bound).
    static func convert(_ converter: SampleRateConverter, _ input: [Fixed824]) -> [Fixed824] {
        let channels = converter.channels
        let frames = input.count / channels
        var output = [Fixed824](repeating: .zero, count: converter.maximumOutputFrames(forInputFrames: frames) * channels)
        let (consumed, produced) = input.withUnsafeBufferPointer { source in
            output.withUnsafeMutableBufferPointer { converter.process(input: source, output: $0) }
        }
        precondition(consumed == frames, "one call with a bound-sized output must consume everything")
        return Array(output[0..<(produced * channels)])
    }

    /// Runs `input` through `converter` in input chunks of random size (1...maxChunk frames) and output buffers
    /// of random capacity (1...maxOutput frames), re-offering unconsumed input, until everything is consumed.
    static func convertInPieces(
        _ converter: SampleRateConverter, _ input: [Fixed824], seed: UInt64, maxChunk: Int, maxOutput: Int
    ) -> [Fixed824] {
        let channels = converter.channels
        let frames = input.count / channels
        var generator = SplitMix64(seed: seed)
        var result: [Fixed824] = []
        var position = 0
        var chunkEnd = 0
        var scratch = [Fixed824](repeating: .zero, count: maxOutput * channels)
        while position < frames {
            if chunkEnd <= position { chunkEnd = min(frames, position + generator.next(in: 1...maxChunk)) }
            let capacity = generator.next(in: 1...maxOutput)
            let (consumed, produced) = input.withUnsafeBufferPointer { all in
                let chunk = UnsafeBufferPointer(rebasing: all[(position * channels)..<(chunkEnd * channels)])
                return scratch.withUnsafeMutableBufferPointer { out in
                    converter.process(input: chunk, output: UnsafeMutableBufferPointer(rebasing: out[0..<(capacity * channels)]))
                }
            }
            position += consumed
            result += scratch[0..<(produced * channels)]
        }
        return result
    }

    /// Drains the converter's whole tail in one call.
    static func drain(_ converter: SampleRateConverter) -> [Fixed824] {
        let channels = converter.channels
        var output = [Fixed824](repeating: .zero, count: converter.pendingTailFrames * channels)
        let produced = output.withUnsafeMutableBufferPointer { converter.drain(output: $0) }
        return Array(output[0..<(produced * channels)])
    }

    /// One channel of an interleaved buffer as `Double`s.
    static func channel(_ samples: [Fixed824], _ channel: Int, of channels: Int) -> [Double] {
        stride(from: channel, to: samples.count, by: channels).map { samples[$0].doubleValue }
    }

    /// A least-squares fit of `a·sin(ωn) + b·cos(ωn)` to `samples[range]` (n is the absolute index).
    struct SineFit {
        var amplitude: Double
        /// Phase of the fitted sine, so the fit is `amplitude·sin(ωn + phase)`.
        var phase: Double
        /// RMS of what is left after subtracting the fit: aliases, images, noise.
        var residualRMS: Double
        /// RMS of the samples themselves.
        var totalRMS: Double
    }

    static func fitSine(_ samples: [Double], cyclesPerSample: Double, range: Range<Int>) -> SineFit {
        let omega = 2 * Double.pi * cyclesPerSample
        var ss = 0.0, sc = 0.0, cc = 0.0, ys = 0.0, yc = 0.0, yy = 0.0
        for n in range {
            let s = sin(omega * Double(n)), c = cos(omega * Double(n)), y = samples[n]
            ss += s * s; sc += s * c; cc += c * c; ys += y * s; yc += y * c; yy += y * y
        }
        let determinant = ss * cc - sc * sc
        let a = (ys * cc - yc * sc) / determinant
        let b = (yc * ss - ys * sc) / determinant
        var residual = 0.0
        for n in range {
            let e = samples[n] - a * sin(omega * Double(n)) - b * cos(omega * Double(n))
            residual += e * e
        }
        let count = Double(range.count)
        return SineFit(amplitude: (a * a + b * b).squareRoot(), phase: atan2(b, a),
                       residualRMS: (residual / count).squareRoot(), totalRMS: (yy / count).squareRoot())
    }

    /// `20·log10(x)`, floored at −200 dB.
    static func dB(_ x: Double) -> Double { x <= 1e-10 ? -200 : 20 * log10(x) }

    /// Output frames after which every output uses a history entirely filled from the input (the converter's
    /// filter spans `tapsPerPhase` input frames, i.e. that times L/M output frames).
    static func settlingFrames(_ converter: SampleRateConverter) -> Int {
        let ratio = converter.ratio
        return (converter.filterBank.tapsPerPhase * ratio.interpolation + ratio.decimation - 1) / ratio.decimation + 2
    }
}
