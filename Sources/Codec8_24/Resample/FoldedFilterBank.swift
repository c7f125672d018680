/// A `PolyphaseFilterBank` whose every phase row is symmetric, stored folded: one coefficient per pair of taps
/// that share it, so the converter adds the two samples first and takes half the products.
///
/// Which banks fold: a windowed-sinc prototype of odd length is symmetric about its centre, and a phase row
/// (taps p, p + L, p + 2L, …) is then symmetric about its own middle only when L ≤ 2: integer decimation
/// (96 → 48 kHz, 48 → 16 kHz) and 2× interpolation (48 → 96 kHz). Other ratios' rows are mirror images of each
/// other, not of themselves, and do not fold. The check is on the quantized rows, tap for tap: a row that the
/// unity-sum rounding made asymmetric by one LSB does not fold, and the converter keeps the plain product.
///
/// Exactness: for a pair (i, j) with equal c, c·x_i + c·x_j = c·(x_i + x_j) in integers, so the folded sum is
/// the plain sum, bit for bit, as long as x_i + x_j fits the kernel's 32-bit lanes. It does when both samples
/// are in [−2^30, 2^30) (±64.0 in 8.24; full scale is ±1.0); the converter counts the samples outside that range
/// in each window and takes the plain product while there is one.
///
/// Built on the control thread with the converter; immutable after.
final class FoldedFilterBank {
    /// One phase row, folded. Positions are row indices (oldest-sample tap first).
    struct Phase {
        /// The row's nonzero span, `first...last`; taps outside it are zero.
        let first: Int
        let last: Int
        /// Pairs (first + k, last − k), k < `pairs`; their coefficients (plus `coefficientOffset`) start at
        /// `tableStart` in the folded table.
        let pairs: Int
        let tableStart: Int
        /// The unpaired middle tap of an odd span (−1 when the span is even) and its signed Q2.29 coefficient.
        let centre: Int
        let centreCoefficient: Int64
        /// The part of the unsigned kernel's correction that does not depend on the samples: A·Σc + pairs·A·B
        /// over the pairs' coefficients c, modulo 2^64 (A = 2^31, B = `coefficientOffset`; see
        /// `SampleRateConverter.sample`).
        let constant: UInt64
    }

    /// One `Phase` per phase of the bank.
    let phases: UnsafeMutablePointer<Phase>
    /// The pairs' coefficients of every phase, each plus `coefficientOffset`, phase after phase.
    let table: UnsafeMutablePointer<UInt32>
    let phaseCount: Int
    let tableCount: Int

    /// The folded form of `bank`, or nil when one of its rows is not symmetric (or the bank is the identity).
    init?(_ bank: PolyphaseFilterBank) {
        if bank.ratio.isIdentity { return nil }
        let taps = bank.tapsPerPhase
        let offset = UInt32(PolyphaseFilterBank.coefficientOffset)
        var found: [Phase] = []
        var pairCoefficients: [UInt32] = []
        for phase in 0..<bank.phaseCount {
            let row = UnsafePointer(bank.table + phase * taps)
            guard let first = (0..<taps).first(where: { row[$0] != offset }),
                  let last = (0..<taps).last(where: { row[$0] != offset }) else { return nil }
            let pairs = (last - first + 1) / 2
            for k in 0..<pairs where row[first + k] != row[last - k] { return nil }
            let centre = (last - first + 1) % 2 == 1 ? first + pairs : -1
            let a: UInt64 = 1 << 31
            var constant = UInt64(pairs) &* a &* UInt64(offset)
            for k in 0..<pairs {
                constant &+= a &* UInt64(bitPattern: Int64(row[first + k]) - Int64(offset))
            }
            found.append(Phase(first: first, last: last, pairs: pairs, tableStart: pairCoefficients.count,
                               centre: centre,
                               centreCoefficient: centre < 0 ? 0 : Int64(row[centre]) - Int64(offset),
                               constant: constant))
            pairCoefficients.append(contentsOf: (0..<pairs).map { row[first + $0] })
        }
        phaseCount = found.count
        tableCount = pairCoefficients.count
        phases = .allocate(capacity: phaseCount)
        phases.initialize(from: found, count: phaseCount)
        table = .allocate(capacity: max(1, tableCount))
        table.initialize(from: pairCoefficients, count: tableCount)
    }

    deinit {
        phases.deallocate()
        table.deallocate()
    }

    /// Bytes held by the folded rows.
    var memoryBytes: Int {
        phaseCount * MemoryLayout<Phase>.stride + tableCount * MemoryLayout<UInt32>.stride
    }

    /// Whether a sample may be paired: in [−2^30, 2^30), so the sum of two fits an Int32.
    @inline(__always)
    static func isPairable(_ raw: Int32) -> Bool {
        UInt32(bitPattern: raw &+ (1 << 30)) < (1 << 31)
    }
}
