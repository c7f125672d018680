import Codec8_24

/// What the control side tells the system-sound voices, through their command ring: plain numbers only (the
/// clip's sample pointer is an address the control side keeps alive until the play's end is reported).
struct VoiceCommand: BitwiseCopyable {
    enum Kind: UInt8, BitwiseCopyable {
        /// Start `samples` (`frames` frames of `channels`) as play `token`.
        case start
        /// Fade every sounding voice out (mute, or the session no longer allows system sounds).
        case fadeAll
    }

    var kind: Kind
    var token: UInt64
    var samples: UnsafePointer<Fixed824>?
    var frames: Int
    var channels: Int

    static func start(token: UInt64, clip: SoundClip) -> VoiceCommand {
        VoiceCommand(kind: .start, token: token, samples: UnsafePointer(clip.storage), frames: clip.frames,
                     channels: clip.channels)
    }

    static var fadeAll: VoiceCommand { VoiceCommand(kind: .fadeAll, token: 0, samples: nil, frames: 0, channels: 0) }
}

/// How a play ended, as the render thread saw it.
public enum SystemSoundOutcome: UInt8, Sendable, BitwiseCopyable {
    /// Every frame of the sound was rendered.
    case played
    /// A newer sound took its voice (all voices were busy); it faded out first.
    case stolen
    /// Faded out because sounds were muted or the session stopped allowing them.
    case stopped
    /// No audio was started: muted, not allowed by the session, or the vibrate ID.
    case silent
}

/// The render thread's report that play `token` ended: its last frame was rendered (written to the mix) at
/// device-timeline frame `lastFrame`.
struct VoiceReport: BitwiseCopyable {
    var token: UInt64
    var outcome: SystemSoundOutcome
    var lastFrame: Int64
}
