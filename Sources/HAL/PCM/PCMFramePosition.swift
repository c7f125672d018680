/// A stream's frame position and the monotonic time it refers to, read together (one `snd_pcm_status`
/// on ALSA), so a render engine can map device frames to `CLOCK_MONOTONIC` without a second reading
/// drifting away from the first.
public struct PCMFramePosition: Hashable, Sendable, CustomStringConvertible {
    /// Frames the device has played (playback) or captured (capture) since the stream was opened,
    /// counting frames lost to xruns as the device clock ran on.
    public var frame: Int64
    /// When the device was at `frame`, on the monotonic clock.
    public var time: Timestamp

    public init(frame: Int64, time: Timestamp) {
        self.frame = frame
        self.time = time
    }

    public var description: String { "frame \(frame) at \(time)" }
}
