import Testing
@testable import Codec8_24

@Suite("Biquad cascade split across threads")
struct BiquadCascadeSplitTests {
    /// Widen through the first part, run both parts wide, narrow once: bit-identical to the whole cascade, at
    /// every split point, for presets with bell and general-form stages.
    @Test(arguments: ["rock", "bass booster", "loudness", "vocal booster"])
    func splitCascadeMatchesTheWholeOne(preset: String) throws {
        let design = try #require(EQPreset.named(preset)).design(sampleRate: 48_000)
        let whole = design.makeCascade(channels: 2)
        let frames = 1000
        let input = TestSignals.noise(count: frames * 2, amplitude: 0.9, seed: 42)
        var expected = input
        expected.withUnsafeMutableBufferPointer { whole.process($0) }
        for point in 0...whole.stageCount {
            let (first, second) = whole.split(at: point)
            var wide = [Int64](repeating: 0, count: input.count)
            var output = [Fixed824](repeating: .zero, count: input.count)
            // Ragged blocks, as a pipeline hands them over.
            var start = 0
            for n in TestSignals.chunkSizes(total: frames, maxChunk: 300, seed: UInt64(point)) {
                input.withUnsafeBufferPointer { i in
                    wide.withUnsafeMutableBufferPointer { w in
                        first.widen(i.baseAddress! + start * 2, into: w.baseAddress! + start * 2, count: n * 2)
                        first.processWide(w.baseAddress! + start * 2, frames: n)
                        second.processWide(w.baseAddress! + start * 2, frames: n)
                    }
                }
                start += n
            }
            wide.withUnsafeBufferPointer { w in
                output.withUnsafeMutableBufferPointer { BiquadCascade.narrow(w.baseAddress!, into: $0.baseAddress!, count: input.count) }
            }
            #expect(output == expected, "split at stage \(point) of \(preset)")
        }
    }
}
