import HAL
import Synchronization

/// The engine's timeline, which is the device clock: how many frames the output unit has rendered, how many
/// of them the codec has played, and when. The render thread writes it once a period (from the PCM's
/// frame position and delay); any thread reads it. Completion stages ("rendered", "played out of the codec")
/// and a queue's current time are read against it.
public final class DeviceTimeline: @unchecked Sendable {
    /// Frames per second of the timeline.
    public let sampleRate: Int
    private let rendered = Atomic<Int64>(0)
    private let played = Atomic<Int64>(0)
    private let playedAtNanoseconds = Atomic<Int64>(0)

    public init(sampleRate: Int) { self.sampleRate = sampleRate }

    /// Frames the output unit has rendered and handed to the device (the next period starts here).
    public var renderedFrames: Int64 { rendered.load(ordering: .acquiring) }
    /// Frames that have played out of the codec, at the reading's time `playedAt`.
    public var playedFrames: Int64 { played.load(ordering: .acquiring) }
    public var playedAt: Timestamp { Timestamp(nanoseconds: playedAtNanoseconds.load(ordering: .acquiring)) }

    /// Render thread: a period of `frames` was handed to the device.
    public func didRender(frames: Int) { rendered.add(Int64(frames), ordering: .releasing) }

    /// Render thread (or manual mode): the device had played `frames` frames at `time`.
    public func didPlay(through frames: Int64, at time: Timestamp) {
        playedAtNanoseconds.store(time.nanoseconds, ordering: .relaxed)
        played.store(frames, ordering: .releasing)
    }

    /// The estimated monotonic time at which timeline frame `sampleTime` plays (from the last reading).
    public func hostTime(ofSample sampleTime: Int64) -> Timestamp {
        let offset = sampleTime - playedFrames
        return playedAt + .nanoseconds(offset * 1_000_000_000 / Int64(max(sampleRate, 1)))
    }
}
