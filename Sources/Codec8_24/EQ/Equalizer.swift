/// The EQ as it runs on audio: a preset's cascade on interleaved 8.24 frames, with click-free preset changes.
///
/// Changing the preset crossfades: for `crossfadeFrames` frames (10 ms) the old and new cascades both run
/// and their outputs are mixed with a linear weight that steps per frame in Q2.30, then the old cascade is
/// dropped. The new cascade is primed as if it had been flat until the switch (`primeAsFlat`), so its own
/// output also starts without a step.
///
/// Threading: this is a single-threaded object for now. `setPreset`/`setCurve` (control side) design the
/// new coefficients and allocate the new cascade; the next `process` hands over and crossfades, without
/// allocating or freeing (replaced cascades are released on the next control-side call). The render
/// engine will put a lock-free single-producer/single-consumer handover between the two sides.
public final class Equalizer {
    public let channels: Int
    public let sampleRate: Double
    /// Length of a preset crossfade in frames (10 ms).
    public let crossfadeFrames: Int
    /// The design now playing (or being faded to).
    public internal(set) var design: EQDesign

    /// The cascade producing the output (the one being faded in, during a fade).
    var active: BiquadCascade
    /// The cascade being faded out, during a fade.
    var outgoing: BiquadCascade?
    /// Prepared by the control side, not yet started.
    var pending: BiquadCascade?
    /// Frames of the current fade already played.
    var fadePosition = 0
    /// Cascades retired by `process`, released by the next control-side call (so `process` never frees).
    /// Two slots suffice: a fade starts only after a control-side call, and at most one request waits.
    var retiredFirst: BiquadCascade?
    var retiredSecond: BiquadCascade?

    /// The old cascade's copy of the input during a fade.
    let fadeBuffer: UnsafeMutablePointer<Fixed824>
    /// The last two input frames per channel (Q15.48), for priming a new cascade.
    let history: UnsafeMutablePointer<Int64>
    /// Q2.30 weight added per crossfade frame.
    let weightStep: Int64

    static let weightBits = 30

    /// An equalizer for `channels` (1...8) interleaved channels at `sampleRate` (8000...96000 Hz),
    /// starting with `preset` (no fade).
    public init(channels: Int, sampleRate: Double, preset: EQPreset = .flat) {
        precondition((1...BiquadCascade.maxChannels).contains(channels), "Equalizer supports 1...8 channels")
        self.channels = channels
        self.sampleRate = sampleRate
        let fade = Swift.max(1, Int((0.010 * sampleRate).rounded()))
        crossfadeFrames = fade
        weightStep = ((Int64(1) << Self.weightBits) + Int64(fade / 2)) / Int64(fade)
        let design = preset.design(sampleRate: sampleRate)
        self.design = design
        active = design.makeCascade(channels: channels)
        fadeBuffer = .allocate(capacity: BiquadCascade.blockFrames * channels)
        fadeBuffer.initialize(repeating: .zero, count: BiquadCascade.blockFrames * channels)
        history = .allocate(capacity: 2 * channels)
        history.initialize(repeating: 0, count: 2 * channels)
    }

    deinit {
        fadeBuffer.deallocate()
        history.deallocate()
    }

    /// Whether a crossfade is running or waiting to start.
    public var isChangingPreset: Bool { outgoing != nil || pending != nil }

    /// Control side: switch to `preset`; the next `process` call starts the crossfade.
    public func setPreset(_ preset: EQPreset) {
        setCurve(preset.curve)
    }

    /// Control side: switch to any curve (graphic gains or parametric bands). If a crossfade is running,
    /// this one starts when it ends; a request not yet started is replaced.
    public func setCurve(_ curve: EQCurve) {
        retiredFirst = nil
        retiredSecond = nil
        let design = EQDesign(curve: curve, sampleRate: sampleRate)
        self.design = design
        pending = design.makeCascade(channels: channels)
    }

    /// Filters interleaved frames in place. `samples.count` must be a multiple of `channels`.
    public func process(_ samples: UnsafeMutableBufferPointer<Fixed824>) {
        guard let base = samples.baseAddress else { return }
        precondition(samples.count % channels == 0, "buffer is not a whole number of frames")
        process(base, frames: samples.count / channels)
    }

    /// Filters `frames` interleaved frames in place.
    public func process(_ samples: UnsafeMutablePointer<Fixed824>, frames: Int) {
        var block = samples
        var remaining = frames
        while remaining > 0 {
            if outgoing == nil, pending != nil { startFade() }
            var n = Swift.min(remaining, BiquadCascade.blockFrames)
            if let old = outgoing {
                n = Swift.min(n, crossfadeFrames - fadePosition)
                rememberHistory(block, frames: n)
                let count = n &* channels
                fadeBuffer.update(from: block, count: count)
                old.process(fadeBuffer, frames: n)
                active.process(block, frames: n)
                mix(into: block, frames: n)
                fadePosition &+= n
                if fadePosition >= crossfadeFrames { endFade() }
            } else {
                rememberHistory(block, frames: n)
                active.process(block, frames: n)
            }
            block += n &* channels
            remaining &-= n
        }
    }

    func startFade() {
        guard let next = pending else { return }
        next.primeAsFlat(history: history)
        outgoing = active
        active = next
        pending = nil
        fadePosition = 0
    }

    func endFade() {
        // Park the old cascade; freeing it here would put `free` on the render path.
        if retiredFirst == nil { retiredFirst = outgoing } else { retiredSecond = outgoing }
        outgoing = nil
    }

    /// `block = old + (new - old)·w`, with `w` rising by `weightStep` per frame, in Q2.30.
    func mix(into block: UnsafeMutablePointer<Fixed824>, frames: Int) {
        let channels = self.channels
        let fullWeight = Int64(1) << Self.weightBits
        let half = Int64(1) << (Self.weightBits - 1)
        for frame in 0..<frames {
            let w = Swift.min(Int64(fadePosition &+ frame &+ 1) &* weightStep, fullWeight)
            for channel in 0..<channels {
                let i = frame &* channels &+ channel
                let old = Int64(fadeBuffer[i].raw)
                let new = Int64(block[i].raw)
                block[i] = Fixed824.saturating(old &+ (((new &- old) &* w &+ half) &>> Self.weightBits))
            }
        }
    }

    /// Keeps the last two input frames (before filtering) for priming.
    func rememberHistory(_ block: UnsafeMutablePointer<Fixed824>, frames: Int) {
        let shift = BiquadCascade.wideFractionBits - Fixed824.fractionBits
        for channel in 0..<channels {
            let last = Int64(block[(frames &- 1) &* channels &+ channel].raw) &<< shift
            let previous = frames >= 2
                ? Int64(block[(frames &- 2) &* channels &+ channel].raw) &<< shift
                : history[2 &* channel]
            history[2 &* channel] = last
            history[2 &* channel &+ 1] = previous
        }
    }
}
