/// A cascade of Direct Form I biquads running on interleaved 8.24 audio of 1...8 channels, in place.
///
/// Each stage has its own state per channel. Samples enter the cascade widened to Q15.48 (`Int64`), times an
/// optional input gain (an EQ's pre-cut), pass every stage at that precision (see `BiquadKernel` for the
/// arithmetic) and are rounded and saturated back to 8.24 once, at the end; so the whole cascade adds about
/// half an LSB of rounding, not one per stage.
///
/// All memory (coefficients, state, a block-sized scratch buffer) is allocated at init; `process`
/// allocates nothing, takes no locks and makes no calls through existentials or closures. The work is done
/// in blocks of `blockFrames` frames, stage by stage, so each stage's coefficients and state sit in
/// registers for a whole block. Output is independent of how the stream is split into calls.
public final class BiquadCascade {
    /// Frames per internal block.
    public static let blockFrames = 128
    /// Fractional bits of the internal sample format (Q15.48).
    public static let wideFractionBits = 48
    /// The largest channel count.
    public static let maxChannels = 8

    /// Interleaved channels per frame.
    public let channels: Int
    /// The designs this cascade realises, in order.
    public let designs: [BiquadCoefficients]
    /// Number of stages.
    public let stageCount: Int
    /// The linear gain applied in front of the first stage.
    public let inputGain: Double

    let coefficients: UnsafeMutablePointer<BiquadFixedCoefficients>
    /// `stageCount × channels` states, stage-major.
    let states: UnsafeMutablePointer<BiquadState>
    /// `blockFrames × channels` wide samples.
    let scratch: UnsafeMutablePointer<Int64>
    /// `inputGain` in Q5.58, and whether it differs from 1.
    let inputGainQ58: Int64
    let hasInputGain: Bool

    /// A cascade of `stages` (applied in order) for `channels` interleaved channels, all state zero, with
    /// `inputGain` (linear, below 32) in front.
    public init(stages: [BiquadCoefficients], channels: Int, inputGain: Double = 1) {
        precondition((1...Self.maxChannels).contains(channels), "BiquadCascade supports 1...8 channels")
        self.channels = channels
        self.designs = stages
        stageCount = stages.count
        self.inputGain = inputGain
        inputGainQ58 = BiquadFixedCoefficients.quantize(inputGain)
        hasInputGain = inputGain != 1
        let stageCapacity = Swift.max(stages.count, 1)
        coefficients = .allocate(capacity: stageCapacity)
        for (index, stage) in stages.enumerated() {
            (coefficients + index).initialize(to: BiquadFixedCoefficients(stage))
        }
        states = .allocate(capacity: stageCapacity * channels)
        states.initialize(repeating: .zero, count: stageCapacity * channels)
        scratch = .allocate(capacity: Self.blockFrames * channels)
        scratch.initialize(repeating: 0, count: Self.blockFrames * channels)
    }

    deinit {
        coefficients.deallocate()
        states.deallocate()
        scratch.deallocate()
    }

    /// Forgets all history, as if the input had been silent forever.
    public func reset() {
        states.update(repeating: .zero, count: Swift.max(stageCount, 1) * channels)
    }

    /// The state of `stage` for `channel`, as the kernel keeps it (a bell stage keeps `e = y - x` in `y1`, `y2`).
    public func state(stage: Int, channel: Int) -> BiquadState {
        precondition(stage < stageCount && channel < channels)
        return states[stage * channels + channel]
    }

    /// The quantized coefficients of `stage`.
    public func fixedCoefficients(stage: Int) -> BiquadFixedCoefficients {
        precondition(stage < stageCount)
        return coefficients[stage]
    }

    /// Filters interleaved frames in place. `samples.count` must be a multiple of `channels`.
    public func process(_ samples: UnsafeMutableBufferPointer<Fixed824>) {
        guard let base = samples.baseAddress else { return }
        precondition(samples.count % channels == 0, "buffer is not a whole number of frames")
        process(base, frames: samples.count / channels)
    }

    /// Filters `frames` interleaved frames in place.
    public func process(_ samples: UnsafeMutablePointer<Fixed824>, frames: Int) {
        let stageCount = self.stageCount
        guard stageCount > 0 || hasInputGain, frames > 0 else { return }
        let channels = self.channels
        let scratch = self.scratch
        var block = samples
        var remaining = frames
        while remaining > 0 {
            let n = Swift.min(remaining, Self.blockFrames)
            let count = n &* channels
            widen(block, into: scratch, count: count)
            runStages(scratch, frames: n)
            Self.narrow(scratch, into: block, count: count)
            block += count
            remaining &-= n
        }
    }

    /// Every stage over `frames` frames of wide samples at `base`, in place.
    @inline(__always)
    func runStages(_ base: UnsafeMutablePointer<Int64>, frames n: Int) {
        var stage = 0
        while stage < stageCount {
            if stage &+ 1 < stageCount, coefficients[stage].isBell, coefficients[stage &+ 1].isBell {
                runBellTwoStages(stage, base, frames: n)
                stage &+= 2
            } else {
                runStage(stage, base, frames: n)
                stage &+= 1
            }
        }
    }

    /// One stage over `frames` frames of wide samples at `base`, every channel.
    @inline(__always)
    func runStage(_ stage: Int, _ base: UnsafeMutablePointer<Int64>, frames n: Int) {
        let channels = self.channels
        let c = coefficients[stage]
        let stageStates = states + stage &* channels
        var channel = 0
        if c.isBell {
            while channel &+ 1 < channels {
                BiquadKernel.runBellPair(
                    base + channel, frames: n, stride: channels, c,
                    &stageStates[channel], &stageStates[channel &+ 1])
                channel &+= 2
            }
            if channel < channels {
                BiquadKernel.runBellSingle(base + channel, frames: n, stride: channels, c, &stageStates[channel])
            }
        } else {
            while channel &+ 1 < channels {
                BiquadKernel.runPair(
                    base + channel, frames: n, stride: channels, c,
                    &stageStates[channel], &stageStates[channel &+ 1])
                channel &+= 2
            }
            if channel < channels {
                BiquadKernel.runSingle(base + channel, frames: n, stride: channels, c, &stageStates[channel])
            }
        }
    }

    /// Two consecutive bell stages in one skewed pass (`BiquadKernel+TwoStage`), every channel.
    @inline(__always)
    func runBellTwoStages(_ stage: Int, _ base: UnsafeMutablePointer<Int64>, frames n: Int) {
        let channels = self.channels
        let ca = coefficients[stage], cb = coefficients[stage &+ 1]
        let a = states + stage &* channels
        let b = a + channels
        var channel = 0
        while channel &+ 1 < channels {
            BiquadKernel.runBellTwoStagesPair(
                base + channel, frames: n, stride: channels, ca, cb,
                &a[channel], &a[channel &+ 1], &b[channel], &b[channel &+ 1])
            channel &+= 2
        }
        if channel < channels {
            BiquadKernel.runBellTwoStagesSingle(base + channel, frames: n, stride: channels, ca, cb, &a[channel], &b[channel])
        }
    }

    /// 8.24 to Q15.48 (exact).
    @inline(__always)
    static func widen(_ sample: Fixed824) -> Int64 {
        Int64(sample.raw) &<< (wideFractionBits - Fixed824.fractionBits)
    }

    /// Q15.48 to 8.24: round half up, saturate.
    @inline(__always)
    static func narrow(_ wide: Int64) -> Fixed824 {
        Fixed824.saturating(Fixed824.roundingShift(wide, by: wideFractionBits - Fixed824.fractionBits))
    }
}
