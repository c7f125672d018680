import Synchronization

/// The PCM twin: a ring buffer that a simulated DMA engine empties (playback) or fills (capture) one
/// period at a time as its `MonotonicClock` advances, with ALSA's accounting: start threshold, avail_min,
/// an xrun when playback runs dry or capture fills the buffer (stop threshold = buffer size), recovery by
/// prepare/resume, pause, drain, drop. Faults can be injected (`inject`).
///
/// Like an interrupt-driven driver, the hardware pointer moves in whole periods, at
/// `start + k * period / rate` on the clock. Blocking calls sleep on the clock (with a `ManualClock`,
/// another thread advances it); non-blocking ones return what fits now.
public final class SimulatedPCM: PCMDevice, @unchecked Sendable {
    /// Where played frames go.
    public enum Playback: Sendable {
        /// Played frames are forgotten.
        case discard
        /// Played frames are kept in `playedFrames` (a layer above writes them to a file with `AudioFile`).
        case memory
    }

    /// Where captured frames come from.
    public enum Capture: Sendable {
        case silence
        /// Device-format frames, captured once from the start; silence after them.
        case frames([UInt8])
        /// Fills device-format frames for the capture position given (frames since the stream first
        /// started, counting any lost to overruns). Runs on the reading thread, inside a read or wait.
        case generator(@Sendable (_ position: Int64, _ frames: UnsafeMutableRawBufferPointer) -> Void)
    }

    /// A fault to inject, as the hardware or the system would cause it.
    public enum Fault: Sendable, Hashable {
        /// An underrun or overrun now.
        case xrun
        /// The system suspends (the next I/O sees ESTRPIPE).
        case suspend
        /// The device is pulled out (ENODEV from now on).
        case unplug
        /// The next I/O call fails once with this error number.
        case ioError(Errno)
    }

    public let name: String
    public let direction: PCMDirection
    public let parameters: PCMParameters
    public let capabilities: PCMCapabilities
    public let hardware: SimulatedPCMHardware
    public let xruns = PCMXruns()
    public var canPause: Bool { hardware.canPause && configuration.usesHardwarePause }

    private let configuration: PCMConfiguration
    private let clock: any MonotonicClock
    private let playback: Playback
    private let capture: Capture
    private let mutex = Condition()
    private let ring: UnsafeMutableRawPointer

    // Guarded by `mutex`.
    private var currentState = PCMState.prepared
    private var stateBeforeSuspend = PCMState.prepared
    /// Frames the application has written / read, and frames the device has played / captured, since the
    /// last prepare; the ring index is the pointer modulo the buffer.
    private var applicationPointer: Int64 = 0
    private var hardwarePointer: Int64 = 0
    /// Playback: frames written minus dropped. Capture: frames read plus discarded.
    private var streamFrames: Int64 = 0
    /// Capture: frames produced since the first start (the generator's position).
    private var produced: Int64 = 0
    /// Period boundaries fall at `anchor + k * period / rate`; `periodsSinceAnchor` is the last one passed.
    private var anchor = Timestamp.zero
    private var periodsSinceAnchor: Int64 = 0
    /// Time into the current period when paused or suspended.
    private var phase = Duration.zero
    private var pendingXrunTime: Timestamp?
    private var pendingIOError: Errno?
    private var played: [UInt8] = []

    /// Opens a stream on `hardware`, negotiating `configuration` as the real device would.
    public init(hardware: SimulatedPCMHardware, direction: PCMDirection, configuration: PCMConfiguration,
                clock: any MonotonicClock, playback: Playback = .memory, capture: Capture = .silence) throws(PCMError) {
        let granted = try hardware.grant(configuration, direction: direction)
        try hardware.claim(direction)
        self.name = hardware.name
        self.direction = direction
        self.parameters = granted
        self.capabilities = hardware.capabilities
        self.hardware = hardware
        self.configuration = configuration
        self.clock = clock
        self.playback = playback
        self.capture = capture
        ring = UnsafeMutableRawPointer.allocate(byteCount: granted.bufferFrames * granted.bytesPerFrame, alignment: 16)
        ring.initializeMemory(as: UInt8.self, repeating: 0, count: granted.bufferFrames * granted.bytesPerFrame)
    }

    /// Opens the device called `name` among `devices`; an unknown name fails as ALSA's "Unknown PCM" does.
    public static func open(name: String, among devices: [SimulatedPCMHardware], direction: PCMDirection,
                            configuration: PCMConfiguration, clock: any MonotonicClock,
                            playback: Playback = .memory, capture: Capture = .silence) throws(PCMError) -> SimulatedPCM {
        guard let hardware = devices.first(where: { $0.name == name }) else {
            throw PCMError.noSuchDevice(name: name, direction: direction, errno: .noSuchFile, detail: "Unknown PCM \(name)")
        }
        return try SimulatedPCM(hardware: hardware, direction: direction, configuration: configuration, clock: clock,
                                playback: playback, capture: capture)
    }

    deinit {
        close()
        ring.deallocate()
    }

    // MARK: what the device played

    /// The frames the device has played so far, in device format (`.memory` only).
    public var playedFrames: [UInt8] {
        locked {
            advance(to: clock.now)
            return played
        }
    }

    /// Injects a fault (from any thread).
    public func inject(_ fault: Fault) {
        locked {
            advance(to: clock.now)
            switch fault {
            case .xrun:
                guard currentState != .closed && currentState != .disconnected else { return }
                currentState = .xrun
                pendingXrunTime = clock.now
            case .suspend:
                guard currentState != .closed && currentState != .disconnected && currentState != .suspended else { return }
                if currentState == .running || currentState == .paused {
                    phase = clock.now - boundary(periodsSinceAnchor)
                }
                stateBeforeSuspend = currentState
                currentState = .suspended
            case .unplug:
                hardware.unplug()
                if currentState != .closed { currentState = .disconnected }
            case let .ioError(errno):
                pendingIOError = errno
            }
        }
    }

    // MARK: PCMDevice

    public var state: PCMState {
        locked {
            advance(to: clock.now)
            return currentState
        }
    }

    public func close() {
        locked {
            guard currentState != .closed else { return }
            advance(to: clock.now)
            currentState = .closed
            hardware.release(direction)
        }
    }

    public func available() throws(PCMError) -> Int {
        try locked { () throws(PCMError) in
            try usable("query available frames")
            return Int(availableFrames)
        }
    }

    public func delay() throws(PCMError) -> Int {
        try locked { () throws(PCMError) in
            try usable("query delay")
            return Int(queuedFrames)
        }
    }

    /// The hardware pointer moves at period boundaries, so a running stream's position refers to the last
    /// boundary passed; a stopped one's to now.
    public func framePosition() throws(PCMError) -> PCMFramePosition {
        try locked { () throws(PCMError) in
            try usable("query position")
            let frame = direction == .playback ? streamFrames - queuedFrames : streamFrames + queuedFrames
            let moving = currentState == .running || (currentState == .draining && direction == .playback)
            return PCMFramePosition(frame: frame, time: moving ? boundary(periodsSinceAnchor) : clock.now)
        }
    }

    public func write(_ frames: UnsafeRawBufferPointer) throws(PCMError) -> Int {
        precondition(direction == .playback, "write on a capture stream")
        precondition(frames.count % parameters.bytesPerFrame == 0, "write needs whole frames")
        return try transfer(frames: frames.count / parameters.bytesPerFrame, operation: "write") { ringOffset, sourceOffset, count in
            ring.advanced(by: ringOffset).copyMemory(from: frames.baseAddress! + sourceOffset, byteCount: count)
        }
    }

    public func read(into frames: UnsafeMutableRawBufferPointer) throws(PCMError) -> Int {
        precondition(direction == .capture, "read on a playback stream")
        precondition(frames.count % parameters.bytesPerFrame == 0, "read needs room for whole frames")
        return try transfer(frames: frames.count / parameters.bytesPerFrame, operation: "read") { ringOffset, targetOffset, count in
            (frames.baseAddress! + targetOffset).copyMemory(from: ring.advanced(by: ringOffset), byteCount: count)
        }
    }

    public func wait(timeout: Duration?) throws(PCMError) -> Bool {
        let deadline = timeout.map { clock.now + $0 }
        while true {
            let next: Timestamp? = try locked { () throws(PCMError) in
                try checkForIO("wait")
                if availableFrames >= Int64(parameters.availMin) { return nil }
                if direction == .capture && (currentState == .draining || currentState == .setup) {
                    return nil   // the tail, or the end of the stream, can be read now
                }
                guard currentState == .running || currentState == .draining else {
                    guard deadline != nil else {
                        throw PCMError.badState(name: name, operation: "wait without a deadline", state: currentState)
                    }
                    return deadline
                }
                return deadline.map { min($0, boundary(periodsSinceAnchor + 1)) } ?? boundary(periodsSinceAnchor + 1)
            }
            guard let next else { return true }
            if let deadline, clock.now >= deadline { return false }
            clock.sleep(until: next)
        }
    }

    public func start() throws(PCMError) {
        try locked { () throws(PCMError) in
            try usable("start")
            guard currentState == .prepared else { throw PCMError.badState(name: name, operation: "start", state: currentState) }
            begin(at: clock.now)
        }
    }

    public func drop() throws(PCMError) {
        try locked { () throws(PCMError) in
            try usable("drop")
            prepare()
        }
    }

    public func drain() throws(PCMError) {
        guard direction == .playback else {
            // As the kernel drains a capture (pcm_native.c snd_pcm_do_drain_init): a running stream stops,
            // draining while captured frames wait to be read, in setup when none do.
            return try locked { () throws(PCMError) in
                try usable("drain")
                if currentState == .running { currentState = queuedFrames > 0 ? .draining : .setup }
            }
        }
        while true {
            let next: Timestamp? = try locked { () throws(PCMError) in
                try usable("drain")
                switch currentState {
                case .prepared:
                    guard queuedFrames > 0 else { return nil }
                    begin(at: clock.now)
                    currentState = .draining
                case .running:
                    currentState = .draining
                case .draining:
                    break
                case .xrun:
                    prepare()     // ran dry: everything queued has played
                    return nil
                default:
                    throw PCMError.badState(name: name, operation: "drain", state: currentState)
                }
                return boundary(periodsSinceAnchor + 1)
            }
            guard let next else { return }
            clock.sleep(until: next)
        }
    }

    public func pause() throws(PCMError) {
        try locked { () throws(PCMError) in
            try usable("pause")
            guard canPause else { throw PCMError.unsupported(name: name, operation: "pause (no hardware pause)") }
            guard currentState == .running else { throw PCMError.badState(name: name, operation: "pause", state: currentState) }
            phase = clock.now - boundary(periodsSinceAnchor)
            currentState = .paused
        }
    }

    public func resume() throws(PCMError) {
        try locked { () throws(PCMError) in
            try usable("resume")
            guard canPause else { throw PCMError.unsupported(name: name, operation: "resume (no hardware pause)") }
            guard currentState == .paused else { throw PCMError.badState(name: name, operation: "resume", state: currentState) }
            continueAfterStop()
        }
    }

    public func recover(from error: PCMError) throws(PCMError) {
        try locked { () throws(PCMError) in
            switch error {
            case .xrun, .suspended:
                try usable("recover")
                try recoverLocked()
            default:
                throw error
            }
        }
    }

    // MARK: the engine (all under `mutex`)

    private func locked<Result>(_ body: () throws(PCMError) -> Result) throws(PCMError) -> Result {
        try mutex.locked(body)
    }

    private func locked<Result>(_ body: () -> Result) -> Result {
        mutex.locked(body)
    }

    /// Playback: frames queued and not yet played. Capture: frames captured and not yet read.
    private var queuedFrames: Int64 {
        direction == .playback ? applicationPointer - hardwarePointer : hardwarePointer - applicationPointer
    }

    /// Frames that can move now without waiting.
    private var availableFrames: Int64 {
        direction == .playback ? Int64(parameters.bufferFrames) - queuedFrames : queuedFrames
    }

    private func boundary(_ period: Int64) -> Timestamp {
        let frames = period * Int64(parameters.periodFrames)
        let product = frames.multipliedFullWidth(by: 1_000_000_000)
        let nanoseconds = Int64(parameters.rate).dividingFullWidth(product).quotient
        return anchor + .nanoseconds(nanoseconds)
    }

    /// Brings the device up to `now`: every period boundary passed moves a period.
    private func advance(to now: Timestamp) {
        // A draining capture has stopped; a draining playback plays on.
        while currentState == .running || (currentState == .draining && direction == .playback) {
            let next = boundary(periodsSinceAnchor + 1)
            guard next <= now else { return }
            periodsSinceAnchor += 1
            periodElapsed(at: next)
        }
    }

    private func periodElapsed(at time: Timestamp) {
        let period = Int64(parameters.periodFrames)
        if direction == .playback {
            let played = min(period, queuedFrames)
            consume(played)
            if queuedFrames == 0 {
                if currentState == .draining {
                    prepare()
                } else {
                    currentState = .xrun     // ran dry: avail reached the stop threshold (the buffer size)
                    pendingXrunTime = time
                }
            }
        } else {
            produce(period)
            if queuedFrames >= Int64(parameters.bufferFrames) {
                currentState = .xrun         // the buffer is full: the next period would overwrite it
                pendingXrunTime = time
            }
        }
    }

    private func consume(_ frames: Int64) {
        guard frames > 0 else { return }
        hardwarePointer += frames
        if case .discard = playback { return }
        forEachRingSpan(from: hardwarePointer - frames, frames: frames) { offset, _, count in
            played.append(contentsOf: UnsafeRawBufferPointer(start: ring + offset, count: count))
        }
    }

    private func produce(_ frames: Int64) {
        let bytesPerFrame = parameters.bytesPerFrame
        forEachRingSpan(from: hardwarePointer, frames: frames) { offset, done, count in
            let target = UnsafeMutableRawBufferPointer(start: ring + offset, count: count)
            let position = produced + Int64(done / bytesPerFrame)
            switch capture {
            case .silence:
                target.initializeMemory(as: UInt8.self, repeating: 0)
            case let .frames(source):
                let start = Int(clamping: position) * bytesPerFrame
                for index in 0..<count {
                    target[index] = start + index < source.count ? source[start + index] : 0
                }
            case let .generator(fill):
                fill(position, target)
            }
        }
        produced += frames
        hardwarePointer += frames
    }

    /// Calls `body(ring byte offset, bytes done so far, byte count)` for the one or two spans of the ring
    /// that `frames` frames starting at pointer `start` occupy.
    private func forEachRingSpan(from start: Int64, frames: Int64, _ body: (Int, Int, Int) -> Void) {
        let bufferFrames = Int64(parameters.bufferFrames)
        let bytesPerFrame = parameters.bytesPerFrame
        var pointer = start
        var remaining = frames
        var done = 0
        while remaining > 0 {
            let index = pointer % bufferFrames
            let count = min(remaining, bufferFrames - index)
            body(Int(index) * bytesPerFrame, done, Int(count) * bytesPerFrame)
            done += Int(count) * bytesPerFrame
            pointer += count
            remaining -= count
        }
    }

    private func begin(at time: Timestamp) {
        currentState = .running
        anchor = time
        periodsSinceAnchor = 0
    }

    /// Back to running after a pause or a suspend, keeping the period phase.
    private func continueAfterStop() {
        anchor = clock.now - phase
        periodsSinceAnchor = 0
        currentState = .running
    }

    /// Discards what is queued and makes the stream ready, as `snd_pcm_prepare` after a stop.
    private func prepare() {
        streamFrames += direction == .playback ? -queuedFrames : queuedFrames
        applicationPointer = 0
        hardwarePointer = 0
        currentState = .prepared
    }

    /// Throws when the stream cannot be used at all.
    private func usable(_ operation: String) throws(PCMError) {
        advance(to: clock.now)
        // The card pulled out (`hardware.unplug()`, or another stream's `.unplug`): every stream open on it is
        // disconnected, as the kernel's snd_card_disconnect does to all of a card's substreams.
        if currentState != .closed && !hardware.isPlugged { currentState = .disconnected }
        switch currentState {
        case .closed: throw PCMError.badState(name: name, operation: operation, state: .closed)
        case .disconnected: throw PCMError.disconnected(name: name, direction: direction)
        default: break
        }
    }

    /// Before I/O: injected errors, then xruns and suspends (recovered or thrown, per the configuration).
    private func checkForIO(_ operation: String) throws(PCMError) {
        try usable(operation)
        if let errno = pendingIOError {
            pendingIOError = nil
            throw PCMError.io(name: name, operation: operation, errno: errno, detail: "injected")
        }
        switch currentState {
        case .xrun:
            guard configuration.recoversXruns else { throw PCMError.xrun(name: name, direction: direction) }
            try recoverLocked()
        case .suspended:
            guard configuration.recoversXruns else { throw PCMError.suspended(name: name, direction: direction) }
            try recoverLocked()
        default:
            break
        }
    }

    private func recoverLocked() throws(PCMError) {
        let position = direction == .playback ? streamFrames - queuedFrames : streamFrames + queuedFrames
        switch currentState {
        case .xrun:
            let stoppedAt = pendingXrunTime ?? clock.now
            xruns.recordXrun(at: stoppedAt, frame: position)
            pendingXrunTime = nil
            if direction == .capture {
                // The device clock ran on while the overrun held the stream stopped: those frames were
                // never captured. Count them (the prepare below counts the ones waiting in the buffer).
                let stopped = max(clock.now - stoppedAt, .zero).nanoseconds
                let missed = Int64(1_000_000_000).dividingFullWidth(stopped.multipliedFullWidth(by: Int64(parameters.rate))).quotient
                streamFrames += missed
                produced += missed
            }
            prepare()
        case .suspended:
            xruns.recordSuspend(at: clock.now, frame: position)
            if hardware.canResume && (stateBeforeSuspend == .running || stateBeforeSuspend == .draining) {
                continueAfterStop()
            } else if hardware.canResume && stateBeforeSuspend == .paused {
                currentState = .paused
            } else {
                prepare()
            }
        default:
            break
        }
    }

    /// The shared loop of `write` and `read`: move what fits, start at the threshold, wait or return.
    private func transfer(frames total: Int, operation: String,
                          copy: (_ ringOffset: Int, _ bufferOffset: Int, _ bytes: Int) -> Void) throws(PCMError) -> Int {
        var done = 0
        while done < total {
            let next: Timestamp? = try locked { () throws(PCMError) in
                try checkForIO(operation)
                if direction == .capture && currentState == .draining && availableFrames == 0 {
                    currentState = .setup    // the tail is read: the kernel stops the stream (pcm_lib.c)
                }
                if direction == .capture && currentState == .setup { return nil }   // end of stream
                if direction == .capture && currentState == .prepared && total - done >= parameters.startThreshold {
                    begin(at: clock.now)
                }
                let movable = min(Int(availableFrames), total - done)
                if movable > 0 {
                    let pointer = applicationPointer
                    forEachRingSpan(from: pointer, frames: Int64(movable)) { ringOffset, spanDone, bytes in
                        copy(ringOffset, done * parameters.bytesPerFrame + spanDone, bytes)
                    }
                    applicationPointer += Int64(movable)
                    streamFrames += Int64(movable)
                    done += movable
                    if direction == .playback && currentState == .prepared
                        && queuedFrames >= Int64(parameters.startThreshold) {
                        begin(at: clock.now)
                    }
                    return clock.now   // go round again: more may fit
                }
                if configuration.nonBlocking { return nil }
                if currentState == .paused {
                    throw PCMError.badState(name: name, operation: "\(operation) (would wait for ever)", state: .paused)
                }
                guard currentState == .running else {
                    // A real driver would time out here with EIO: nothing will ever make room.
                    throw PCMError.io(name: name, operation: operation, errno: .io,
                                      detail: "buffer \(direction == .playback ? "full" : "empty") and the stream is "
                                          + "\(currentState); it never reaches its start threshold")
                }
                return boundary(periodsSinceAnchor + 1)
            }
            guard let next else { break }
            if next > clock.now { clock.sleep(until: next) }
        }
        return done
    }
}
