import Foundation
import Testing
@testable import Codec8_24

/// The running EQ: preset crossfades and streaming.
@Suite("Equalizer")
struct EqualizerTests {
    static let rate = 48_000.0

    /// Music-like stereo test signal: bass, mid and treble sines plus a little noise, different per channel.
    static func programme(frames: Int) -> [Fixed824] {
        let bass = sine(count: frames, frequency: 55, sampleRate: rate, amplitude: 0.3)
        let mid = sine(count: frames, frequency: 440, sampleRate: rate, amplitude: 0.2, phase: 1)
        let treble = sine(count: frames, frequency: 3_500, sampleRate: rate, amplitude: 0.08, phase: 2)
        let hiss = noise(count: frames * 2, amplitude: 0.01, seed: 21)
        var out = [Fixed824](repeating: .zero, count: frames * 2)
        for f in 0..<frames {
            out[2 * f] = bass[f] + mid[f] + treble[f] + hiss[2 * f]
            out[2 * f + 1] = bass[f] - mid[f] + treble[f] + hiss[2 * f + 1]
        }
        return out
    }

    /// Runs `input` through an equalizer, switching from `from` to `to` before frame `switchFrame`.
    static func run(_ input: [Fixed824], from: EQPreset, to: EQPreset?, switchFrame: Int, chunk: Int = 256) -> [Fixed824] {
        let eq = Equalizer(channels: 2, sampleRate: rate, preset: from)
        var samples = input
        let frames = input.count / 2
        samples.withUnsafeMutableBufferPointer { buffer in
            var frame = 0
            while frame < frames {
                if frame == switchFrame, let to { eq.setPreset(to) }
                let limit = frame < switchFrame ? switchFrame : frames
                let n = min(chunk, limit - frame)
                eq.process(buffer.baseAddress! + 2 * frame, frames: n)
                frame += n
            }
        }
        return samples
    }

    static func maxStep(_ x: [Fixed824], channel: Int, frames: Range<Int>) -> Double {
        var worst = 0.0
        for f in frames where f > 0 {
            worst = max(worst, abs(x[2 * f + channel].doubleValue - x[2 * (f - 1) + channel].doubleValue))
        }
        return worst
    }

    static let pairs: [(String, String)] = [
        ("Bass Booster", "Bass Reducer"), ("Flat", "Rock"), ("Rock", "Flat"), ("Spoken Word", "Dance"),
        ("Treble Booster", "Small Speakers"), ("Loudness", "Classical"),
    ]

    @Test(arguments: 0..<pairs.count)
    func switchingPresetsCrossfadesWithoutAStep(pair: Int) {
        let (fromName, toName) = Self.pairs[pair]
        let from = EQPreset.named(fromName)!, to = EQPreset.named(toName)!
        let frames = 48_000
        let switchFrame = 12_345
        let input = Self.programme(frames: frames)
        let old = Self.run(input, from: from, to: nil, switchFrame: frames)
        let new = Self.run(input, from: to, to: nil, switchFrame: frames)
        let switched = Self.run(input, from: from, to: to, switchFrame: switchFrame)
        let fade = Int(0.010 * Self.rate)
        let window = (switchFrame - 100)..<(switchFrame + fade + 4_800)
        for channel in 0..<2 {
            // What the two responses themselves contain, plus the fade's own ramp: 1/fade of their difference.
            var difference = 0.0
            for f in window { difference = max(difference, abs(new[2 * f + channel].doubleValue - old[2 * f + channel].doubleValue)) }
            let bound = max(Self.maxStep(old, channel: channel, frames: window), Self.maxStep(new, channel: channel, frames: window))
                + difference / Double(fade) + 1.0 / 16_777_216
            let step = Self.maxStep(switched, channel: channel, frames: window)
            #expect(step <= bound, "\(fromName) -> \(toName), channel \(channel): step \(step), bound \(bound)")
        }
        // Before the switch: the old preset exactly. Half a second after: the new preset to within 1 LSB.
        #expect(Array(switched[..<(2 * switchFrame)]) == Array(old[..<(2 * switchFrame)]))
        let settled = 2 * (switchFrame + 24_000)
        let worst = zip(switched[settled...], new[settled...]).map { abs(Int64($0.raw) - Int64($1.raw)) }.max()!
        #expect(worst <= 1, "\(fromName) -> \(toName): \(worst) LSB after settling")
    }

    /// The step bound above is not vacuous: switching cascades abruptly (no fade, new cascade from rest)
    /// breaks it.
    @Test func anAbruptSwitchBreaksTheStepBound() {
        let from = EQPreset.named("Bass Booster")!, to = EQPreset.named("Bass Reducer")!
        let frames = 24_000, switchFrame = 12_345
        let input = Self.programme(frames: frames)
        let old = Self.run(input, from: from, to: nil, switchFrame: frames)
        let new = Self.run(input, from: to, to: nil, switchFrame: frames)
        let oldCascade = from.design(sampleRate: Self.rate).makeCascade(channels: 2)
        let newCascade = to.design(sampleRate: Self.rate).makeCascade(channels: 2)
        var abrupt = input
        abrupt.withUnsafeMutableBufferPointer { b in
            oldCascade.process(b.baseAddress!, frames: switchFrame)
            newCascade.process(b.baseAddress! + 2 * switchFrame, frames: frames - switchFrame)
        }
        let window = (switchFrame - 100)..<(switchFrame + 5_280)
        let bound = max(Self.maxStep(old, channel: 0, frames: window), Self.maxStep(new, channel: 0, frames: window))
        #expect(Self.maxStep(abrupt, channel: 0, frames: window) > 1.3 * bound)
    }

    @Test func aSecondRequestDuringAFadeFollowsIt() {
        let eq = Equalizer(channels: 2, sampleRate: Self.rate, preset: .flat)
        var buffer = Self.programme(frames: 4_800)
        eq.setPreset(EQPreset.named("Rock")!)
        buffer.withUnsafeMutableBufferPointer { b in eq.process(b.baseAddress!, frames: 100) }
        #expect(eq.isChangingPreset)
        eq.setPreset(EQPreset.named("Jazz")!)
        // 380 frames finish Rock's fade, then Jazz's starts and runs for 120 of its 480.
        buffer.withUnsafeMutableBufferPointer { b in eq.process(b.baseAddress! + 200, frames: 500) }
        #expect(eq.isChangingPreset)
        buffer.withUnsafeMutableBufferPointer { b in eq.process(b.baseAddress! + 1200, frames: 359) }
        #expect(eq.isChangingPreset)
        buffer.withUnsafeMutableBufferPointer { b in eq.process(b.baseAddress! + 1918, frames: 1) }
        #expect(!eq.isChangingPreset)
        #expect(eq.design == EQPreset.named("Jazz")!.design(sampleRate: Self.rate))
        #expect(eq.crossfadeFrames == 480)
    }

    @Test(arguments: [1, 2, 3, 8])
    func randomBufferSizesGiveBitIdenticalOutputAcrossASwitch(channels: Int) {
        let frames = 20_000, switchFrame = 7_001
        let input = noise(count: frames * channels, amplitude: 0.4, seed: UInt64(40 + channels))
        func render(randomChunks: Bool) -> [Fixed824] {
            let eq = Equalizer(channels: channels, sampleRate: Self.rate, preset: EQPreset.named("Latin")!)
            var random = SplitMix64(seed: 5)
            var samples = input
            samples.withUnsafeMutableBufferPointer { buffer in
                var frame = 0
                while frame < frames {
                    if frame == switchFrame { eq.setPreset(EQPreset.named("Small Speakers")!) }
                    let limit = frame < switchFrame ? switchFrame : frames
                    let n = randomChunks ? min(random.next(in: 0...700), limit - frame) : limit - frame
                    eq.process(buffer.baseAddress! + frame * channels, frames: n)
                    frame += n
                }
            }
            return samples
        }
        #expect(render(randomChunks: true) == render(randomChunks: false))
    }
}
