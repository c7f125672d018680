/// The settings that decide what a play does: the silent switch, the vibrate setting, and whether the
/// session's category lets system sounds sound (the session decides; the player only takes its answer).
public struct SystemSoundSettings: Hashable, Sendable {
    /// The silent switch or mute setting: no system-sound audio (alerts still pulse the line).
    public var muted: Bool
    /// Alerts and the vibrate ID pulse the alert line.
    public var vibrate: Bool
    /// The audio session allows system sounds to mix in (the reference's default: always).
    public var allowed: Bool

    public init(muted: Bool = false, vibrate: Bool = true, allowed: Bool = true) {
        self.muted = muted
        self.vibrate = vibrate
        self.allowed = allowed
    }

    /// Whether system-sound audio may sound at all.
    public var audible: Bool { !muted && allowed }

    /// What one play does, from the reference's rules (core-audio-iphone-2008.md 1.1, behaviour 23): a
    /// normal sound is silent when muted; an alert also pulses the line when vibrate is on, muted or not (as
    /// the phone in silent mode only vibrates); the vibrate ID only pulses. The session's answer governs audio
    /// only: the pulse is not sound.
    public func plan(alert: Bool, sound: SystemSoundID) -> (audio: Bool, pulse: Bool) {
        let isVibrate = sound == .vibrate
        return (audio: !isVibrate && audible, pulse: (alert || isVibrate) && vibrate)
    }
}
