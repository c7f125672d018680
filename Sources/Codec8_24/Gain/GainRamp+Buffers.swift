/// Applying a ramp to interleaved audio: one gain per frame, the same for all its channels.
extension GainRamp {
    /// The widest interleaved layout the gain stages accept.
    public static let maximumChannels = 8

    /// Multiplies `buffer` (interleaved, `channels` 1...8, a whole number of frames) in place by the ramp,
    /// advancing it one step per frame. Products are rounded to nearest and saturated to the 8.24 range.
    /// A settled gain of exactly 1.0 leaves the buffer bit-exact; a settled 0 writes zeros.
    @inlinable
    public mutating func apply(to buffer: UnsafeMutableBufferPointer<Fixed824>, channels: Int) {
        precondition(channels >= 1 && channels <= Self.maximumChannels, "1...8 channels")
        precondition(buffer.count % channels == 0, "buffer must hold whole frames")
        guard let base = buffer.baseAddress else { return }
        let frames = buffer.count / channels
        var frame = 0
        // Ramping part: a fresh gain every frame.
        while frame < frames && remaining > 0 {
            let gain = Int64(nextGain().raw)
            let sample = base + frame &* channels
            for channel in 0..<channels {
                sample[channel] = Self.scaled(sample[channel], by: gain)
            }
            frame &+= 1
        }
        if frame == frames { return }
        // Settled part: a constant gain.
        let settled = gain.raw
        let rest = UnsafeMutableBufferPointer(rebasing: buffer[(frame &* channels)...])
        if settled == Fixed824.unityRaw { return }
        if settled == 0 {
            rest.update(repeating: .zero)
            return
        }
        let wideGain = Int64(settled)
        for index in rest.indices {
            rest[index] = Self.scaled(rest[index], by: wideGain)
        }
    }

    /// `sample · gain` (both 8.24), rounded to nearest and saturated.
    @inlinable @inline(__always)
    static func scaled(_ sample: Fixed824, by gain: Int64) -> Fixed824 {
        Fixed824.saturating(Fixed824.roundingShift(Int64(sample.raw) &* gain, by: Fixed824.fractionBits))
    }
}
