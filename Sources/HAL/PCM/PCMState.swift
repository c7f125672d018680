/// A PCM stream's state, as ALSA names them (`snd_pcm_state`).
public enum PCMState: String, Hashable, Sendable, CustomStringConvertible {
    /// Opened, parameters not set (a stream handed out is never in this state).
    case open
    /// Parameters set, not ready for I/O (after a drain or drop on the real device before preparing).
    case setup
    /// Ready: playback accepts frames and starts at the start threshold; capture starts on the first read.
    case prepared
    case running
    /// An underrun (playback) or overrun (capture) stopped the stream until it is recovered.
    case xrun
    /// Playing out what is queued, then stopping.
    case draining
    case paused
    /// The system suspended the device; resume or prepare to continue.
    case suspended
    /// The device is gone (unplugged); nothing will bring this handle back.
    case disconnected
    /// Closed by `close()`; the handle is spent.
    case closed

    public var description: String { rawValue }
}
