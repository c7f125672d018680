import Testing
@testable import Codec8_24

/// The bell kernel's products from the high word alone (`BiquadKernel.high(doubled:_:)`) against the rounding
/// the kernel has always used (`high`, whose output the accuracy tests hold to 1 LSB of a `Double` reference, and
/// whose renders `FileRendererHashTests` recorded): the two must agree bit for bit, or every render would change.
@Suite("Biquad kernel products")
struct BiquadKernelProductTests {
    /// The exact product rounded half up to its high word, computed another way: the unsigned product of the
    /// magnitudes, negated in 128 bits when the signs differ, plus one half of the low word's weight.
    static func roundedHighWord(_ a: Int64, _ b: Int64) -> Int64 {
        let (h, l) = a.magnitude.multipliedFullWidth(by: b.magnitude)
        var high = h, low = l
        if (a < 0) != (b < 0) {
            low = ~l &+ 1
            high = ~h &+ (l == 0 ? 1 : 0)
        }
        let carry = low.addingReportingOverflow(1 << 63).overflow
        return Int64(bitPattern: high &+ (carry ? 1 : 0))
    }

    @Test func doubledCoefficientGivesTheSameRoundedHighWord() {
        let seed: UInt64 = 0x17F
        var random = SplitMix64(seed: seed)
        var edges: [(Int64, Int64)] = [(0, 0), (1, 1), (-1, 1), (1 << 61, Int64.max), (-(1 << 62) + 1, Int64.min),
                                       ((1 << 62) - 1, Int64.max), ((1 << 62) - 1, Int64.min), (3, 1 << 62), (-3, (1 << 62) + 1)]
        for _ in 0..<200_000 {
            let a = Int64(bitPattern: random.next()) >> 2            // |a| < 2⁶²: a bell coefficient, any sign
            let b = Int64(bitPattern: random.next()) >> Int64(random.next() % 40)   // samples of every size
            edges.append((a, b))
        }
        var mismatches = 0
        for (a, b) in edges {
            let expected = Self.roundedHighWord(a, b)
            let old = BiquadKernel.high(a, b)
            let new = BiquadKernel.high(doubled: a << 1, b)
            if old != expected || new != expected {
                mismatches += 1
                if mismatches <= 3 {
                    Issue.record("a \(a) b \(b): expected \(expected), high \(old), high(doubled:) \(new) (seed \(seed))")
                }
            }
        }
        #expect(mismatches == 0, "seed \(seed)")
    }

    @Test func bellFormNeedsCoefficientsBelowSixteen() {
        // A bell-shaped numerator, A(z) + g·(1 − z⁻²), over A(z) = 1 − z⁻¹ + 0.5·z⁻²: with g = 15 the bell form;
        // with g = 18 (representable in Q5.58, but not when doubled) the general form. The designer itself never
        // gets there: RBJ peaking has b0 − 1 < A² = 10^(dB/20), below 15.9 at its ±24 dB limit.
        func design(g: Double) -> BiquadCoefficients {
            BiquadCoefficients(b0: 1 + g, b1: -1, b2: 0.5 - g, a1: -1, a2: 0.5)
        }
        #expect(BiquadFixedCoefficients(design(g: 15)).isBell)
        #expect(!BiquadFixedCoefficients(design(g: 18)).isBell)
        #expect(BiquadFixedCoefficients(BiquadCoefficients(.peaking, frequency: 16_000, q: 0.05, gainDB: 24, sampleRate: 48_000)).isBell)
    }
}
