import Codec8_24

/// One shuffle round: the indices `0..<count` in a random order from the firmware's seeded generator
/// (`NoiseGenerator`, SplitMix64), `first` (when given) in front, every track exactly once. Seeded, so the
/// player state stays a value that tests can replay.
enum ShuffleOrder {
    static func round(count: Int, first: Int?, using random: inout NoiseGenerator) -> [Int] {
        var rest = (0..<count).filter { $0 != first }
        rest.shuffle(using: &random)
        return (first.map { [$0] } ?? []) + rest
    }
}
