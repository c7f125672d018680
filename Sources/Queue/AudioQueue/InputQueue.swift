import Codec8_24
import HAL
import Synchronization

/// An audio queue for recording (core-audio-iphone-2008.md 1.6): created with the data format wanted (linear
/// PCM, µ-law, A-law, IMA4), whatever the hardware captures; the caller allocates buffers from the queue and
/// enqueues them empty; the running queue fills each with whole packets and hands it to the callback on the
/// caller's callback thread, where it is typically written to a file and enqueued again (`RecordingWriter`).
///
/// Transport follows `AudioQueueTransport` with input meanings: start begins capturing (optionally at a
/// device sample time); pause holds (the partly filled buffer waits for the resume); stop ends the
/// recording and delivers everything captured, the partly filled buffer included, so no frame is lost;
/// reset discards what was captured but not yet delivered (the buffers stay enqueued). Is-running turns true
/// when the first frame after a start is captured and false at pause and stop, as the listeners are told.
///
/// When no empty buffer is enqueued the captured frames are dropped (the render thread never waits): the
/// queue counts them (`droppedFrames`, `overruns`) and tells its listeners.
///
/// One or two channels, as the output queue (a codec HAT's ADC is stereo; a wider capture keeps its first
/// two channels, a stereo capture into a mono queue is averaged).
public final class InputQueue: AudioQueueService, @unchecked Sendable {
    /// A filled buffer as the callback receives it.
    public struct RecordedBuffer: Sendable {
        public let buffer: AudioQueueBuffer
        /// Whole packets of the queue's format in `buffer.bytes`.
        public let packetCount: Int
        /// The recording's frame number of the buffer's first frame (frames dropped in an overrun count too,
        /// so a gap shows as a jump).
        public let startFrame: Int64
        /// When its first frame was captured, on the device timeline's monotonic clock.
        public let hostTime: Timestamp
    }

    public typealias Callback = @Sendable (InputQueue, RecordedBuffer) -> Void
    /// Told of a property's change on the callback thread, with the value it changed to.
    public typealias Listener = @Sendable (InputQueue, Change) -> Void
    public typealias RunningListener = @Sendable (InputQueue, Bool) -> Void

    public enum Change: Sendable, Hashable {
        /// Is-running turned true or false.
        case isRunning(Bool)
        /// Frames were dropped for want of an empty buffer since the last notice; the total so far.
        case droppedFrames(Int64)
    }

    public let format: StreamFormat
    public let callbackThread: AudioQueueCallbackThread
    /// Most buffers the queue allocates.
    public let maximumBuffers: Int
    private let host: RenderHost
    private let callback: Callback
    private let clock: MonotonicClock
    private let pool: AudioQueueBufferPool
    private let capture: InputQueueCapture

    private struct ControlState {
        var transport: AudioQueueTransport
        var enqueued: [Bool] = []
        var listeners: [(id: Int, listener: Listener)] = []
        var nextListenerID = 0
        var reportedDrops: Int64 = 0
        var disposed = false
        var failure: String?
    }

    private let control: Mutex<ControlState>

    /// Creates the queue and attaches its render side to `host`'s capture.
    /// - Parameters:
    ///   - format: the data format to record; linear PCM (8/16/24/32-bit integer, 32/64-bit float), µ-law,
    ///     A-law or Apple IMA4, at a standard rate when it differs from the hardware's.
    ///   - dither: TPDF dither when recording 16-bit integers (off: plain rounding).
    ///   - metering: whether the queue meters what it captures (`levels`).
    ///   - callback: called on `callbackThread` with each filled buffer.
    public init(format: StreamFormat, host: RenderHost, callbackThread: AudioQueueCallbackThread,
                maximumBuffers: Int = 16, dither: Bool = true, metering: Bool = true,
                clock: any MonotonicClock = SystemClock.shared, callback: @escaping Callback) throws(AudioQueueError) {
        guard let inputRate = host.inputRate, let inputChannels = host.inputChannels else {
            throw AudioQueueError(.system, "the engine has no capture device",
                                  hint: "open the engine with an input (a board with a codec ADC) before creating an input queue")
        }
        guard format.channelsPerFrame <= 2 else {
            throw AudioQueueError(.formatUnsupported, "cannot record \(format.channelsPerFrame)-channel data",
                                  hint: "an input queue records mono or stereo, as the codec's ADC delivers")
        }
        do {
            try InputFormatConverter.check(format: format, hardwareRate: inputRate, hardwareChannels: inputChannels)
        } catch {
            throw AudioQueueError(.formatUnsupported, "cannot record \(format): \(error.reason)",
                                  hint: "ask for linear PCM, mu-law, A-law or IMA4 at one of the standard rates")
        }
        guard maximumBuffers >= 1 else {
            throw AudioQueueError(.invalidValue, "an input queue needs room for at least one buffer, not \(maximumBuffers)",
                                  hint: "three or more are usual")
        }
        self.format = format
        self.host = host
        self.callbackThread = callbackThread
        self.callback = callback
        self.clock = clock
        self.maximumBuffers = maximumBuffers
        pool = AudioQueueBufferPool(capacity: maximumBuffers)
        capture = InputQueueCapture(format: format, maximumBuffers: maximumBuffers, dither: dither, metering: metering)
        control = Mutex(ControlState(transport: AudioQueueTransport(at: clock.now)))
        do {
            try host.attach(capture)
        } catch {
            throw AudioQueueError(.system, "the engine refused the input queue: \(error)", hint: "check the capture device")
        }
        callbackThread.add(self)
    }

    /// A queue dropped without `dispose` still leaves the engine.
    deinit {
        if !control.withLock({ $0.disposed }) { host.detach(capture) }
    }

    // MARK: - Buffers

    /// Bytes for whole packets covering at least `seconds` of the queue's format (Apple's "derive buffer
    /// size"): a good buffer size to allocate.
    public func bufferByteSize(forSeconds seconds: Double) -> Int {
        let frames = max(1, Int((seconds * format.sampleRate).rounded(.up)))
        let packets = (frames + format.framesPerPacket - 1) / format.framesPerPacket
        return packets * format.bytesPerPacket
    }

    /// A new buffer of `byteCapacity` bytes, owned by the queue. The queue fills it with whole packets, so it
    /// must hold at least one.
    public func allocateBuffer(byteCapacity: Int) throws(AudioQueueError) -> AudioQueueBuffer {
        try control.withLock { (state: inout ControlState) throws(AudioQueueError) -> AudioQueueBuffer in
            try Self.checkAlive(state, "allocate")
            guard byteCapacity >= format.bytesPerPacket else {
                throw AudioQueueError(.invalidBuffer,
                                      "a \(byteCapacity)-byte buffer cannot hold one \(format.bytesPerPacket)-byte packet of \(format.formatID)",
                                      hint: "use bufferByteSize(forSeconds:)")
            }
            let buffer = try pool.allocate(byteCapacity: byteCapacity, packetDescriptionCapacity: 0)
            capture.register(index: buffer.index, memory: buffer.audioData, capacity: byteCapacity)
            state.enqueued.append(false)
            return buffer
        }
    }

    /// Gives an empty buffer to the queue to fill. It comes back through the callback when full (or at stop).
    public func enqueue(_ buffer: AudioQueueBuffer) throws(AudioQueueError) {
        try control.withLock { (state: inout ControlState) throws(AudioQueueError) in
            try Self.checkAlive(state, "enqueue")
            guard pool.owns(buffer) else {
                throw AudioQueueError(.foreignBuffer, "enqueue: the buffer was not allocated by this queue",
                                      hint: "allocate buffers with allocateBuffer(byteCapacity:)")
            }
            guard !state.enqueued[buffer.index] else {
                throw AudioQueueError(.foreignBuffer, "enqueue: the buffer is already enqueued",
                                      hint: "enqueue it again once the callback has returned it")
            }
            buffer.byteSize = 0
            state.enqueued[buffer.index] = true
            capture.empties.push(Int32(buffer.index))   // room for every buffer: cannot fail
        }
    }

    // MARK: - Transport

    /// Starts capturing from the next period, or from device sample time `sampleTime`.
    public func start(at sampleTime: Int64? = nil) throws(AudioQueueError) {
        try handle(.start(at: sampleTime))
    }

    /// Accepted for symmetry with the output queue; an input queue has nothing to prepare.
    public func prime() throws(AudioQueueError) { try handle(.prime) }

    /// Stops capturing and keeps the position; start resumes.
    public func pause() throws(AudioQueueError) { try handle(.pause) }

    /// Ends the recording: what was captured, up to the last frame, is delivered to the callback.
    public func stop() throws(AudioQueueError) { try handle(.stop(immediately: true)) }

    /// Discards what was captured and not yet delivered; the transport state is kept.
    public func reset() throws(AudioQueueError) { try handle(.reset) }

    public var isRunning: Bool { control.withLock { $0.transport.isRunning } }
    /// Why the queue stopped by itself: the host's capture device failed (the queue stops, is-running false).
    public var failure: String? { control.withLock { $0.failure } }
    public var state: AudioQueueTransport.State { control.withLock { $0.transport.state } }

    private func handle(_ call: AudioQueueTransport.Call) throws(AudioQueueError) {
        let changed = try control.withLock { (state: inout ControlState) throws(AudioQueueError) -> Bool? in
            try Self.checkAlive(state, "\(call)")
            let now = clock.now
            var outcome = try state.transport.handle(call, at: now)
            for action in outcome.actions {
                switch action {
                case .begin(let at, _): capture.begin(at: at)
                case .fadeOutAndHold: capture.holdPosition()
                case .fadeOutAndDiscard(let keepRunning):
                    if keepRunning { capture.discardCaptured() } else { capture.finish() }
                case .discard:
                    if case .reset = call { capture.discardCaptured() } else { capture.finish() }
                case .decodeAhead, .playOut, .flush:
                    break   // nothing to prepare or hold back on input
                }
            }
            // Input has nothing to fade: a pause or stop is complete as soon as the render side is held.
            switch state.transport.state {
            case .pausing, .stopping:
                let report = state.transport.handle(.fadedOut, at: now)
                outcome.isRunningChanged = report.isRunningChanged ?? outcome.isRunningChanged
            default: break
            }
            return outcome.isRunningChanged
        }
        if let changed { notify(.isRunning(changed)) }
        // Deliver what a stop drained without waiting for the next poll.
        callbackThread.async { [self] in poll() }
    }

    // MARK: - Metering, time, counters

    /// Peak and average power per channel of the queue's format, in dBFS, over the last captured period;
    /// nil when the queue was made without metering.
    public var levels: [LevelMeter.Reading]? { capture.meteringEnabled ? capture.levels.readings : nil }
    /// Frames (queue format) dropped because no empty buffer was enqueued.
    public var droppedFrames: Int64 { capture.droppedFrames }
    /// Periods in which frames were dropped.
    public var overruns: Int { capture.overruns }
    /// Frames captured at the hardware's rate while running.
    public var capturedFrames: Int64 { capture.capturedFrames }
    /// Where the recording is: frames of the queue's format recorded so far (dropped ones included), and the
    /// device timeline just after the last captured frame.
    public var currentTime: AudioQueueTime {
        let last = capture.lastCapture
        return AudioQueueTime(sampleTime: capture.recordedFrameCount, deviceFrame: last.sampleTime, hostTime: last.hostTime)
    }

    // MARK: - Listeners

    /// Calls `listener` on the callback thread when is-running changes; returns an id for `removeListener`.
    @discardableResult
    public func addRunningListener(_ listener: @escaping RunningListener) -> Int {
        addListener { queue, change in if case .isRunning(let running) = change { listener(queue, running) } }
    }

    /// Calls `listener` on the callback thread when a property changes; returns an id for `removeListener`.
    @discardableResult
    public func addListener(_ listener: @escaping Listener) -> Int {
        control.withLock { state in
            state.nextListenerID += 1
            state.listeners.append((state.nextListenerID, listener))
            return state.nextListenerID
        }
    }

    public func removeListener(_ id: Int) {
        control.withLock { state in state.listeners.removeAll { $0.id == id } }
    }

    private func notify(_ change: Change) {
        let listeners = control.withLock { $0.listeners.map(\.listener) }
        callbackThread.async { [self] in for listener in listeners { listener(self, change) } }
    }

    // MARK: - Callback thread

    /// Collects the render side's reports now and delivers their callbacks on the callback thread, waiting
    /// until they have run (the thread also does this every poll interval).
    public func deliverCallbacks() {
        callbackThread.sync { [self] in poll() }
    }

    /// Callback thread: delivers what the render side reported, in order.
    func poll() {
        guard !control.withLock({ $0.disposed }) else { return }
        while let report = capture.reports.pop() {
            switch report {
            case .started(let sampleTime):
                let changed = control.withLock { state in
                    state.transport.handle(.started(at: sampleTime), at: clock.now).isRunningChanged
                }
                if let changed { notifyHere(.isRunning(changed)) }
            case .filled(let filled):
                let buffer: AudioQueueBuffer = control.withLock { state in
                    state.enqueued[Int(filled.index)] = false
                    return pool[Int(filled.index)]
                }
                buffer.byteSize = Int(filled.byteSize)
                callback(self, RecordedBuffer(buffer: buffer, packetCount: Int(filled.packets), startFrame: filled.startFrame,
                                              hostTime: Timestamp(nanoseconds: filled.hostNanoseconds)))
            }
        }
        let drops = capture.droppedFrames
        let newDrops = control.withLock { state in
            defer { state.reportedDrops = drops }
            return drops != state.reportedDrops
        }
        if newDrops { notifyHere(.droppedFrames(drops)) }
        // The capture device failed: no more frames will come, so the queue stops (is-running turns false).
        if let reason = host.inputFailure, control.withLock({ $0.transport.isRunning && $0.failure == nil }) {
            control.withLock { $0.failure = reason }
            try? stop()
        }
    }

    private func notifyHere(_ change: Change) {
        let listeners = control.withLock { $0.listeners.map(\.listener) }
        for listener in listeners { listener(self, change) }
    }

    // MARK: - Disposal

    private static func checkAlive(_ state: ControlState, _ call: String) throws(AudioQueueError) {
        if state.disposed { throw AudioQueueError(.disposed, "\(call): the queue is disposed", hint: "create a new queue") }
    }

    /// Stops the queue, detaches it from the engine and stops serving it; its buffers are not delivered again.
    public func dispose() {
        let wasDisposed = control.withLock { state in
            defer { state.disposed = true }
            return state.disposed
        }
        guard !wasDisposed else { return }
        capture.holdPosition()
        host.detach(capture)
        callbackThread.remove(self)
    }
}
