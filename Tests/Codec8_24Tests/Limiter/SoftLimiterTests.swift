import Foundation
import Testing
@testable import Codec8_24

/// Inputs covering the whole 8.24 range coarsely, the knee region densely, and the extremes.
private func sweep(_ limiter: SoftLimiter) -> [Int32] {
    let knee = limiter.threshold.raw
    var values = Array(stride(from: Int32.min, through: Int32.max - 65_521, by: 65_521)) + [Int32.max]
    values += Array((knee - 20_000)...(knee + 200_000))
    values += Array((-knee - 200_000)...(-knee + 20_000))
    return values.sorted()
}

@Suite("Soft limiter")
struct SoftLimiterTests {
    @Test func defaultKneeStartsAtMinusOnedBFS() {
        let limiter = SoftLimiter()
        #expect(limiter.threshold == Decibels.gain(-1) && limiter.ceiling == .one)
    }

    @Test(arguments: [(-1.0, 0.0), (-6.0, 0.0), (-0.1, 0.0), (-3.0, -0.3), (-20.0, -1.0)])
    func outputStaysBelowTheCeilingForEveryInput(threshold: Double, ceiling: Double) {
        let limiter = SoftLimiter(thresholdDecibels: threshold, ceilingDecibels: ceiling)
        let top = limiter.ceiling.raw
        for x in sweep(limiter) {
            let y = limiter.limit(Fixed824(raw: x)).raw
            #expect(y < top && y > -top, "x=\(x) → \(y)")
        }
        // At the 8.24 extremes the output approaches the ceiling along the curve, it is not clipped to it.
        let high = limiter.limit(.max).raw, low = limiter.limit(.min).raw
        let t = Double(limiter.threshold.raw), h = Double(top) - t, d = Double(Int32.max) - t
        #expect(abs(Double(high) - (t + h * d / (h + d))) < 1)
        #expect(high < top && Double(top - high) < h * h / (h + d) + 1)
        #expect(low == -high || low == -high - 1)
    }

    @Test func identityBelowTheKneeIsBitExact() {
        let limiter = SoftLimiter()
        let knee = limiter.threshold.raw
        var mismatches = 0
        for x in stride(from: -knee, through: knee, by: 13) where limiter.limit(Fixed824(raw: x)).raw != x {
            mismatches += 1
        }
        #expect(mismatches == 0)
        #expect(limiter.limit(Fixed824(raw: knee)).raw == knee && limiter.limit(Fixed824(raw: -knee)).raw == -knee)
        var random = OutputStageRandom(seed: 3)
        let quiet = (0..<4096).map { _ in random.sample(amplitude: 0.89) }   // −1.01 dBFS and below
        var buffer = quiet
        buffer.withUnsafeMutableBufferPointer { limiter.process($0) }
        #expect(buffer == quiet)
    }

    @Test(arguments: [-1.0, -6.0, -0.05])
    func transferIsMonotonicContinuousAndOdd(threshold: Double) {
        let limiter = SoftLimiter(thresholdDecibels: threshold)
        let inputs = sweep(limiter)
        var previousX = inputs[0], previousY = limiter.limit(Fixed824(raw: inputs[0])).raw
        for x in inputs.dropFirst() {
            let y = limiter.limit(Fixed824(raw: x)).raw
            #expect(y >= previousY, "not monotonic at \(x)")
            // Slope never above 1: no jump bigger than the input step, so adjacent inputs differ by ≤ 1 LSB.
            #expect(Int64(y) - Int64(previousY) <= Int64(x) - Int64(previousX), "jump at \(x)")
            #expect(limiter.limit(Fixed824(raw: -x)).raw == -y || x == Int32.min)
            previousX = x
            previousY = y
        }
    }

    @Test func curveMatchesTheDoubleReferenceAndIsSmoothAtTheKnee() {
        let limiter = SoftLimiter()
        let t = Double(limiter.threshold.raw), h = Double(limiter.ceiling.raw) - t
        func reference(_ x: Double) -> Double { x <= t ? x : t + h * (x - t) / (h + (x - t)) }
        for x in sweep(limiter) where x > 0 {
            #expect(abs(Double(limiter.limit(Fixed824(raw: x)).raw) - reference(Double(x))) < 1.0)
        }
        // C1: the slope just below the knee (1) and just above it agree; no corner.
        let k = limiter.threshold.raw, span: Int32 = 2000
        let below = Double(limiter.limit(Fixed824(raw: k)).raw - limiter.limit(Fixed824(raw: k - span)).raw) / Double(span)
        let above = Double(limiter.limit(Fixed824(raw: k + span)).raw - limiter.limit(Fixed824(raw: k)).raw) / Double(span)
        #expect(below == 1 && abs(above - 1) < 2e-3, "slopes \(below) / \(above)")
        // Further up the curve flattens: the slope at +6 dBFS input is small but positive.
        let six = Fixed824(2.0).raw
        let slope = Double(limiter.limit(Fixed824(raw: six + 1_000_000)).raw - limiter.limit(Fixed824(raw: six)).raw) / 1_000_000
        #expect(slope > 0 && slope < 0.01)
    }

    @Test func streamedBuffersMatchOneCall() {
        let limiter = SoftLimiter(thresholdDecibels: -3)
        var random = OutputStageRandom(seed: 21)
        let input = (0..<10_000).map { _ in random.sample(amplitude: 120) }
        var whole = input
        whole.withUnsafeMutableBufferPointer { limiter.process($0) }
        var pieces = input
        var splitter = OutputStageRandom(seed: 22)
        pieces.withUnsafeMutableBufferPointer { buffer in
            var start = 0
            for size in splitter.split(input.count, maximum: 97) {
                limiter.process(UnsafeMutableBufferPointer(rebasing: buffer[start..<(start + size)]))
                start += size
            }
        }
        #expect(pieces == whole)
        #expect(whole.allSatisfy { $0.raw < Fixed824.unityRaw && $0.raw > -Fixed824.unityRaw })
    }
}
