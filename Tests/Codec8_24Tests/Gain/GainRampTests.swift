import Foundation
import Testing
@testable import Codec8_24

/// The gains a ramp gives to the next `count` frames.
private func gains(_ ramp: inout GainRamp, _ count: Int) -> [Int32] {
    (0..<count).map { _ in ramp.nextGain().raw }
}

@Suite("Gain ramp")
struct GainRampTests {
    @Test(arguments: [(0.25, 1.75, 1000), (1.0, 0.0, 480), (0.0, 1.0, 7), (127.0, 0.001, 4801), (0.5, 0.5 + 1e-6, 3)])
    func linearRampIsMonotonicBoundedAndEndsOnTarget(start: Double, end: Double, frames: Int) {
        var ramp = GainRamp(gain: Fixed824(start))
        let startRaw = ramp.gain.raw
        let target = Fixed824(end)
        ramp.ramp(to: target, frames: frames, shape: .linear)
        let curve = [startRaw] + gains(&ramp, frames + 5)
        let delta = Double(target.raw) - Double(startRaw)
        let slope = abs(delta) / Double(frames)
        for k in 1...frames {
            let step = Double(curve[k]) - Double(curve[k - 1])
            #expect(abs(step) <= slope + 1, "step \(step) at \(k)")
            #expect(delta >= 0 ? step >= 0 : step <= 0, "not monotonic at \(k)")
            // Within one LSB of the ideal line.
            let ideal = Double(startRaw) + delta * Double(k) / Double(frames)
            #expect(abs(Double(curve[k]) - ideal) <= 1, "k=\(k): \(curve[k]) vs \(ideal)")
        }
        #expect(curve[frames] == target.raw)
        #expect(curve[(frames + 1)...].allSatisfy { $0 == target.raw })
        #expect(!ramp.isRamping && ramp.gain == target)
    }

    @Test(arguments: [(1.0, 0.01, 4800), (0.01, 4.0, 2000), (100.0, 0.5, 777), (1.0, 0.99, 48000)])
    func exponentialRampHasConstantRatioAndEndsOnTarget(start: Double, end: Double, frames: Int) {
        var ramp = GainRamp(gain: Fixed824(start))
        let s = Double(ramp.gain.raw), t = Double(Fixed824(end).raw)
        ramp.ramp(to: Fixed824(end), frames: frames, shape: .exponential)
        let curve = [Int32(s)] + gains(&ramp, frames)
        let ratio = pow(t / s, 1 / Double(frames))
        var worst = 0.0
        for k in 1...frames {
            let g = Double(curve[k]), previous = Double(curve[k - 1])
            #expect(t > s ? g >= previous : g <= previous, "not monotonic at \(k)")
            // Constant dB per frame: each gain is the previous one times the ratio, to within the 8.24 rounding.
            #expect(abs(g - previous * ratio) <= 1.0 + abs(ratio - 1) * 0.5, "ratio off at \(k): \(g) vs \(previous * ratio)")
            let ideal = s * pow(t / s, Double(k) / Double(frames))
            worst = max(worst, abs(g - ideal))
        }
        #expect(worst <= 1.0, "drift from the ideal exponential: \(worst) LSB")
        #expect(curve[frames] == Fixed824(end).raw)
        #expect(ramp.nextGain() == Fixed824(end))
    }

    @Test func exponentialFadeToSilenceFallsToTheFloorThenSnapsToZero() {
        let frames = 1000
        var ramp = GainRamp(gain: .one)
        ramp.ramp(to: .zero, frames: frames, shape: .exponential)
        let curve = [Fixed824.unityRaw] + gains(&ramp, frames)
        let floor = Double(GainRamp.exponentialFloor.raw)                  // 256 = 2^-16
        let one = Double(Fixed824.unityRaw)
        for k in 1..<frames {
            let ideal = one * pow(floor / one, Double(k) / Double(frames))
            #expect(abs(Double(curve[k]) - ideal) <= 1, "k=\(k)")
            #expect(curve[k] <= curve[k - 1])
        }
        #expect(curve[frames] == 0)
        // The snap onto 0 is no bigger than the floor itself (−96 dB of full scale).
        #expect(curve[frames - 1] <= GainRamp.exponentialFloor.raw + 3 && curve[frames - 1] > 0)
        #expect(Decibels.decibels(GainRamp.exponentialFloor) < -96)
    }

    @Test func exponentialFadeInFromSilenceStartsAtTheFloor() {
        let frames = 500
        var ramp = GainRamp(gain: .zero)
        ramp.ramp(to: Fixed824(2.0), frames: frames, shape: .exponential)
        let curve = [Int32(0)] + gains(&ramp, frames)
        let floor = 256.0, end = Double(Fixed824(2.0).raw)
        for k in 1...frames {
            let ideal = floor * pow(end / floor, Double(k) / Double(frames))
            #expect(abs(Double(curve[k]) - ideal) <= 1, "k=\(k): \(curve[k]) vs \(ideal)")
        }
        #expect(curve[1] < 300)                               // first step: just above the floor
        #expect(curve[frames] == Fixed824(2.0).raw)
    }

    @Test func exponentialBetweenGainsBelowTheFloorIsLinear() {
        var ramp = GainRamp(gain: .zero)
        ramp.ramp(to: Fixed824(raw: 200), frames: 100, shape: .exponential)
        let curve = gains(&ramp, 100)
        for k in 0..<100 { #expect(abs(Double(curve[k]) - 2.0 * Double(k + 1)) <= 1) }
    }

    @Test func retargetMidRampStartsFromTheCurrentGain() {
        for shape in [GainRamp.Shape.linear, .exponential] {
            var ramp = GainRamp(gain: Fixed824(0.1))
            ramp.ramp(to: .one, frames: 1000, shape: shape)
            let first = gains(&ramp, 300)
            let current = ramp.gain
            #expect(current.raw == first.last)
            ramp.ramp(to: Fixed824(0.15), frames: 500, shape: shape)
            let second = gains(&ramp, 500)
            let c = Double(current.raw), t = Double(Fixed824(0.15).raw)
            // The steepest step of the new ramp: its average slope (linear) or its first ratio step (exponential).
            let newSlope = shape == .linear ? abs(t - c) / 500 : c * (1 - pow(t / c, 1.0 / 500))
            // The first new gain continues from where the old ramp was: no step beyond the new slope.
            #expect(abs(Double(second[0]) - Double(current.raw)) <= newSlope + 1, "\(shape)")
            #expect(second[0] < current.raw)
            #expect(second.last == Fixed824(0.15).raw)
            // And the joint is monotonic on both sides.
            #expect(first == first.sorted())
            #expect(second == second.sorted(by: >))
        }
    }

    @Test func muteFadesToZeroAndUnmuteReturnsToThePreviousGain() {
        var ramp = GainRamp(gain: Fixed824(0.5))
        ramp.mute(frames: 100)
        #expect(ramp.isMuted && ramp.target == .zero && ramp.unmutedGain == Fixed824(0.5))
        let down = gains(&ramp, 100)
        #expect(down.last == 0 && ramp.isSilent)
        for k in 1..<100 { #expect(down[k] <= down[k - 1] && down[k - 1] - down[k] <= Fixed824(0.5).raw / 100 + 1) }

        // A volume change while muted is remembered, not heard.
        ramp.ramp(to: Fixed824(0.8), frames: 10)
        #expect(gains(&ramp, 20).allSatisfy { $0 == 0 })
        #expect(ramp.unmutedGain == Fixed824(0.8))

        ramp.unmute(frames: 100)
        #expect(!ramp.isMuted)
        let up = gains(&ramp, 100)
        #expect(up.last == Fixed824(0.8).raw)
        for k in 1..<100 { #expect(up[k] >= up[k - 1] && up[k] - up[k - 1] <= Fixed824(0.8).raw / 100 + 1) }

        // Muting half way up an unmute starts the fade from where it is.
        ramp.mute(frames: 50)
        ramp.unmute(frames: 100)
        ramp.mute(frames: 100)
        _ = gains(&ramp, 100)
        ramp.unmute(frames: 100)
        let halfway = gains(&ramp, 40).last!
        ramp.mute(frames: 100)
        let fade = gains(&ramp, 100)
        #expect(fade[0] <= halfway && halfway - fade[0] <= halfway / 100 + 1)
        #expect(fade.last == 0)
    }

    @Test func appliedToAConstantSignalTheOutputIsTheGainCurve() {
        for channels in [1, 2, 3, 8] {
            let frames = 1500
            var ramp = GainRamp(gain: Fixed824(0.3))
            ramp.ramp(to: Fixed824(1.2), frames: 1000, shape: .exponential)
            var reference = ramp
            let curve = gains(&reference, frames)
            var buffer = [Fixed824](repeating: .one, count: frames * channels)
            buffer.withUnsafeMutableBufferPointer { ramp.apply(to: $0, channels: channels) }
            for frame in 0..<frames {
                for channel in 0..<channels {
                    #expect(buffer[frame * channels + channel].raw == curve[frame])
                }
            }
            // Half-scale signal: the rounded product.
            var half = [Fixed824](repeating: Fixed824(0.5), count: frames * channels)
            var again = GainRamp(gain: Fixed824(0.3))
            again.ramp(to: Fixed824(1.2), frames: 1000, shape: .exponential)
            half.withUnsafeMutableBufferPointer { again.apply(to: $0, channels: channels) }
            for frame in 0..<frames {
                let expected = Int32((Double(curve[frame]) / 2).rounded(.up))
                #expect(half[frame * channels].raw == expected)
            }
        }
    }

    @Test func settledUnityIsBitExactAndSettledZeroIsSilence() {
        var random = OutputStageRandom(seed: 7)
        let input = (0..<512).map { _ in random.sample(amplitude: 100) }
        var buffer = input
        var unity = GainRamp(gain: .one)
        buffer.withUnsafeMutableBufferPointer { unity.apply(to: $0, channels: 2) }
        #expect(buffer == input)
        var silent = GainRamp(gain: .zero)
        buffer.withUnsafeMutableBufferPointer { silent.apply(to: $0, channels: 2) }
        #expect(buffer.allSatisfy { $0 == .zero })
    }

    @Test func gainsReachThe824CeilingAndProductsSaturate() {
        var ramp = GainRamp(gain: .one)
        ramp.ramp(to: .max, frames: 64, shape: .exponential)
        let curve = gains(&ramp, 64)
        #expect(curve.last == Int32.max)
        #expect(Decibels.decibels(ramp.gain) > 42.1)
        var buffer: [Fixed824] = [Fixed824(2.0), Fixed824(-2.0), Fixed824(0.5)]
        buffer.withUnsafeMutableBufferPointer { ramp.apply(to: $0, channels: 1) }
        #expect(buffer[0] == .max && buffer[1] == .min)
        #expect(abs(buffer[2].doubleValue - 64.0) < 1e-6)
        var negative = GainRamp(gain: Fixed824(-1.0))           // negative gains are treated as 0
        #expect(negative.nextGain() == .zero)
    }

    @Test func streamingInRandomBufferSizesMatchesOneCall() {
        // Parameter events at fixed frames; the streamed run cuts its buffers randomly in between.
        let frames = 20_000, channels = 3
        var random = OutputStageRandom(seed: 0xC0FFEE)
        let input = (0..<frames * channels).map { _ in random.sample(amplitude: 1.5) }
        let events: [(frame: Int, apply: (inout GainRamp) -> Void)] = [
            (0, { $0.ramp(to: Fixed824(0.7), frames: 3001, shape: .exponential) }),
            (1234, { $0.ramp(to: Fixed824(2.5), frames: 999, shape: .linear) }),
            (5000, { $0.mute(frames: 4410) }),
            (7000, { $0.ramp(to: Fixed824(0.1), frames: 100) }),
            (9000, { $0.unmute(frames: 2000, shape: .exponential) }),
            (12_345, { $0.ramp(to: .zero, frames: 5000, shape: .exponential) }),
            (19_000, { $0.ramp(to: .one, frames: 3) }),
        ]
        func run(maximumBuffer: Int?) -> [Fixed824] {
            var ramp = GainRamp(gain: Fixed824(0.25))
            var output = input
            var splitter = OutputStageRandom(seed: 42)
            output.withUnsafeMutableBufferPointer { buffer in
                var frame = 0
                for (index, event) in events.enumerated() {
                    event.apply(&ramp)
                    let end = index + 1 < events.count ? events[index + 1].frame : frames
                    let sizes = maximumBuffer.map { splitter.split(end - frame, maximum: $0) } ?? [end - frame]
                    for size in sizes {
                        ramp.apply(to: UnsafeMutableBufferPointer(rebasing: buffer[(frame * channels)..<((frame + size) * channels)]), channels: channels)
                        frame += size
                    }
                }
            }
            return output
        }
        let whole = run(maximumBuffer: nil)
        #expect(run(maximumBuffer: 700) == whole)
        #expect(run(maximumBuffer: 5) == whole)
        #expect(whole != input)
    }

    @Test func advanceSkipsFramesLikeProcessingThem() {
        for shape in [GainRamp.Shape.linear, .exponential] {
            var a = GainRamp(gain: Fixed824(0.9)), b = a
            a.ramp(to: Fixed824(0.05), frames: 1000, shape: shape)
            b.ramp(to: Fixed824(0.05), frames: 1000, shape: shape)
            _ = gains(&a, 321)
            b.advance(frames: 321)
            #expect(a == b)
            #expect(gains(&a, 800) == gains(&b, 800))
        }
    }

    @Test func rampLengthFromMilliseconds() {
        #expect(GainRamp.frames(milliseconds: 10, sampleRate: 48_000) == 480)
        #expect(GainRamp.frames(milliseconds: 2.9, sampleRate: 44_100) == 128)
        #expect(GainRamp.frames(milliseconds: 0, sampleRate: 48_000) == 1)
        #expect(GainRamp.frames(milliseconds: 5, sampleRate: 8_000) == 40)
    }

    @Test func fixedPointLog2AndExp2AgreeWithDouble() {
        let one = Double(1 << 48)
        for value in [1.0, 2.0, 0.5, 3.0, 127.99, 1.0 / 65536, 0.7071, 1.0000001] {
            let log = Double(FixedLog2.log2(UInt64(value * one)))
            #expect(abs(log / one - Foundation.log2(value)) < 1e-12, "log2(\(value))")
        }
        for exponent in [0.0, 1.0, -1.0, 0.5, -0.000123, 6.99, -16.0, 1e-9] {
            let (mantissa, shift) = FixedLog2.exp2(Int64((exponent * one).rounded()))
            let value = Double(mantissa) / pow(2, Double(shift))
            #expect(abs(value / Foundation.exp2(exponent) - 1) < 1e-13, "exp2(\(exponent))")
        }
    }
}
