import Foundation
@testable import Codec8_24

/// Deterministic generator for test signals (never the system RNG).
struct SplitMix64 {
    var state: UInt64
    init(seed: UInt64) { state = seed }
    mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }
    /// Uniform in [-1, 1).
    mutating func nextSigned() -> Double { Double(Int64(bitPattern: next()) >> 11) / Double(1 << 52) }
    mutating func next(in range: ClosedRange<Int>) -> Int {
        range.lowerBound + Int(next() % UInt64(range.count))
    }
}

/// The Direct Form I cascade in `Double`, the reference the 8.24 kernel is held to.
func referenceCascade(_ stages: [BiquadCoefficients], _ input: [Double]) -> [Double] {
    var signal = input
    for c in stages {
        var x1 = 0.0, x2 = 0.0, y1 = 0.0, y2 = 0.0
        for i in signal.indices {
            let x0 = signal[i]
            let y0 = c.b0 * x0 + c.b1 * x1 + c.b2 * x2 - c.a1 * y1 - c.a2 * y2
            signal[i] = y0
            x2 = x1; x1 = x0; y2 = y1; y1 = y0
        }
    }
    return signal
}

/// Runs `input` (interleaved) through a fresh 8.24 cascade in one call.
func runFixed(_ stages: [BiquadCoefficients], _ input: [Fixed824], channels: Int = 1) -> [Fixed824] {
    let cascade = BiquadCascade(stages: stages, channels: channels)
    var samples = input
    samples.withUnsafeMutableBufferPointer { cascade.process($0) }
    return samples
}

/// Runs `input` (interleaved) through `cascade` in one call.
func run(_ cascade: BiquadCascade, _ input: [Fixed824]) -> [Fixed824] {
    var samples = input
    samples.withUnsafeMutableBufferPointer { cascade.process($0) }
    return samples
}

/// Noise (uniform, `amplitude` peak) quantized to 8.24.
func noise(count: Int, amplitude: Double, seed: UInt64) -> [Fixed824] {
    var random = SplitMix64(seed: seed)
    return (0..<count).map { _ in Fixed824(amplitude * random.nextSigned()) }
}

/// A sine quantized to 8.24.
func sine(count: Int, frequency: Double, sampleRate: Double, amplitude: Double, phase: Double = 0) -> [Fixed824] {
    (0..<count).map { Fixed824(amplitude * sin(2 * Double.pi * frequency * Double($0) / sampleRate + phase)) }
}

/// Worst per-sample error in LSBs of 8.24 and the SNR in dB of `fixed` against `reference`.
func compare(_ fixed: [Fixed824], _ reference: [Double]) -> (worstLSB: Double, snrDB: Double) {
    var worst = 0.0, signal = 0.0, noise = 0.0
    for (f, r) in zip(fixed, reference) {
        let e = f.doubleValue - r
        worst = max(worst, abs(e) * 16_777_216)
        signal += r * r
        noise += e * e
    }
    return (worst, noise == 0 ? .infinity : 10 * log10(signal / noise))
}

/// Root-mean-square level.
func rms(_ x: [Double]) -> Double { (x.reduce(0) { $0 + $1 * $1 } / Double(max(x.count, 1))).squareRoot() }
