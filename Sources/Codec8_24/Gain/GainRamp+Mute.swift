/// Mute as a ramp: muting fades to 0 and remembers the gain; unmuting fades back to it. Volume changes made
/// while muted are remembered (`ramp(to:)` updates `unmutedGain`) and heard on unmute, as a hardware mute
/// button behaves.
extension GainRamp {
    /// Fades to 0 over `frames` frames from the current gain. Does nothing when already muted.
    public mutating func mute(frames: Int, shape: Shape = .linear) {
        if isMuted { return }
        isMuted = true
        start(to: .zero, frames: frames, shape: shape)
    }

    /// Fades back to `unmutedGain` over `frames` frames from the current gain (which may be part way down
    /// a mute fade). Does nothing when not muted.
    public mutating func unmute(frames: Int, shape: Shape = .linear) {
        if !isMuted { return }
        isMuted = false
        start(to: unmutedGain, frames: frames, shape: shape)
    }
}
