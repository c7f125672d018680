import Foundation
import Testing
@testable import Codec8_24

@Suite("TPDF dither and noise shaping")
struct DithererTests {
    /// Dithers `input` to 16 bits and returns the output and the error (output - input) in 16-bit LSBs.
    static func run(_ input: [Fixed824], shaping: Ditherer.NoiseShaping, channels: Int = 1, seed: UInt64 = 9)
        -> (out: [Fixed824], error: [Double])
    {
        var d = Ditherer(depth: .bits16, shaping: shaping, channelCount: channels, seed: seed)
        var out = input
        out.withUnsafeMutableBufferPointer { d.process($0) }
        let error = zip(out, input).map { Double($0.raw - $1.raw) / 512 }
        return (out, error)
    }

    static func meanAndVariance(_ x: [Double]) -> (Double, Double) {
        let mean = x.reduce(0, +) / Double(x.count)
        return (mean, x.reduce(0) { $0 + ($1 - mean) * ($1 - mean) } / Double(x.count))
    }

    @Test(arguments: Ditherer.Depth.allCases)
    func outputLandsOnTheTargetGrid(depth: Ditherer.Depth) {
        var d = Ditherer(depth: depth, shaping: .secondOrder, channelCount: 2)
        var buffer = TestSignals.noise(count: 8192, amplitude: 0.9)
        buffer.withUnsafeMutableBufferPointer { d.process($0) }
        #expect(buffer.allSatisfy { Int64($0.raw) % depth.lsb == 0 })
    }

    /// TPDF's defining property: the error's mean and power do not depend on the signal. With rectangular or
    /// no dither, a DC input half-way between codes and one on a code give very different error power.
    @Test(arguments: [0.0, 0.25, 0.5, 0.75])
    func errorStatisticsAreIndependentOfTheSignal(offsetInLSB: Double) {
        let dc = Fixed824(raw: Int32(1000 * 512 + offsetInLSB * 512))
        let (_, error) = Self.run([Fixed824](repeating: dc, count: 100_000), shaping: .off)
        let (mean, variance) = Self.meanAndVariance(error)
        #expect(abs(mean) < 0.01)
        #expect(abs(variance - 0.25) < 0.01)      // 1/12 (rounding) + 1/6 (TPDF) LSB²
        #expect(error.allSatisfy { abs($0) < 1.5 })
    }

    @Test func aSineBelowOneLSBSurvivesDither() {
        // 0.3 LSB: plain rounding turns it into silence; dither keeps it, in noise.
        let n = 48_000
        let amplitude = 0.3 * 512
        let input = (0..<n).map { Fixed824(raw: Int32((amplitude * sin(2 * Double.pi * 1000 * Double($0) / 48_000)).rounded())) }
        var rounded = input
        rounded.withUnsafeMutableBufferPointer { b in
            var i16 = [Int16](repeating: 0, count: n)
            i16.withUnsafeMutableBufferPointer { SampleConversion.narrow(UnsafeBufferPointer(b), into: $0) }
            #expect(i16.allSatisfy { $0 == 0 })
        }
        let (out, _) = Self.run(input, shaping: .off)
        // Correlate with the sine: recovered amplitude within 10% of 0.3 LSB.
        var s = 0.0
        for i in 0..<n { s += Double(out[i].raw) * sin(2 * Double.pi * 1000 * Double(i) / 48_000) }
        let recovered = 2 * s / Double(n) / 512
        #expect(abs(recovered - 0.3) < 0.03)
    }

    /// Error feedback through `1 - z⁻¹` (or its square) makes the error a first (second) difference of white
    /// noise: the total grows by |NTF|² averaged (2×, 6×) while the low band empties.
    @Test func noiseShapingMovesNoiseOutOfTheLowBand() {
        let input = TestSignals.noise(count: 4096 * 8, amplitude: 0.5, seed: 3)
        /// Mean power in DFT bins 2...64 of Hann-windowed 4096-sample segments: 0 < f < fs/64. (The window
        /// keeps the shaped noise's strong high band from leaking into the low bins.)
        func lowBandPower(_ e: [Double]) -> Double {
            let window = (0..<4096).map { 0.5 - 0.5 * cos(2 * Double.pi * Double($0) / 4096) }
            let cosine = (0..<4096).map { cos(2 * Double.pi * Double($0) / 4096) }
            let sine = (0..<4096).map { sin(2 * Double.pi * Double($0) / 4096) }
            var total = 0.0
            for start in stride(from: 0, to: e.count, by: 4096) {
                let segment = (0..<4096).map { window[$0] * e[start + $0] }
                for k in 2...64 {
                    var re = 0.0, im = 0.0
                    for n in 0..<4096 {
                        let phase = (k * n) & 4095   // the twiddle table's index for e^(-2πi·kn/4096)
                        re += segment[n] * cosine[phase]
                        im -= segment[n] * sine[phase]
                    }
                    total += (re * re + im * im) / (4096 * 0.375)   // 0.375: the Hann window's power
                }
            }
            return total / Double(e.count / 4096 * 63)
        }
        let flat = Self.run(input, shaping: .off).error
        let first = Self.run(input, shaping: .firstOrder).error
        let second = Self.run(input, shaping: .secondOrder).error
        let (_, vFlat) = Self.meanAndVariance(flat)
        let (_, vFirst) = Self.meanAndVariance(first)
        let (_, vSecond) = Self.meanAndVariance(second)
        #expect(abs(vFlat - 0.25) < 0.01)
        #expect(abs(vFirst / vFlat - 2) < 0.1)
        #expect(abs(vSecond / vFlat - 6) < 0.3)
        // White noise's periodogram averages to its variance; |NTF|² below fs/64 is at most 0.0096 (first
        // order) and 0.00009 (second order).
        let pFlat = lowBandPower(flat), pFirst = lowBandPower(first), pSecond = lowBandPower(second)
        #expect(abs(pFlat / vFlat - 1) < 0.1)
        #expect(pFirst < pFlat / 100)
        #expect(pSecond < pFirst / 10)
    }

    @Test func sameSeedSameOutputOtherSeedOtherOutput() {
        let input = TestSignals.noise(count: 4096, amplitude: 0.1)
        #expect(Self.run(input, shaping: .secondOrder, seed: 1).out == Self.run(input, shaping: .secondOrder, seed: 1).out)
        #expect(Self.run(input, shaping: .secondOrder, seed: 1).out != Self.run(input, shaping: .secondOrder, seed: 2).out)
    }

    @Test(arguments: [1, 2, 6, 8])
    func streamingInRandomChunksMatchesOneCall(channels: Int) {
        let frames = 3000
        let input = TestSignals.noise(count: frames * channels, amplitude: 0.7, seed: 11)
        let whole = Self.run(input, shaping: .secondOrder, channels: channels).out
        var d = Ditherer(depth: .bits16, shaping: .secondOrder, channelCount: channels, seed: 9)
        var streamed = input
        streamed.withUnsafeMutableBufferPointer { buffer in
            var start = 0
            for n in TestSignals.chunkSizes(total: frames, maxChunk: 300) {
                d.process(UnsafeMutableBufferPointer(rebasing: buffer[start * channels..<(start + n) * channels]))
                start += n
            }
        }
        #expect(streamed == whole)
    }

    @Test func fullScaleWithShapingStaysBoundedAndInRange() {
        let hot = (0..<10_000).map { Fixed824(1.2 * sin(Double($0) * 0.05)) }
        let (out, _) = Self.run(hot, shaping: .secondOrder)
        #expect(out.allSatisfy { $0.raw >= -(1 << 24) && $0.raw <= (1 << 24) - 512 })
        // Where the input is comfortably inside full scale, the error stays small (the feedback recovered).
        for (i, x) in hot.enumerated() where abs(x.doubleValue) < 0.5 {
            #expect(abs(out[i].raw - x.raw) < 8 * 512)
        }
    }

    @Test func narrowWritesDitheredSamples() {
        var d = Ditherer(depth: .bits16, channelCount: 2)
        var source = TestSignals.noise(count: 11, amplitude: 0.5)   // 5 whole frames + 1 stray sample
        var target = [Int16](repeating: 7, count: 11)
        source.withUnsafeMutableBufferPointer { s in target.withUnsafeMutableBufferPointer { d.narrow(s, into: $0) } }
        #expect(target[10] == 7)
        for i in 0..<10 { #expect(Int32(target[i]) << 9 == source[i].raw) }
    }
}
