import Codec8_24
import HAL

/// Where a render lands on the device timeline: handed to every source and sink with each period.
public struct RenderTime: Sendable, Equatable {
    /// The device-timeline frame of the first frame of this period: frames the engine rendered (output) or
    /// captured (input) since its timeline began, counting frames the device lost to xruns.
    public var sampleTime: Int64
    /// The monotonic time at which that frame plays out of the codec (output, device latency included) or
    /// was captured by it (input), estimated from the PCM's own position and timestamp.
    public var hostTime: Timestamp

    public init(sampleTime: Int64, hostTime: Timestamp) {
        self.sampleTime = sampleTime
        self.hostTime = hostTime
    }
}

/// Something the output unit pulls once per period on the render thread: an output audio queue, the system
/// sounds. Implementations are final classes whose `render` never allocates, locks, logs or makes a system
/// call; everything they need is made in `prepare` on the control thread.
public protocol RenderSource: AnyObject {
    /// Channels the source renders: 1 or 2 (the mixer's input width).
    var renderChannels: Int { get }
    /// Control thread, before the source is attached: the engine's rate and the largest period it renders.
    func prepare(engineRate: Int, maximumFrames: Int) throws
    /// Render thread: writes `frames * renderChannels` interleaved 8.24 samples at the engine's rate into
    /// `buffer` (silence when it has nothing). Returns false when the source wrote silence and has nothing
    /// running, so the mixer may fade the input out and stop pulling it.
    func render(frames: Int, into buffer: UnsafeMutablePointer<Fixed824>, at time: RenderTime) -> Bool
}

/// Something the input unit feeds once per captured period on the render thread: an input audio queue.
/// Same rules as `RenderSource`.
public protocol CaptureSink: AnyObject {
    /// Control thread, before attaching: the engine's capture rate, channels and the largest period.
    func prepare(engineRate: Int, channels: Int, maximumFrames: Int) throws
    /// Render thread: takes `frames` interleaved 8.24 frames of `channels` channels captured at `time`.
    func capture(frames: Int, from samples: UnsafePointer<Fixed824>, channels: Int, at time: RenderTime)
}

/// What a queue or the system sounds need of the engine, on the control thread: attach and detach, and the
/// timeline. `RenderEngine` is the real one; tests may drive a source directly through `render`.
public protocol RenderHost: AnyObject, Sendable {
    /// The output unit's rate (the device's granted rate, or the manual-mode rate).
    var outputRate: Int { get }
    /// The input unit's rate and channels (nil without a capture device).
    var inputRate: Int? { get }
    var inputChannels: Int? { get }
    /// The largest period the engine renders.
    var maximumFrames: Int { get }
    /// The device timeline: frames rendered and played, with their times.
    var timeline: DeviceTimeline { get }
    /// Prepares `source` and adds it to the mix from the next period.
    func attach(_ source: RenderSource) throws
    /// Removes `source` after its next period (it has faded out by then if it was sounding).
    func detach(_ source: RenderSource)
    /// Prepares `sink` and feeds it captured frames from the next period.
    func attach(_ sink: CaptureSink) throws
    func detach(_ sink: CaptureSink)
    /// Why the capture device stopped delivering (it failed: unplugged, an I/O error); nil while it works.
    var inputFailure: String? { get }
}

extension RenderHost {
    public var inputFailure: String? { nil }
}
