/// What a play's completion receives, once, on the control thread that calls `SystemSoundPlayer.service()`.
public struct SystemSoundCompletion: Hashable, Sendable {
    /// The sound that was played.
    public let sound: SystemSoundID
    public let outcome: SystemSoundOutcome
    /// The device-timeline frame at which the play's last frame was rendered into the mix; nil when no
    /// audio was started (`.silent`).
    public let lastFrame: Int64?

    public init(sound: SystemSoundID, outcome: SystemSoundOutcome, lastFrame: Int64?) {
        self.sound = sound
        self.outcome = outcome
        self.lastFrame = lastFrame
    }
}

/// A play's completion handler.
public typealias SystemSoundCompletionHandler = @Sendable (SystemSoundCompletion) -> Void
