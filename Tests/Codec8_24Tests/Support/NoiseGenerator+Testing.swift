@testable import Codec8_24

/// The firmware's own seeded generator (SplitMix64), with the few draws tests need, so every suite's "random"
/// data and buffer splits are the same on every run and every architecture.
extension NoiseGenerator {
    /// Uniform in `range` (small ranges; the modulo bias is irrelevant here).
    mutating func next(in range: ClosedRange<Int>) -> Int {
        range.lowerBound + Int(next() % UInt64(range.count))
    }

    /// Uniform in [0, 1).
    mutating func unit() -> Double { Double(next() >> 11) / Double(1 << 53) }

    /// An 8.24 value uniform in ±`amplitude`.
    mutating func sample(amplitude: Double) -> Fixed824 { Fixed824((unit() * 2 - 1) * amplitude) }

    /// Cuts `total` into random sizes in 1...`maximum`.
    mutating func split(_ total: Int, maximum: Int) -> [Int] {
        var sizes: [Int] = []
        var left = total
        while left > 0 {
            let size = Swift.min(left, next(in: 1...maximum))
            sizes.append(size)
            left -= size
        }
        return sizes
    }
}
