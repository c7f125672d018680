/// What the player state machine asks `PlaybackService` to do, in order.
enum PlayerAction: Hashable, Sendable {
    /// Open the playlist's track `track` (the file `file`) and play it from `from` seconds, or hold it ready
    /// there when `paused`. The service may already have queued it gaplessly behind the track that ended.
    case open(track: Int, file: String, from: Double, paused: Bool)
    /// Fade out and hold the position.
    case pause
    /// Fade back in from the held position.
    case resume
    /// Fade out and let go of the file.
    case stop
    /// Jump within the current file to this many seconds (already clamped to the file).
    case seek(to: Double)
    /// Keep (or, nil, forget) where a long file was left, in the settings.
    case remember(file: String, seconds: Double?)
    /// Tell listeners (`events on`).
    case event(ApplianceEvent)
}
