@testable import Codec8_24

/// Deterministic test signals and helpers shared by the Codec8_24 tests.
enum TestSignals {
    /// Uniform noise in `-amplitude ..< amplitude` (8.24), from a fixed seed.
    static func noise(count: Int, amplitude: Double = 1.0, seed: UInt64 = 1) -> [Fixed824] {
        var g = NoiseGenerator(seed: seed)
        return (0..<count).map { _ in g.sample(amplitude: amplitude) }
    }

    /// Random chunk sizes (each 1...maxChunk, the last one clipped) that add up to `total`.
    static func chunkSizes(total: Int, maxChunk: Int, seed: UInt64 = 7) -> [Int] {
        var g = NoiseGenerator(seed: seed)
        return g.split(total, maximum: maxChunk)
    }
}
