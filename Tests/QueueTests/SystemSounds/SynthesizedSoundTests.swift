import Codec8_24
import Foundation
import Testing
@testable import Queue

/// The built-in sounds, measured. The designed values (lengths, pitches, amplitudes) are the sound designs
/// of issue 12's brief (a 5 ms click, a three-beep alert, a rising two-tone record-start chirp, a falling
/// record-stop, a low double buzz for errors), as tabled in BuiltInSound's documentation; every measurement
/// is closed-form math done here in Double (a DFT bin, zero crossings, a sine's slope).
@Suite("Synthesized system sounds")
struct SynthesizedSoundTests {
    /// One tone of a design: where it sounds (ms) and its pitch.
    struct Tone { let from: Int; let to: Int; let hertz: Double; let pure: Bool }

    /// The designs: total length in ms, tones, peak amplitude of the fundamental.
    static let designs: [(BuiltInSound, Int, [Tone])] = [
        (.click, 5, [Tone(from: 0, to: 5, hertz: 2000, pure: true)]),
        (.alert, 420, [Tone(from: 0, to: 100, hertz: 1760, pure: true), Tone(from: 160, to: 260, hertz: 1760, pure: true),
                       Tone(from: 320, to: 420, hertz: 1760, pure: true)]),
        (.recordStart, 160, [Tone(from: 0, to: 70, hertz: 880, pure: true), Tone(from: 70, to: 160, hertz: 1320, pure: true)]),
        (.recordStop, 160, [Tone(from: 0, to: 70, hertz: 1320, pure: true), Tone(from: 70, to: 160, hertz: 880, pure: true)]),
        (.error, 370, [Tone(from: 0, to: 150, hertz: 220, pure: false), Tone(from: 220, to: 370, hertz: 220, pure: false)]),
    ]

    static func frames(ms: Int, rate: Int) -> Int { Int((Double(ms) * Double(rate) / 1000).rounded()) }

    /// |Σ x[n]·e^(−i2πfn/rate)|², the DFT at `hertz` over `x` (a single-bin Goertzel, written out).
    static func power(_ x: ArraySlice<Double>, hertz: Double, rate: Int) -> Double {
        var re = 0.0, im = 0.0
        for (n, value) in x.enumerated() {
            let angle = 2 * Double.pi * hertz * Double(n) / Double(rate)
            re += value * cos(angle)
            im -= value * sin(angle)
        }
        return re * re + im * im
    }

    static func zeroCrossings(_ x: ArraySlice<Double>) -> Int {
        var count = 0
        var last = 0.0
        for value in x where value != 0 {
            if last != 0 && (value > 0) != (last > 0) { count += 1 }
            last = value
        }
        return count
    }

    @Test(arguments: [48_000, 44_100])
    func eachSoundHasItsDesignedLengthPitchAndQuietEnds(rate: Int) {
        for (sound, length, tones) in Self.designs {
            let samples = ToneSynthesizer.render(sound.design, sampleRate: rate).map(\.doubleValue)
            #expect(samples.count == Self.frames(ms: length, rate: rate), "\(sound) length")
            // Starts and ends at exactly 0: no pop when it begins or ends.
            #expect(samples.first == 0 && samples.last == 0, "\(sound) ends")
            // Below full scale, with room to mix: the designs peak at 0.5 (sines) and below (the buzz).
            let peak = samples.map(abs).max() ?? 0
            #expect(peak <= 0.5 + 1.0 / 16_777_216, "\(sound) peak \(peak)")
            #expect(peak > 0.3, "\(sound) is audible (peak \(peak))")
            var covered = [Bool](repeating: false, count: samples.count)
            for tone in tones {
                let from = Self.frames(ms: tone.from, rate: rate), to = Self.frames(ms: tone.to, rate: rate)
                for index in from..<to { covered[index] = true }
                let window = samples[from..<to]
                // The designed pitch carries at least 10 times (10 dB) the power of tones 25 % either side.
                let at = Self.power(window, hertz: tone.hertz, rate: rate)
                for neighbour in [tone.hertz * 0.75, tone.hertz * 1.25] {
                    let beside = Self.power(window, hertz: neighbour, rate: rate)
                    #expect(at > 10 * beside, "\(sound) at \(tone.hertz) Hz vs \(neighbour) Hz")
                }
                // Each tone ends at 0 (its own envelope), so the next one starts without a step.
                #expect(samples[to - 1] == 0, "\(sound) tone ending at \(tone.to) ms")
                if tone.pure {
                    // A sine of f Hz crosses zero 2·f·T times in T seconds.
                    let expected = 2 * tone.hertz * Double(to - from) / Double(rate)
                    let counted = Double(Self.zeroCrossings(window))
                    #expect(abs(counted - expected) <= 2, "\(sound): \(counted) crossings, expected \(expected)")
                    // No step larger than a sine's steepest (2πf·a per second) plus the envelope's.
                    let attackFrames = Double(Self.frames(ms: 1, rate: rate)) / 2   // the shortest attack, 0.5 ms
                    let bound = 0.5 * (2 * Double.pi * tone.hertz / Double(rate) + 1 / attackFrames) + 1e-6
                    let steps = zip(window.dropFirst(), window).map { abs($0 - $1) }
                    #expect((steps.max() ?? 0) <= bound, "\(sound) step")
                }
            }
            // Between tones (the alert's and the buzz's gaps) there is silence.
            let gaps = samples.indices.filter { !covered[$0] }
            #expect(gaps.allSatisfy { samples[$0] == 0 }, "\(sound) gaps are silent")
        }
    }

    /// The click's attack: a linear rise from 0, so its first frames stay under amplitude·n/A (A = 0.5 ms).
    @Test func theClickRisesFromZeroWithoutAStep() {
        let rate = 48_000
        let samples = ToneSynthesizer.render(BuiltInSound.click.design, sampleRate: rate).map(\.doubleValue)
        let attack = 24   // 0.5 ms at 48 kHz
        for n in 0..<attack {
            #expect(abs(samples[n]) <= 0.5 * Double(n) / Double(attack) + 1e-7, "frame \(n)")
        }
    }

    /// The integer sine agrees with libm's within one 8.24 LSB everywhere (checked on 4097 phases over a turn).
    @Test func theIntegerSineMatchesLibm() {
        var worst = 0.0
        for step in 0...4096 {
            let phase = UInt32(truncatingIfNeeded: UInt64(step) * (1 << 32) / 4096 &+ UInt64(step * 7919))
            let value = Double(FixedSine.value(phase: phase)) / Double(1 << 30)
            let exact = sin(2 * Double.pi * Double(phase) / 4_294_967_296)
            worst = max(worst, abs(value - exact))
        }
        #expect(worst < 1.0 / 16_777_216, "worst error \(worst)")
    }
}
