/// An opened PCM stream, one direction, in the format the device granted (`parameters`).
///
/// The render thread owns I/O (`write`/`read`/`wait`, and the transport calls); any thread may read
/// `xruns`, `state` and `framePosition()`. Frames are interleaved, in the device format, whole frames only.
///
/// Timing is the device's own: `framePosition()` counts frames the device has played (playback: frames
/// written minus the ones still queued) or captured (capture: frames read plus the ones waiting), so
/// a render engine can schedule against the DAC clock rather than wall time.
public protocol PCMDevice: AnyObject, Sendable {
    /// The name it was opened by (an ALSA PCM name, or a simulated device's name).
    var name: String { get }
    var direction: PCMDirection { get }
    /// What the device granted; may differ from what was asked in period and buffer sizes.
    var parameters: PCMParameters { get }
    /// What the device offered before anything was chosen.
    var capabilities: PCMCapabilities { get }
    /// Whether `pause`/`resume` work on this device (many I2S drivers cannot pause).
    var canPause: Bool { get }
    /// Underruns/overruns and suspends, counted as they are recovered.
    var xruns: PCMXruns { get }
    /// The stream's state now.
    var state: PCMState { get }

    /// Writes interleaved device-format frames; returns the frames written. Blocking: waits for room
    /// and writes all. Non-blocking: writes what fits now (0 if none). Recovers xruns unless configured not to.
    func write(_ frames: UnsafeRawBufferPointer) throws(PCMError) -> Int
    /// Reads interleaved device-format frames into `frames`; returns the frames read (same blocking rules).
    func read(into frames: UnsafeMutableRawBufferPointer) throws(PCMError) -> Int
    /// Waits until at least a period can move, or `timeout` passes (`nil`: no limit). True when ready.
    func wait(timeout: Duration?) throws(PCMError) -> Bool

    /// Frames that can be written (playback) or read (capture) without waiting.
    func available() throws(PCMError) -> Int
    /// Frames between the application and the converter: queued to play, or captured and not yet read.
    func delay() throws(PCMError) -> Int
    /// The running frame position on the device clock (see the type's notes), with the monotonic time it
    /// refers to. Safe from any thread, also while another thread closes the stream (it then throws
    /// `.badState(..., .closed)`).
    func framePosition() throws(PCMError) -> PCMFramePosition

    /// Starts the stream now instead of at the start threshold.
    func start() throws(PCMError)
    /// Stops at once, discarding queued frames; the stream is prepared again for new frames.
    func drop() throws(PCMError)
    /// Playback: plays out what is queued, then stops (blocks until then) and is prepared again.
    /// Capture: stops capturing and keeps what was captured (alsa-lib's snd_pcm_drain: "for capture stop
    /// PCM permitting to retrieve residual frames"): the state is `.draining` while that tail is left,
    /// `read` returns it and then 0 frames (end of stream), and the state is `.setup`; `drop()` prepares
    /// the stream for a new capture.
    func drain() throws(PCMError)
    /// Freezes a running stream where it is; throws `.unsupported` when the device cannot.
    func pause() throws(PCMError)
    /// Continues a paused stream.
    func resume() throws(PCMError)
    /// Recovers from `.xrun` or `.suspended` (for streams that do not recover by themselves); rethrows others.
    func recover(from error: PCMError) throws(PCMError)
    /// Releases the device; later calls throw `.badState(..., .closed)`.
    func close()
}

extension PCMDevice {
    /// Writes 16-bit samples (format S16_LE); `samples.count` is frames times channels.
    @inlinable
    public func write(_ samples: UnsafeBufferPointer<Int16>) throws(PCMError) -> Int {
        precondition(parameters.format == .s16LE, "Int16 samples need S16_LE, the stream is \(parameters.format)")
        return try write(UnsafeRawBufferPointer(samples))
    }

    /// Writes 32-bit containers (format S32_LE, or S24_LE with the sample in the low 24 bits).
    @inlinable
    public func write(_ samples: UnsafeBufferPointer<Int32>) throws(PCMError) -> Int {
        precondition(parameters.format == .s32LE || parameters.format == .s24LE,
                     "Int32 samples need S32_LE or S24_LE, the stream is \(parameters.format)")
        return try write(UnsafeRawBufferPointer(samples))
    }

    /// Writes float samples (format FLOAT_LE).
    @inlinable
    public func write(_ samples: UnsafeBufferPointer<Float>) throws(PCMError) -> Int {
        precondition(parameters.format == .float32LE, "Float samples need FLOAT_LE, the stream is \(parameters.format)")
        return try write(UnsafeRawBufferPointer(samples))
    }

    /// Reads 16-bit samples (format S16_LE); returns frames read.
    @inlinable
    public func read(into samples: UnsafeMutableBufferPointer<Int16>) throws(PCMError) -> Int {
        precondition(parameters.format == .s16LE, "Int16 samples need S16_LE, the stream is \(parameters.format)")
        return try read(into: UnsafeMutableRawBufferPointer(samples))
    }

    /// Reads 32-bit containers (format S32_LE or S24_LE); returns frames read.
    @inlinable
    public func read(into samples: UnsafeMutableBufferPointer<Int32>) throws(PCMError) -> Int {
        precondition(parameters.format == .s32LE || parameters.format == .s24LE,
                     "Int32 samples need S32_LE or S24_LE, the stream is \(parameters.format)")
        return try read(into: UnsafeMutableRawBufferPointer(samples))
    }

    /// Reads float samples (format FLOAT_LE); returns frames read.
    @inlinable
    public func read(into samples: UnsafeMutableBufferPointer<Float>) throws(PCMError) -> Int {
        precondition(parameters.format == .float32LE, "Float samples need FLOAT_LE, the stream is \(parameters.format)")
        return try read(into: UnsafeMutableRawBufferPointer(samples))
    }
}
