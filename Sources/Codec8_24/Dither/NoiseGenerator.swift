/// A small, fast, seeded pseudo-random generator (SplitMix64). Dither must be deterministic so a render is
/// bit-identical across runs and architectures; the system generator is neither seeded nor reproducible.
@frozen
public struct NoiseGenerator: RandomNumberGenerator, Sendable {
    @usableFromInline var state: UInt64

    @inlinable
    public init(seed: UInt64) { state = seed }

    @inlinable @inline(__always)
    public mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z &>> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z &>> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z &>> 31)
    }
}
