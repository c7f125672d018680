import Testing
@testable import Codec8_24

/// The folded kernel (`FoldedFilterBank`): which banks fold, and that folding changes no output bit.
///
/// Which banks fold comes from the filter's structure, not from the code under test: the prototype is a
/// windowed sinc of odd length, symmetric about its centre, and phase p of L takes its taps p, p + L, p + 2L, …;
/// such a row is symmetric about its own middle for L = 1 (integer decimation) and L = 2 (the centre falls on a
/// tap of one phase and midway between taps of the other), and for no larger L (phase p is the mirror image of
/// phase L − 1 − p, not of itself). Exactness is checked against Σ c·x computed directly in Int64 from the
/// polyphase definition, as `ResamplerArithmeticTests` does, with inputs that exercise both kernels: noise over
/// the pairable range [−2^30, 2^30) with its two end values, and bursts of samples outside it (±full Int32,
/// ±2^30 just past the edge), during which a channel's window must go back to the plain product.
@Suite("Sample-rate converter folded rows")
struct ResamplerFoldingTests {
    typealias Pair = ResamplerPassbandTests.Pair

    @Test func exactlyTheBanksWithOneOrTwoPhasesFold() {
        for from in StandardSampleRate.allCases {
            for to in StandardSampleRate.allCases where to != from {
                let bank = PolyphaseFilterBank(from: from, to: to)
                let folds = FoldedFilterBank(bank) != nil
                #expect(folds == (bank.phaseCount <= 2), "\(from.hertz) -> \(to.hertz): L = \(bank.phaseCount)")
            }
        }
        #expect(FoldedFilterBank(PolyphaseFilterBank(from: .hz48000, to: .hz48000)) == nil)
    }

    /// The folded rows are the bank's rows: every pair's coefficient equals both of its taps, the centre its
    /// own, and the taps outside the span are zero.
    @Test(arguments: [Pair(from: .hz96000, to: .hz48000), Pair(from: .hz48000, to: .hz96000),
                      Pair(from: .hz48000, to: .hz16000)])
    func foldedRowsAreTheBanksRows(pair: Pair) throws {
        let bank = PolyphaseFilterBank(from: pair.from, to: pair.to)
        let folded = try #require(FoldedFilterBank(bank))
        let taps = bank.tapsPerPhase
        let offset = Int64(PolyphaseFilterBank.coefficientOffset)
        for phase in 0..<bank.phaseCount {
            let row = folded.phases[phase]
            // Row index i (oldest first) is age taps − 1 − i.
            func tap(_ index: Int) -> Int64 { Int64(bank.coefficient(phase: phase, age: taps - 1 - index)) }
            #expect(row.pairs == (row.last - row.first + 1) / 2 && row.pairs > taps / 2 - 3)
            for k in 0..<row.pairs {
                let c = Int64(folded.table[row.tableStart + k]) - offset
                #expect(c == tap(row.first + k) && c == tap(row.last - k), "phase \(phase) pair \(k)")
            }
            if row.centre >= 0 { #expect(row.centreCoefficient == tap(row.centre)) }
            for index in 0..<taps where index < row.first || index > row.last { #expect(tap(index) == 0) }
            #expect(tap(row.first) != 0 && tap(row.last) != 0)
        }
    }

    struct Case: CustomTestStringConvertible, Sendable {
        var pair: Pair
        var channels: Int
        var inPieces: Bool
        var testDescription: String { "\(pair.testDescription) ×\(channels)\(inPieces ? " in pieces" : "")" }
    }

    @Test(arguments: [
        Case(pair: Pair(from: .hz96000, to: .hz48000), channels: 2, inPieces: false),
        Case(pair: Pair(from: .hz48000, to: .hz96000), channels: 2, inPieces: true),
        Case(pair: Pair(from: .hz48000, to: .hz96000), channels: 1, inPieces: false),
        Case(pair: Pair(from: .hz88200, to: .hz44100), channels: 3, inPieces: true),
        Case(pair: Pair(from: .hz48000, to: .hz16000), channels: 5, inPieces: false),
    ])
    func foldingChangesNoOutputBit(testCase: Case) {
        let seed: UInt64 = 0xF01D_0017
        var generator = ResampleFixtures.SplitMix64(seed: seed)
        let channels = testCase.channels
        let converter = SampleRateConverter(from: testCase.pair.from, to: testCase.pair.to, channels: channels)
        let bank = converter.filterBank
        let frames = 4 * bank.tapsPerPhase + 3000
        let edge: Int32 = 1 << 30
        var raw = [Int32](repeating: 0, count: frames * channels)
        for i in raw.indices {
            switch generator.next(in: 0...99) {
            case 0: raw[i] = -edge
            case 1: raw[i] = edge - 1
            default: raw[i] = Int32(generator.next(in: 0...Int(UInt32.max) / 2)) - edge
            }
        }
        // Bursts past the pairable range in one channel at a time, a window or more apart.
        let outside: [Int32] = [.max, .min, edge, -edge - 1]
        var frame = bank.tapsPerPhase / 2
        var burst = 0
        while frame < frames - 8 {
            let channel = burst % channels
            for k in 0..<generator.next(in: 1...4) {
                raw[(frame + k) * channels + channel] = outside[(burst + k) % outside.count]
            }
            frame += bank.tapsPerPhase + generator.next(in: 100...900)
            burst += 1
        }
        let input = raw.map { Fixed824(raw: $0) }
        let output = testCase.inPieces
            ? ResampleFixtures.convertInPieces(converter, input, seed: seed, maxChunk: 97, maxOutput: 61)
            : ResampleFixtures.convert(converter, input)
        let (l, m) = (bank.phaseCount, bank.ratio.decimation)
        let phi = bank.prototypeDelay % m
        var mismatches = 0
        for frame in 0..<(output.count / channels) {
            let time = frame * m + phi
            let newest = time / l, phase = time % l
            for channel in 0..<channels {
                var sum: Int64 = 0
                for age in 0..<bank.tapsPerPhase where newest - age >= 0 {
                    sum += Int64(bank.coefficient(phase: phase, age: age)) * Int64(raw[(newest - age) * channels + channel])
                }
                let expected = Fixed824.saturating(Fixed824.roundingShift(sum, by: PolyphaseFilterBank.coefficientFractionBits))
                if output[frame * channels + channel] != expected { mismatches += 1 }
            }
        }
        #expect(output.count / channels > 1000)
        #expect(mismatches == 0, "\(mismatches) outputs differ from the exact sum (seed \(seed))")
        // Both kernels ran: most samples folded, the bursts' windows not.
        #expect(converter.foldedSamples > output.count / 4, "folded \(converter.foldedSamples) of \(output.count)")
        #expect(converter.foldedSamples < output.count)
    }

    /// A converter that does not fold (L > 2) never takes the folded path and keeps no mirrored history.
    @Test func otherRatiosKeepThePlainProduct() {
        let converter = SampleRateConverter(from: .hz44100, to: .hz48000, channels: 2)
        let input = (0..<4000).map { Fixed824(raw: Int32($0 % 200) << 16) }
        let output = ResampleFixtures.convert(converter, input)
        #expect(!output.isEmpty && converter.folded == nil && converter.mirror == nil)
        #expect(converter.foldedSamples == 0)
    }
}
