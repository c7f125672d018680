/// A small seeded random number generator (SplitMix64, Steele, Lea and Flood 2014), so a shuffled order is
/// a pure function of the seed: the player state stays a value that tests can replay.
struct SeededShuffle: RandomNumberGenerator, Hashable, Sendable {
    private var state: UInt64

    init(seed: UInt64) { state = seed }

    mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE5_E9B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }

    /// The indices `0..<count` in a random order, `first` (when given) in front: one shuffle round, every
    /// track exactly once.
    mutating func order(count: Int, first: Int?) -> [Int] {
        var rest = (0..<count).filter { $0 != first }
        rest.shuffle(using: &self)
        return (first.map { [$0] } ?? []) + rest
    }
}
