/// The output chain's fine volume: the part of a volume setting finer than the codec's steps. A codec
/// driver splits a level into its coarse stages and a remainder (a WM8960 makes -10.25 dB as -10 dB on the
/// output amplifier and leaves -0.25 dB), and this stage applies the remainder to the samples, so the level
/// the listener hears is the one asked for.
///
/// It takes the remainder as an 8.24 multiplier (`VolumeSetting.fineGain` in HAL), a plain number that may
/// cross to the render thread, and moves to it over `rampFrames` so a change does not click. Never a
/// boost: the remainder is at most 0 dB, and a larger gain is held at unity so this stage cannot clip.
@frozen
public struct FineGainStage: Sendable {
    /// The ramp that carries the gain from frame to frame.
    @usableFromInline var ramp: GainRamp
    /// Frames a change of fine gain takes (0: at once).
    public let rampFrames: Int

    /// A stage at unity that moves to each new fine gain over `rampFrames` frames.
    public init(rampFrames: Int = 0) {
        ramp = GainRamp(gain: .one)
        self.rampFrames = rampFrames
    }

    /// The fine gain the stage is at or heading for.
    public var fineGain: Fixed824 { ramp.target }

    /// Takes the fine gain a codec's volume split left for the 8.24 stage (0 mutes; above 1.0 is held at 1.0).
    public mutating func take(fineGain: Fixed824) {
        ramp.ramp(to: fineGain.raw > Fixed824.unityRaw ? .one : fineGain, frames: rampFrames)
    }

    /// Scales `buffer` (interleaved, `channels` 1...8) in place by the fine gain, rounding each product to
    /// nearest: a settled gain g turns a sample s into round(s · g) exactly.
    @inlinable
    public mutating func process(_ buffer: UnsafeMutableBufferPointer<Fixed824>, channels: Int) {
        ramp.apply(to: buffer, channels: channels)
    }
}
