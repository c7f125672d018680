import Codec8_24
import HAL

/// The output's own fade, applied to device-format frames after the chain: in after an underrun (so the
/// sound comes back without a step after the gap) and out when the engine stops. Linear over a few ms: a
/// fade of N frames moves the gain by 1/N per frame (`GainRamp`), so no sample steps by more than that
/// fraction of full scale beyond what the music itself does.
struct OutputFade {
    private var ramp = GainRamp(gain: .one)

    /// Whether the gain is at unity and settled (nothing to do).
    var isIdle: Bool { !ramp.isRamping && ramp.gain == .one }
    /// Whether a fade-out has reached silence.
    var isSilent: Bool { !ramp.isRamping && ramp.gain == .zero }

    /// Starts from silence and rises to unity over `frames`.
    mutating func fadeIn(frames: Int) {
        ramp = GainRamp(gain: .zero)
        ramp.ramp(to: .one, frames: frames)
    }

    /// Falls from the current gain to silence over `frames`.
    mutating func fadeOut(frames: Int) {
        ramp.ramp(to: .zero, frames: frames)
    }

    /// Applies the fade to `frames` interleaved frames of `channels` in `format` at `bytes`.
    mutating func apply(to bytes: UnsafeMutableRawPointer, frames: Int, channels: Int, format: PCMSampleFormat) {
        if isIdle { return }
        let count = frames * channels
        switch format {
        case .s16LE: apply(bytes.bindMemory(to: Int16.self, capacity: count), frames: frames, channels: channels)
        case .s24LE: apply(bytes.bindMemory(to: Int24In32.self, capacity: count), frames: frames, channels: channels)
        case .s32LE: apply(bytes.bindMemory(to: Int32.self, capacity: count), frames: frames, channels: channels)
        case .float32LE: apply(bytes.bindMemory(to: Float.self, capacity: count), frames: frames, channels: channels)
        }
    }

    private mutating func apply<Sample: LinearPCMSample>(_ samples: UnsafeMutablePointer<Sample>, frames: Int, channels: Int) {
        var index = 0
        for _ in 0..<frames {
            let gain = ramp.nextGain()
            for _ in 0..<channels {
                samples[index] = Sample(samples[index].fixed824 * gain)
                index &+= 1
            }
        }
    }
}
