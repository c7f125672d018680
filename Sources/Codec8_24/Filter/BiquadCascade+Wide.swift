/// The cascade's own wide format (Q15.48 in `Int64`) in the open, so one cascade can be split across two
/// threads — the first stages on one core, the rest on another — without an 8.24 rounding in between: widen
/// with the first part's input gain, run each part with `processWide`, narrow once at the end, and the output
/// is bit-identical to `process` on the whole cascade.
extension BiquadCascade {
    /// 8.24 samples into the wide format, through this cascade's input gain. `count` is in samples.
    public func widen(_ samples: UnsafePointer<Fixed824>, into wide: UnsafeMutablePointer<Int64>, count: Int) {
        if hasInputGain {
            let gain = inputGainQ58
            for i in 0..<count { wide[i] = Self.scale(Self.widen(samples[i]), byQ58: gain) }
        } else {
            for i in 0..<count { wide[i] = Self.widen(samples[i]) }
        }
    }

    /// Every stage over `frames` interleaved frames of wide samples, in place. No input gain, no narrowing.
    public func processWide(_ wide: UnsafeMutablePointer<Int64>, frames: Int) {
        var block = wide
        var remaining = frames
        while remaining > 0 {
            let n = Swift.min(remaining, Self.blockFrames)
            runStages(block, frames: n)
            block += n &* channels
            remaining &-= n
        }
    }

    /// Wide samples back to 8.24: rounded, saturated. `count` is in samples.
    public static func narrow(_ wide: UnsafePointer<Int64>, into samples: UnsafeMutablePointer<Fixed824>, count: Int) {
        for i in 0..<count { samples[i] = narrow(wide[i]) }
    }

    /// Two fresh cascades, stages `0..<stage` (with this cascade's input gain) and `stage...` (unity gain),
    /// whose wide processing in sequence equals this cascade's.
    public func split(at stage: Int) -> (first: BiquadCascade, second: BiquadCascade) {
        precondition((0...stageCount).contains(stage), "split point outside the cascade")
        return (BiquadCascade(stages: Array(designs[..<stage]), channels: channels, inputGain: inputGain),
                BiquadCascade(stages: Array(designs[stage...]), channels: channels))
    }
}
