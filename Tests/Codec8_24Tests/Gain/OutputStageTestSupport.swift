@testable import Codec8_24

/// Test support for the gain, mixer, meter and limiter suites: a seeded generator (SplitMix64, so every
/// run is the same) and random buffer splits for the streaming-equivalence tests.
struct OutputStageRandom {
    var state: UInt64

    init(seed: UInt64) { state = seed }

    mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }

    /// Uniform in `range` (small ranges; the modulo bias is irrelevant here).
    mutating func next(in range: ClosedRange<Int>) -> Int {
        range.lowerBound + Int(next() % UInt64(range.count))
    }

    /// Raw 8.24 value uniform in ±`amplitude`.
    mutating func sample(amplitude: Double) -> Fixed824 {
        let unit = Double(next() >> 11) / Double(1 << 53)          // [0, 1)
        return Fixed824((unit * 2 - 1) * amplitude)
    }

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
