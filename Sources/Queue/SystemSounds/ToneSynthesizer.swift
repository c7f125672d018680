import Codec8_24

/// Renders a `SoundDesign` to mono 8.24 samples at a given rate, deterministically: integer phase
/// accumulators, an integer sine (`FixedSine`) and integer envelopes, so the same design and rate give the
/// same bits on every machine. Control side (it allocates the result); sounds are made once, at load time.
public enum ToneSynthesizer {
    /// Frames in `duration` at `sampleRate`, rounded to nearest.
    public static func frames(_ duration: Duration, sampleRate: Int) -> Int {
        Int((duration.nanoseconds * Int64(sampleRate) + 500_000_000) / 1_000_000_000)
    }

    /// The design's samples at `sampleRate` (mono, `frames(design.length)` long; tones past the end are cut).
    public static func render(_ design: SoundDesign, sampleRate: Int) -> [Fixed824] {
        let total = frames(design.length, sampleRate: sampleRate)
        var mix = [Int64](repeating: 0, count: total)
        for segment in design.segments {
            add(segment, sampleRate: sampleRate, into: &mix)
        }
        return mix.map { Fixed824.saturating($0) }
    }

    /// Adds one segment, in 8.24 raw units (Q24), to `mix`.
    static func add(_ segment: ToneSegment, sampleRate: Int, into mix: inout [Int64]) {
        // Start and end are rounded separately, so back-to-back segments tile without a gap or overlap.
        let first = frames(segment.start, sampleRate: sampleRate)
        let count = min(frames(segment.end, sampleRate: sampleRate), mix.count) - first
        guard count > 2, first >= 0 else { return }
        let envelope = Envelope(frames: count,
                                attack: frames(segment.attack, sampleRate: sampleRate),
                                release: frames(segment.release, sampleRate: sampleRate))
        let partials = Self.partials(of: segment, sampleRate: sampleRate)
        let amplitude = Int64(segment.amplitude.raw)
        var phase: UInt32 = 0
        let step = FixedSine.phaseIncrement(hertz: segment.hertz, sampleRate: sampleRate)
        for k in 0..<count {
            var wave: Int64 = 0   // Q30
            for (harmonic, weight) in partials {
                // The harmonic's phase is exactly `harmonic` times the fundamental's (mod one turn).
                let value = FixedSine.value(phase: phase &* harmonic)
                wave &+= (value &* weight) &>> 30
            }
            let shaped = (wave &* envelope.gain(at: k)) &>> 30                    // Q30
            mix[first + k] &+= Fixed824.roundingShift(shaped &* amplitude, by: 30)   // Q24
            phase &+= step
        }
    }

    /// (harmonic number, weight in Q30) pairs for the segment's waveform.
    static func partials(of segment: ToneSegment, sampleRate: Int) -> [(UInt32, Int64)] {
        switch segment.waveform {
        case .sine:
            return [(1, 1 << 30)]
        case .square(let limit):
            let ceiling = min(limit, sampleRate / 2)
            var result: [(UInt32, Int64)] = []
            var harmonic = 1
            while harmonic == 1 || harmonic * segment.hertz < ceiling {
                result.append((UInt32(harmonic), (Int64(1 << 30) + Int64(harmonic / 2)) / Int64(harmonic)))
                harmonic += 2
            }
            return result
        }
    }
}

/// A linear attack from 0 and a linear release to 0 over a segment of `frames` frames: gain k/A for the
/// first A frames, (frames−1−k)/R for the last R, 1 between. The first and last frames are exactly 0 and no
/// frame-to-frame step exceeds 1/min(A, R).
struct Envelope {
    let frames: Int
    let attack: Int
    let release: Int

    init(frames: Int, attack: Int, release: Int) {
        self.frames = frames
        var attack = max(1, attack)
        var release = max(1, release)
        // Too short for both ramps: split the segment between them (it becomes a triangle).
        if attack + release > frames - 1 {
            attack = max(1, (frames - 1) / 2)
            release = max(1, frames - 1 - attack)
        }
        self.attack = attack
        self.release = release
    }

    /// The gain of frame `k` in Q30.
    func gain(at k: Int) -> Int64 {
        if k < attack { return (Int64(k) << 30) / Int64(attack) }
        let fromEnd = frames - 1 - k
        if fromEnd < release { return (Int64(fromEnd) << 30) / Int64(release) }
        return 1 << 30
    }
}
