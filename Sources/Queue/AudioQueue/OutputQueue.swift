import Codec8_24
import HAL

/// An output audio queue (Core Audio's `AudioQueueNewOutput`, core-audio-iphone-2008.md 1.5): the caller
/// allocates buffers from it, fills them with data in the queue's format (linear PCM of any supported
/// width, mu-law, A-law, Apple IMA4; 1 or 2 channels) and enqueues them; the queue plays them in order,
/// gaplessly, and hands each back through the callback on the caller's `AudioQueueCallbackThread`.
///
/// Transport: start (optionally at a device-timeline frame), prime, pause, stop (immediately, with a short
/// fade, or after what is enqueued has played), reset (discard, for seeking), flush (the data ends here);
/// the rules are `AudioQueueTransport`'s. Also: a queue volume (ramped), level metering, the current time on
/// the device timeline, is-running listeners, and three completion stages per buffer
/// (`AudioQueueBufferEvent`).
///
/// Threads: every method may be called from any control thread, including from the callback itself; none
/// blocks on the render thread. The render side (`OutputQueueRenderer`) is attached to the host at creation
/// and hears of every call through a lock-free ring; its reports are collected on the callback thread every
/// poll interval (or at once with `deliverCallbacks()`).
public final class OutputQueue: AudioQueueService, @unchecked Sendable {
    public typealias Callback = @Sendable (OutputQueue, AudioQueueBuffer, AudioQueueBufferEvent) -> Void
    public typealias RunningListener = @Sendable (OutputQueue, Bool) -> Void

    public let format: StreamFormat
    public let callbackThread: AudioQueueCallbackThread
    private let host: RenderHost
    private let renderer: OutputQueueRenderer
    private let callback: Callback
    private let clock: any MonotonicClock
    private let lock = Condition()
    // Guarded by `lock`:
    private let pool: AudioQueueBufferPool
    private var transport: AudioQueueTransport
    private var enqueued: [Bool] = []
    /// Rendered buffers waiting for the timeline to pass their last frame.
    private var awaitingPlay: [(index: Int, lastFrame: Int64)] = []
    private var listeners: [(token: Int, body: RunningListener)] = []
    private var nextToken = 1
    private var gain = 1.0
    private var disposed = false
    /// Callback thread only: a poll is delivering.
    private var polling = false

    /// The formats an output queue decodes (on the render thread, so only those `PacketCodec` decodes
    /// without allocating or failing on checked data).
    public static let supportedFormats: Set<AudioFormatID> = [.linearPCM, .muLaw, .aLaw, .appleIMA4]

    /// A queue for `format`, attached to `host` at once (silent until started). `maximumBuffers` bounds
    /// how many buffers it may allocate; `fadeMilliseconds` is the length of its pause, stop, reset and
    /// underrun fades.
    public init(format: StreamFormat, host: RenderHost, callbackThread: AudioQueueCallbackThread,
                maximumBuffers: Int = 16, fadeMilliseconds: Double = 5, metering: Bool = true,
                clock: any MonotonicClock = SystemClock.shared, callback: @escaping Callback) throws(AudioQueueError) {
        do { try format.validate() } catch {
            throw AudioQueueError(.formatUnsupported, "\(error)", hint: "describe the data the buffers will carry")
        }
        guard Self.supportedFormats.contains(format.formatID) else {
            throw AudioQueueError(.formatUnsupported, "an output queue cannot decode \(format.formatID) yet",
                                  hint: "use linear PCM, mu-law, A-law or Apple IMA4")
        }
        guard format.channelsPerFrame <= 2 else {
            throw AudioQueueError(.formatUnsupported, "\(format.channelsPerFrame)-channel data",
                                  hint: "an output queue plays mono or stereo; mix down to two channels first")
        }
        guard maximumBuffers > 0, fadeMilliseconds > 0, fadeMilliseconds <= 1000 else {
            throw AudioQueueError(.invalidValue, "\(maximumBuffers) buffers with \(fadeMilliseconds) ms fades",
                                  hint: "allow at least one buffer and a fade of a few ms")
        }
        self.format = format
        self.host = host
        self.callbackThread = callbackThread
        self.callback = callback
        self.clock = clock
        pool = AudioQueueBufferPool(capacity: maximumBuffers)
        transport = AudioQueueTransport(at: clock.now)
        renderer = try OutputQueueRenderer(format: format, pool: pool, commandCapacity: maximumBuffers + 64,
                                           fadeMilliseconds: fadeMilliseconds, metering: metering)
        do { try host.attach(renderer) } catch let error as AudioQueueError { throw error } catch {
            throw AudioQueueError(.system, "the engine refused the queue: \(error)",
                                  hint: "check the engine is prepared and has room for another source")
        }
        callbackThread.add(self)
    }

    deinit { if !disposed { host.detach(renderer) } }

    // MARK: Buffers

    /// A new buffer of `byteCapacity` bytes, with room for `packetDescriptionCapacity` packet descriptions
    /// in the same allocation.
    public func allocateBuffer(byteCapacity: Int, packetDescriptionCapacity: Int = 0) throws(AudioQueueError)
        -> AudioQueueBuffer {
        try lock.locked { () throws(AudioQueueError) -> AudioQueueBuffer in
            try checkAlive()
            let buffer = try pool.allocate(byteCapacity: byteCapacity, packetDescriptionCapacity: packetDescriptionCapacity)
            enqueued.append(false)
            return buffer
        }
    }

    /// Queues `buffer` (its first `byteSize` bytes, whole packets) to play after what is already enqueued.
    /// Refused: another queue's buffer, one already enqueued, a partial packet, packet descriptions that do
    /// not describe the bytes, IMA4 packets with impossible headers.
    public func enqueue(_ buffer: AudioQueueBuffer) throws(AudioQueueError) {
        try lock.locked { () throws(AudioQueueError) in
            try checkAlive()
            guard pool.owns(buffer) else {
                throw AudioQueueError(.foreignBuffer, "the buffer was not allocated by this queue",
                                      hint: "allocate buffers with this queue's allocateBuffer")
            }
            guard !enqueued[buffer.index] else {
                throw AudioQueueError(.invalidBuffer, "the buffer is already enqueued",
                                      hint: "wait for it to come back in the callback (stage consumed)")
            }
            try AudioQueueBufferCheck(format: format).check(buffer)
            guard renderer.commands.push(.enqueue(index: buffer.index, data: UnsafeRawPointer(buffer.audioData),
                                                  bytes: buffer.byteSize)) else {
                throw commandsFull()
            }
            enqueued[buffer.index] = true
        }
    }

    // MARK: Transport

    /// Prepares ahead so that start is immediate (the first period after start carries audio).
    public func prime() throws(AudioQueueError) { try handle(.prime) }
    /// Starts or resumes playback, at device-timeline frame `sampleTime` or as soon as possible.
    public func start(at sampleTime: Int64? = nil) throws(AudioQueueError) { try handle(.start(at: sampleTime)) }
    /// Fades out and holds the position; `start` resumes from it.
    public func pause() throws(AudioQueueError) { try handle(.pause) }
    /// Stops: `immediately` fades out and returns every buffer; otherwise what is enqueued plays out first.
    public func stop(immediately: Bool = true) throws(AudioQueueError) { try handle(.stop(immediately: immediately)) }
    /// Discards everything enqueued (each buffer comes back, `discarded`), keeping the transport state: for
    /// seeking, enqueue from the new position.
    public func reset() throws(AudioQueueError) { try handle(.reset) }
    /// Says the data ends after what is enqueued: running dry is then the end, not an underrun.
    public func flush() throws(AudioQueueError) { try handle(.flush) }

    private func handle(_ call: AudioQueueTransport.Call) throws(AudioQueueError) {
        try lock.locked { () throws(AudioQueueError) in
            try checkAlive()
            var next = transport
            let outcome = try next.handle(call, at: clock.now)
            guard renderer.commands.capacity - renderer.commands.count >= outcome.actions.count else {
                throw commandsFull()
            }
            transport = next
            for action in outcome.actions { renderer.commands.push(.transport(action)) }
        }
    }

    /// The transport state (as of the last reports collected on the callback thread).
    public var state: AudioQueueTransport.State { lock.locked { transport.state } }
    /// Whether the queue is sounding (Core Audio's is-running property; see `AudioQueueTransport`).
    public var isRunning: Bool { lock.locked { transport.isRunning } }
    /// Times the queue ran dry while running.
    public var underruns: Int { lock.locked { transport.underruns } }

    // MARK: Volume, meters, time

    /// The queue volume, a linear gain 0 ... 1 (Core Audio's `kAudioQueueParam_Volume`).
    public var volume: Double { lock.locked { gain } }

    /// Sets the queue volume (linear 0 ... 1); a change while sounding ramps over the fade length.
    public func setVolume(_ linear: Double) throws(AudioQueueError) {
        guard linear.isFinite, (0...1).contains(linear) else {
            throw AudioQueueError(.invalidValue, "queue volume \(linear)", hint: "a queue volume is 0 ... 1 (linear)")
        }
        try lock.locked { () throws(AudioQueueError) in
            try checkAlive()
            guard renderer.commands.push(.volume(raw: Fixed824(linear).raw)) else { throw commandsFull() }
            gain = linear
        }
    }

    /// Sets the queue volume in dB (0 dB is unity; -6.02 dB halves).
    public func setVolume(decibels: Double) throws(AudioQueueError) {
        try setVolume(min(1, Decibels.linear(decibels)))
    }

    /// Peak and average power per channel in dBFS (one per channel of the format), as of the last metered
    /// period; nil when the queue was made without metering.
    public var levels: [LevelMeter.Reading]? { renderer.meteringEnabled ? renderer.levels.readings : nil }

    /// The queue's position against the device timeline.
    public var currentTime: AudioQueueTime {
        let timeline = host.timeline
        let played = timeline.playedFrames
        let anchor = renderer.anchor.value
        let behind = max(0, anchor.deviceFrame - played)
        let engineRate = Int64(max(1, renderer.engineRate))
        let behindQueueFrames = behind * Int64(format.sampleRate) / engineRate
        return AudioQueueTime(sampleTime: max(0, anchor.queueFrame - behindQueueFrames), deviceFrame: played,
                              hostTime: timeline.hostTime(ofSample: played))
    }

    // MARK: Listeners

    /// Calls `body` on the callback thread whenever is-running changes; returns a token for removal.
    @discardableResult
    public func addRunningListener(_ body: @escaping RunningListener) -> Int {
        lock.locked {
            defer { nextToken += 1 }
            listeners.append((nextToken, body))
            return nextToken
        }
    }

    public func removeRunningListener(_ token: Int) {
        lock.locked { listeners.removeAll { $0.token == token } }
    }

    // MARK: Callbacks

    /// Collects the render side's reports now and delivers their callbacks on the callback thread, waiting
    /// until they have run (the thread also does this every poll interval).
    public func deliverCallbacks() {
        callbackThread.sync { [self] in poll() }
    }

    private enum Delivery {
        case buffer(AudioQueueBuffer, AudioQueueBufferEvent)
        case running(Bool, [RunningListener])
    }

    func poll() {
        // A callback that calls `deliverCallbacks` would deliver later reports before the rest of this batch.
        guard !polling else { return }
        polling = true
        defer { polling = false }
        var deliveries: [Delivery] = []
        lock.locked {
            guard !disposed else { return }
            while let report = renderer.reports.pop() {
                let now = clock.now
                switch report {
                case .consumed(let index):
                    enqueued[index] = false
                    deliveries.append(.buffer(pool[index], AudioQueueBufferEvent(stage: .consumed)))
                case .discarded(let index):
                    enqueued[index] = false
                    deliveries.append(.buffer(pool[index], AudioQueueBufferEvent(stage: .consumed, discarded: true)))
                case .rendered(let index, let lastFrame):
                    deliveries.append(.buffer(pool[index], AudioQueueBufferEvent(stage: .rendered, lastFrame: lastFrame)))
                    awaitingPlay.append((index, lastFrame))
                case .started(let at): note(transport.handle(.started(at: at), at: now), into: &deliveries)
                case .fadedOut: note(transport.handle(.fadedOut, at: now), into: &deliveries)
                case .playedOut: note(transport.handle(.playedOut, at: now), into: &deliveries)
                case .underrun: note(transport.handle(.underrun, at: now), into: &deliveries)
                }
            }
            let played = host.timeline.playedFrames
            while let first = awaitingPlay.first, first.lastFrame < played {
                awaitingPlay.removeFirst()
                deliveries.append(.buffer(pool[first.index], AudioQueueBufferEvent(stage: .played, lastFrame: first.lastFrame)))
            }
        }
        for delivery in deliveries {
            switch delivery {
            case .buffer(let buffer, let event): callback(self, buffer, event)
            case .running(let value, let bodies): for body in bodies { body(self, value) }
            }
        }
    }

    private func note(_ outcome: AudioQueueTransport.Outcome, into deliveries: inout [Delivery]) {
        if let running = outcome.isRunningChanged { deliveries.append(.running(running, listeners.map(\.body))) }
    }

    // MARK: Lifetime

    /// Detaches the queue from the engine; buffers still enqueued are not returned. Further calls fail.
    public func dispose() {
        let first: Bool = lock.locked {
            defer { disposed = true }
            return !disposed
        }
        guard first else { return }
        host.detach(renderer)
        callbackThread.remove(self)
    }

    private func checkAlive() throws(AudioQueueError) {
        if disposed { throw AudioQueueError(.disposed, "the queue has been disposed", hint: "make a new queue") }
    }

    private func commandsFull() -> AudioQueueError {
        AudioQueueError(.limitReached, "the render side has not taken the queue's last \(renderer.commands.capacity) commands",
                        hint: "is the engine running? the queue's calls reach it once a period")
    }
}
