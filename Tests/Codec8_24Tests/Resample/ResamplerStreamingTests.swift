import Testing
@testable import Codec8_24

/// Streaming behaviour: buffer splits, channel independence, drain, reset, pass-through and the sizing helpers.
@Suite("Sample-rate converter streaming")
struct ResamplerStreamingTests {
    typealias Pair = ResamplerPassbandTests.Pair

    struct Case: CustomTestStringConvertible, Sendable {
        var pair: Pair
        var channels: Int
        var testDescription: String { "\(pair.testDescription) ×\(channels)" }
    }

    static let splitCases: [Case] = [
        Case(pair: Pair(from: .hz44100, to: .hz48000), channels: 2),
        Case(pair: Pair(from: .hz48000, to: .hz44100), channels: 1),
        Case(pair: Pair(from: .hz8000, to: .hz48000), channels: 5),
        Case(pair: Pair(from: .hz96000, to: .hz8000), channels: 2),
        Case(pair: Pair(from: .hz11025, to: .hz96000), channels: 8),
        Case(pair: Pair(from: .hz22050, to: .hz16000), channels: 3),
        Case(pair: Pair(from: .hz32000, to: .hz32000), channels: 4),
    ]

    /// Random input chunks and random output capacities give the same bits as one call, and so does the drained
    /// tail; the total length is latency + ceil(N·L/M).
    @Test(arguments: splitCases)
    func randomBufferSplitsAreBitIdenticalToOneCall(testCase: Case) {
        let frames = 1500
        let input = ResampleFixtures.noise(frames: frames, channels: testCase.channels, seed: 42)
        let whole = SampleRateConverter(from: testCase.pair.from, to: testCase.pair.to, channels: testCase.channels)
        var reference = ResampleFixtures.convert(whole, input)
        #expect(whole.inputFramesConsumed == frames)
        reference += ResampleFixtures.drain(whole)
        #expect(whole.pendingTailFrames == 0)
        let ratio = whole.ratio
        let expectedFrames = whole.latencyFrames + (frames * ratio.interpolation + ratio.decimation - 1) / ratio.decimation
        #expect(reference.count == expectedFrames * testCase.channels)

        for seed: UInt64 in [1, 2, 3] {
            let pieces = SampleRateConverter(filterBank: whole.filterBank, channels: testCase.channels)
            var output = ResampleFixtures.convertInPieces(pieces, input, seed: seed, maxChunk: 97, maxOutput: 61)
            // Drain in small random pieces too.
            var generator = ResampleFixtures.SplitMix64(seed: seed &+ 100)
            var scratch = [Fixed824](repeating: .zero, count: 7 * testCase.channels)
            while pieces.pendingTailFrames > 0 {
                let capacity = generator.next(in: 1...7) * testCase.channels
                let produced = scratch.withUnsafeMutableBufferPointer {
                    pieces.drain(output: UnsafeMutableBufferPointer(rebasing: $0[0..<capacity]))
                }
                #expect(produced > 0)
                output += scratch[0..<(produced * testCase.channels)]
            }
            #expect(output == reference, "seed \(seed)")
        }
    }

    /// Each channel of a multichannel run equals a mono run of that channel alone.
    @Test(arguments: [Pair(from: .hz44100, to: .hz48000), Pair(from: .hz48000, to: .hz16000),
                      Pair(from: .hz16000, to: .hz44100)])
    func channelsAreIndependent(pair: Pair) {
        let channels = 4
        let frames = 900
        let signals: [[Fixed824]] = [
            ResampleFixtures.noise(frames: frames, channels: 1, seed: 9),
            ResampleFixtures.sines([1234.5], rate: pair.from.hertz, frames: frames),
            [Fixed824](repeating: .zero, count: frames),
            [Fixed824](repeating: .min, count: frames),
        ]
        var interleaved: [Fixed824] = []
        for frame in 0..<frames { for channel in 0..<channels { interleaved.append(signals[channel][frame]) } }
        let multi = SampleRateConverter(from: pair.from, to: pair.to, channels: channels)
        let together = ResampleFixtures.convert(multi, interleaved)
        for channel in 0..<channels {
            let mono = SampleRateConverter(filterBank: multi.filterBank, channels: 1)
            let alone = ResampleFixtures.convert(mono, signals[channel])
            let extracted = stride(from: channel, to: together.count, by: channels).map { together[$0] }
            #expect(extracted == alone, "channel \(channel)")
        }
        // The silent channel stays exactly silent.
        #expect(stride(from: 2, to: together.count, by: channels).allSatisfy { together[$0] == .zero })
    }

    /// Equal rates copy every sample bit for bit, with no latency and no tail.
    @Test(arguments: StandardSampleRate.allCases)
    func equalRatesAreAnExactCopy(rate: StandardSampleRate) {
        var input = ResampleFixtures.noise(frames: 500, channels: 2, seed: 5, amplitude: 120)
        input[0] = .max
        input[1] = .min
        let converter = SampleRateConverter(from: rate, to: rate, channels: 2)
        #expect(converter.latencyFrames == 0)
        let output = ResampleFixtures.convert(converter, input)
        #expect(output == input)
        #expect(converter.pendingTailFrames == 0)
        #expect(converter.maximumOutputFrames(forInputFrames: 500) == 500)
    }

    /// After `reset()`, a converter behaves exactly like a new one.
    @Test(arguments: [Pair(from: .hz44100, to: .hz48000), Pair(from: .hz96000, to: .hz22050)])
    func resetReturnsToTheInitialState(pair: Pair) {
        let first = ResampleFixtures.noise(frames: 777, channels: 2, seed: 11)
        let second = ResampleFixtures.noise(frames: 900, channels: 2, seed: 12)
        let used = SampleRateConverter(from: pair.from, to: pair.to, channels: 2)
        _ = ResampleFixtures.convert(used, first)
        _ = ResampleFixtures.drain(used)
        used.reset()
        #expect(used.inputFramesConsumed == 0 && used.outputFramesProduced == 0)
        let fresh = SampleRateConverter(filterBank: used.filterBank, channels: 2)
        let a = ResampleFixtures.convert(used, second) + ResampleFixtures.drain(used)
        let b = ResampleFixtures.convert(fresh, second) + ResampleFixtures.drain(fresh)
        #expect(a == b)
        #expect(!a.isEmpty)
    }

    /// `outputFrames(forInputFrames:)` and `inputFramesRequired(forOutputFrames:)` are exact from any state,
    /// and `maximumOutputFrames(forInputFrames:)` is never exceeded.
    @Test(arguments: [Pair(from: .hz44100, to: .hz48000), Pair(from: .hz48000, to: .hz44100),
                      Pair(from: .hz8000, to: .hz96000), Pair(from: .hz88200, to: .hz8000)])
    func sizingHelpersAreExact(pair: Pair) {
        let converter = SampleRateConverter(from: pair.from, to: pair.to, channels: 1)
        let input = ResampleFixtures.noise(frames: 4000, channels: 1, seed: 3)
        var generator = ResampleFixtures.SplitMix64(seed: 77)
        var position = 0
        var output = [Fixed824](repeating: .zero, count: 4000)
        for round in 0..<60 {
            if round % 2 == 0 {
                // Push mode: offer n frames with just enough room.
                let n = generator.next(in: 0...40)
                guard position + n <= input.count else { break }
                let predicted = converter.outputFrames(forInputFrames: n)
                #expect(predicted <= converter.maximumOutputFrames(forInputFrames: n))
                let (consumed, produced) = input.withUnsafeBufferPointer { all in
                    output.withUnsafeMutableBufferPointer { out in
                        converter.process(input: UnsafeBufferPointer(rebasing: all[position..<(position + n)]),
                                          output: UnsafeMutableBufferPointer(rebasing: out[0..<predicted]))
                    }
                }
                #expect(consumed == n && produced == predicted)
                position += consumed
            } else {
                // Pull mode: ask for k frames, offer exactly the required input (plus spare output room).
                let k = generator.next(in: 0...40)
                let required = converter.inputFramesRequired(forOutputFrames: k)
                guard position + required <= input.count else { break }
                let available = converter.outputFrames(forInputFrames: required)
                // Enough, and one frame fewer would not be.
                #expect(available >= k)
                #expect(k == 0 || converter.outputFrames(forInputFrames: required - 1) < k)
                let (consumed, produced) = input.withUnsafeBufferPointer { all in
                    output.withUnsafeMutableBufferPointer { out in
                        converter.process(input: UnsafeBufferPointer(rebasing: all[position..<(position + required)]),
                                          output: UnsafeMutableBufferPointer(rebasing: out[0..<k]))
                    }
                }
                #expect(consumed == required && produced == k)
                position += consumed
            }
        }
        #expect(position > 500)
    }
}
