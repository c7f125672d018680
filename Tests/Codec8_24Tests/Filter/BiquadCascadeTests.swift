import Foundation
import Testing
@testable import Codec8_24

/// Streaming, channel independence and silence of the 8.24 cascade.
@Suite("Biquad cascade")
struct BiquadCascadeTests {
    static let stages: [BiquadCoefficients] = [
        BiquadCoefficients(.lowShelf, frequency: 80, q: 0.707, gainDB: 6, sampleRate: 48_000),
        BiquadCoefficients(.peaking, frequency: 31, q: 1.41, gainDB: -9, sampleRate: 48_000),
        BiquadCoefficients(.peaking, frequency: 2000, q: 2, gainDB: 4, sampleRate: 48_000),
        BiquadCoefficients(.highPass, frequency: 25, q: 0.707, sampleRate: 48_000),
        BiquadCoefficients(.notch, frequency: 50, q: 5, sampleRate: 48_000),
    ]

    @Test(arguments: 1...8)
    func randomBufferSizesGiveBitIdenticalOutput(channels: Int) {
        let frames = 3_000
        let input = noise(count: frames * channels, amplitude: 0.5, seed: UInt64(channels))
        let whole = runFixed(Self.stages, input, channels: channels)
        let cascade = BiquadCascade(stages: Self.stages, channels: channels)
        var chunked = input
        var random = SplitMix64(seed: 99)
        chunked.withUnsafeMutableBufferPointer { buffer in
            var frame = 0
            while frame < frames {
                let n = min(random.next(in: 0...300), frames - frame)
                cascade.process(buffer.baseAddress! + frame * channels, frames: n)
                frame += n
            }
        }
        #expect(chunked == whole)
    }

    @Test(arguments: 1...8)
    func channelsAreIndependent(channels: Int) {
        let frames = 2_000
        // A different signal per channel: noise at different levels plus a sine at a different frequency.
        let perChannel: [[Fixed824]] = (0..<channels).map { c in
            let n = noise(count: frames, amplitude: 0.1 * Double(c + 1), seed: UInt64(100 + c))
            let s = sine(count: frames, frequency: 30 + 400 * Double(c), sampleRate: 48_000, amplitude: 0.2)
            return zip(n, s).map { $0 + $1 }
        }
        var interleaved = [Fixed824](repeating: .zero, count: frames * channels)
        for f in 0..<frames { for c in 0..<channels { interleaved[f * channels + c] = perChannel[c][f] } }
        let output = runFixed(Self.stages, interleaved, channels: channels)
        for c in 0..<channels {
            let mono = runFixed(Self.stages, perChannel[c])
            let extracted = (0..<frames).map { output[$0 * channels + c] }
            #expect(extracted == mono, "channel \(c) of \(channels)")
        }
    }

    @Test func silenceStaysSilentAndImpulseDecaysToSilence() {
        let silence = [Fixed824](repeating: .zero, count: 5_000)
        #expect(runFixed(Self.stages, silence) == silence)
        var impulse = silence
        impulse[0] = .one
        let response = runFixed(Self.stages, impulse + [Fixed824](repeating: .zero, count: 200_000))
        #expect(response.suffix(1000).allSatisfy { $0 == .zero })
    }

    @Test func emptyCascadePassesThrough() {
        let input = noise(count: 1000, amplitude: 0.9, seed: 1)
        #expect(runFixed([], input, channels: 2) == input)
    }

    @Test func outputSaturatesAtTheFormatLimits() {
        let loud = BiquadCoefficients(.peaking, frequency: 1000, q: 1, gainDB: 24, sampleRate: 48_000)
        let input = sine(count: 4800, frequency: 1000, sampleRate: 48_000, amplitude: 100)
        let output = runFixed([loud], input)
        #expect(output.contains(.max) && output.contains(.min))
    }
}
