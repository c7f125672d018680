/// The stereo (multichannel) mixer of the first iPhone OS: N mono or stereo 8.24 inputs, each with a volume
/// and an enable, summed to one stereo 8.24 output with a master volume.
///
/// - Every volume, the enable and the master volume move through a `GainRamp`, so no change clicks.
///   Enable/disable is a linear fade of `rampFrames`; volume changes use `volumeRampShape`.
/// - A disabled input whose fade-out has finished is not read at all, as the iPhone mixer stops pulling a
///   disabled bus: ask `isPulled(input:)` before producing its audio. An input at volume 0 but enabled is
///   still read (its source keeps running, so its timeline keeps advancing).
/// - Mono inputs feed both output channels at the input's gain.
/// - Headroom: each input·gain product is kept in an `Int64` accumulator with 32 fraction bits (8.24 × 8.24
///   is 48 fraction bits, shifted down 16, which loses under 2^-8 LSB per input), so 64 inputs at the 8.24
///   maximum with +42 dB gains cannot overflow it. Sums that pass ±128 in between are carried exactly; the
///   only saturation is at the output, after the master gain, rounded to nearest.
///
/// Two ways to feed it, both allocation-free:
/// 1. Staging: fill `inputBuffer(i)` (owned by the mixer, sized at init for `maximumFrames`) for every input
///    that `isPulled`, then `render(frames:into:)`.
/// 2. Pointers: `render(frames:inputs:into:)` with one pointer per input (a caller-owned, preallocated
///    array), each to `frames × channels` interleaved samples; `nil` (or anything) for inputs not pulled.
///
/// Parameters are plain calls, not thread-safe: the render thread applies them between renders (e.g. after
/// reading atomics the control thread wrote), so a change always lands on a buffer boundary.
public final class Mixer {
    /// The most inputs a mixer can have (bounded so the accumulator's headroom is guaranteed).
    public static let maximumInputs = 64

    /// Number of inputs, fixed at init.
    public let inputCount: Int
    /// The largest `frames` a render accepts, and the staging buffers' size in frames.
    public let maximumFrames: Int
    /// Length of every ramp the mixer starts, in frames.
    public var rampFrames: Int
    /// Shape of volume ramps (enable/disable fades are always linear).
    public var volumeRampShape: GainRamp.Shape

    @usableFromInline let channelCounts: UnsafeMutablePointer<Int>
    @usableFromInline let ramps: UnsafeMutablePointer<GainRamp>
    @usableFromInline let stagingPointers: UnsafeMutablePointer<UnsafePointer<Fixed824>?>
    @usableFromInline let staging: UnsafeMutablePointer<Fixed824>
    @usableFromInline let stagingOffsets: UnsafeMutablePointer<Int>
    @usableFromInline let accumulator: UnsafeMutablePointer<Int64>
    @usableFromInline let pulledFrames: UnsafeMutablePointer<Int>
    @usableFromInline var master: GainRamp

    /// A mixer with one input per element of `inputChannels` (each 1 or 2), all enabled at unity volume.
    /// Allocates everything here; nothing afterwards.
    public init(
        inputChannels: [Int], maximumFrames: Int, rampFrames: Int = 128,
        volumeRampShape: GainRamp.Shape = .linear
    ) {
        precondition(!inputChannels.isEmpty && inputChannels.count <= Self.maximumInputs, "1...64 inputs")
        precondition(inputChannels.allSatisfy { $0 == 1 || $0 == 2 }, "inputs are mono or stereo")
        precondition(maximumFrames > 0, "maximumFrames must be positive")
        inputCount = inputChannels.count
        self.maximumFrames = maximumFrames
        self.rampFrames = rampFrames
        self.volumeRampShape = volumeRampShape
        channelCounts = .allocate(capacity: inputCount)
        ramps = .allocate(capacity: inputCount)
        stagingPointers = .allocate(capacity: inputCount)
        stagingOffsets = .allocate(capacity: inputCount)
        pulledFrames = .allocate(capacity: inputCount)
        pulledFrames.initialize(repeating: 0, count: inputCount)
        let totalSamples = inputChannels.reduce(0, +) * maximumFrames
        staging = .allocate(capacity: totalSamples)
        staging.initialize(repeating: .zero, count: totalSamples)
        accumulator = .allocate(capacity: 2 * maximumFrames)
        accumulator.initialize(repeating: 0, count: 2 * maximumFrames)
        var offset = 0
        for (input, channels) in inputChannels.enumerated() {
            (channelCounts + input).initialize(to: channels)
            (ramps + input).initialize(to: GainRamp(gain: .one))
            (stagingOffsets + input).initialize(to: offset)
            (stagingPointers + input).initialize(to: UnsafePointer(staging + offset))
            offset += channels * maximumFrames
        }
        master = GainRamp(gain: .one)
    }

    deinit {
        channelCounts.deallocate()
        ramps.deinitialize(count: inputCount)
        ramps.deallocate()
        stagingPointers.deallocate()
        stagingOffsets.deallocate()
        pulledFrames.deallocate()
        staging.deallocate()
        accumulator.deallocate()
    }

    // MARK: - Inputs

    /// 1 (mono) or 2 (stereo, interleaved).
    public func channelCount(input: Int) -> Int {
        precondition(input >= 0 && input < inputCount, "no such input")
        return channelCounts[input]
    }

    /// The mixer-owned buffer for `input`: `maximumFrames × channels` interleaved samples. Fill its first
    /// `frames × channels` before `render(frames:into:)`.
    public func inputBuffer(_ input: Int) -> UnsafeMutableBufferPointer<Fixed824> {
        precondition(input >= 0 && input < inputCount, "no such input")
        return UnsafeMutableBufferPointer(
            start: staging + stagingOffsets[input], count: channelCounts[input] * maximumFrames)
    }

    /// The input's volume (what it returns to when enabled), 0 ... +42 dB.
    public func volume(input: Int) -> Fixed824 {
        precondition(input >= 0 && input < inputCount, "no such input")
        return ramps[input].unmutedGain
    }

    /// Ramps the input to `volume` over `rampFrames` (remembered only, while the input is disabled).
    public func setVolume(_ volume: Fixed824, input: Int) {
        precondition(input >= 0 && input < inputCount, "no such input")
        ramps[input].ramp(to: volume, frames: rampFrames, shape: volumeRampShape)
    }

    /// The gain the input had on the last rendered frame (volume × enable fade).
    public func currentGain(input: Int) -> Fixed824 {
        precondition(input >= 0 && input < inputCount, "no such input")
        return ramps[input].gain
    }

    public func isEnabled(input: Int) -> Bool {
        precondition(input >= 0 && input < inputCount, "no such input")
        return !ramps[input].isMuted
    }

    /// Enables (fade in to the volume) or disables (fade out) the input over `rampFrames`.
    public func setEnabled(_ enabled: Bool, input: Int) {
        precondition(input >= 0 && input < inputCount, "no such input")
        if enabled {
            ramps[input].unmute(frames: rampFrames)
        } else {
            ramps[input].mute(frames: rampFrames)
        }
    }

    /// Whether the next render reads this input: false only for a disabled input whose fade-out is over.
    @inlinable
    public func isPulled(input: Int) -> Bool {
        precondition(input >= 0 && input < inputCount, "no such input")
        return !(ramps[input].isMuted && ramps[input].isSilent)
    }

    /// Frames read from `input` since init: it stops advancing while the input is disabled and faded out,
    /// as a render callback that is no longer called. For status displays and tests.
    public func framesPulled(input: Int) -> Int {
        precondition(input >= 0 && input < inputCount, "no such input")
        return pulledFrames[input]
    }

    // MARK: - Master

    /// The master volume (0 ... +42 dB), applied after the sum.
    public var masterVolume: Fixed824 { master.unmutedGain }

    /// Ramps the master volume over `rampFrames` with `volumeRampShape`.
    public func setMasterVolume(_ volume: Fixed824) {
        master.ramp(to: volume, frames: rampFrames, shape: volumeRampShape)
    }
}
