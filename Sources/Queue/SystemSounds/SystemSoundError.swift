import Codec8_24
import HAL

/// Why a system sound could not be registered, played or disposed: what was wrong and what to do about it.
public enum SystemSoundError: Error, Sendable, CustomStringConvertible {
    /// The clip lasts `frames` frames at `sampleRate`: 30 s or more (the reference's limit for system sounds).
    case tooLong(frames: Int64, sampleRate: Int)
    /// The clip has no frames.
    case empty
    /// System sounds are mono or stereo.
    case unsupportedChannels(Int)
    /// The clip's rate differs from the engine's and one of them is not a rate the converter handles.
    case unsupportedRate(clip: Int, engine: Int)
    /// The sample buffer does not hold whole frames of the given channel count.
    case partialFrame(samples: Int, channels: Int)
    /// The file could not be read or decoded.
    case file(AudioFileError)
    /// No registered sound has this ID (never registered, or disposed).
    case unknownSound(SystemSoundID)
    /// The reserved vibrate ID names no sound: it cannot be disposed.
    case reservedSound(SystemSoundID)
    /// The player's sounds were decoded at one rate and an engine at another tried to attach them.
    case engineRateMismatch(player: Int, engine: Int)
    /// The command ring to the render thread is full: the render thread is not running or is far behind.
    case renderThreadBehind
    /// The alert line (LED, buzzer or vibration motor) could not be driven; the sound itself still plays.
    case indicator(GPIOError)

    public var description: String {
        switch self {
        case .tooLong(let frames, let rate):
            let seconds = Double(frames) / Double(max(rate, 1))
            return "a system sound must be shorter than 30 s; this one lasts \(seconds) s (\(frames) frames at "
                + "\(rate) Hz). Play long sounds through an audio queue, or trim the clip."
        case .empty:
            return "the clip has no frames: a system sound needs at least one."
        case .unsupportedChannels(let channels):
            return "a system sound is mono or stereo, not \(channels) channels: mix the clip down first."
        case .unsupportedRate(let clip, let engine):
            let rates = StandardSampleRate.allCases.map { String($0.hertz) }.joined(separator: ", ")
            return "cannot convert the clip's \(clip) Hz to the engine's \(engine) Hz: both must be one of \(rates)."
        case .partialFrame(let samples, let channels):
            return "\(samples) samples are not whole frames of \(channels) channels."
        case .file(let error):
            return "cannot load the system sound: \(error)"
        case .unknownSound(let id):
            return "no system sound has ID \(id): it was never registered or was already disposed."
        case .reservedSound(let id):
            return "\(id) is the reserved vibrate ID, not a registered sound: there is nothing to dispose."
        case .engineRateMismatch(let player, let engine):
            return "the system sounds were decoded at \(player) Hz but the engine runs at \(engine) Hz: make the "
                + "player with the engine's output rate."
        case .renderThreadBehind:
            return "too many sound starts are waiting for the render thread: is the engine running?"
        case .indicator(let error):
            return "the alert line could not be driven (the sound still plays): \(error)"
        }
    }
}
