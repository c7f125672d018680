#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif
import CALSA
import Synchronization

/// A PCM stream on alsa-lib: any ALSA name (`hw:0,0`, `plughw:CARD=x`, `default`, a PCM from an
/// `ALSAConfiguration`), interleaved read/write access.
///
/// The handle is always opened non-blocking, so a busy device answers EBUSY instead of hanging the
/// open; blocking I/O is switched on afterwards unless the configuration asks for non-blocking. The
/// kernel's transfers keep the O_NONBLOCK of the open, though (pcm_lib.c __snd_pcm_lib_xfer reads
/// `substream->f_flags`, set by snd_pcm_open_substream; snd_pcm_nonblock's fcntl changes only the
/// file's flags, which drain reads): a blocking stream that is answered EAGAIN waits (snd_pcm_wait) and
/// tries again.
public final class ALSAPCM: PCMDevice, @unchecked Sendable {
    public let name: String
    public let direction: PCMDirection
    public let parameters: PCMParameters
    public let capabilities: PCMCapabilities
    public let canPause: Bool
    public let xruns = PCMXruns()

    /// Valid until `close()` frees it; every use goes through `using`, which `close()` waits for.
    private let handle: OpaquePointer
    /// How many calls are using `handle` now, plus `closingBit` once `close()` has begun.
    private let users = Atomic<Int>(0)
    private static let closingBit = 1 << 62
    private let configuration: PCMConfiguration
    /// Keeps a caller's configuration tree alive while the PCM may refer to it.
    private let alsaConfiguration: ALSAConfiguration?
    /// Playback: frames written minus frames dropped. Capture: frames read plus frames lost (dropped,
    /// discarded by a prepare after an overrun, or never captured while an overrun stopped the device).
    private let streamFrames = Atomic<Int64>(0)
    /// Capture after `drain()`: frames of the tail still to read (`noTail` when not draining); the
    /// stream is paused (a device that can pause) or still running (one that cannot) while some are left.
    private let tailFrames = Atomic<Int>(ALSAPCM.noTail)
    private static let noTail = -1

    /// Opens `name` and negotiates `configuration`. `alsaConfiguration` replaces the system configuration
    /// (for PCMs defined in text). Xruns are stamped with the kernel's own times (the status' trigger
    /// time of the stop).
    public init(name: String, direction: PCMDirection, configuration: PCMConfiguration,
                alsaConfiguration: ALSAConfiguration? = nil) throws(PCMError) {
        calsa_capture_messages()
        calsa_clear_last_message()
        let stream = direction == .playback ? SND_PCM_STREAM_PLAYBACK : SND_PCM_STREAM_CAPTURE
        var opened: OpaquePointer?
        let result = name.withCString { cName in
            if let alsaConfiguration {
                snd_pcm_open_lconf(&opened, cName, stream, SND_PCM_NONBLOCK, alsaConfiguration.tree)
            } else {
                snd_pcm_open(&opened, cName, stream, SND_PCM_NONBLOCK)
            }
        }
        guard result == 0, let pcm = opened else {
            throw Self.openFailure(name: name, direction: direction, code: -result)
        }
        do throws(PCMError) {
            var space: OpaquePointer?
            guard snd_pcm_hw_params_malloc(&space) == 0, let space else {
                throw PCMError.io(name: name, operation: "allocate hardware parameters", errno: Errno(ENOMEM), detail: "")
            }
            defer { snd_pcm_hw_params_free(space) }
            let any = snd_pcm_hw_params_any(pcm, space)
            guard any >= 0 else {
                throw PCMError.io(name: name, operation: "read hardware parameters", errno: Errno(-any),
                                  detail: String(cString: calsa_last_message()))
            }
            let offered = ALSAHardwareParameters.capabilities(of: pcm, space)
            let granted = try ALSAHardwareParameters.install(configuration, on: pcm, space: space, offered: offered,
                                                             name: name, direction: direction)
            let startThreshold = configuration.startThreshold
                ?? (direction == .playback ? granted.bufferFrames : 1)
            try ALSAHardwareParameters.installSoftware(on: pcm, startThreshold: startThreshold,
                                                       availMin: granted.periodFrames, name: name)
            snd_pcm_nonblock(pcm, configuration.nonBlocking ? 1 : 0)
            self.parameters = PCMParameters(format: configuration.format, rate: granted.rate,
                                            channels: configuration.channels, periodFrames: granted.periodFrames,
                                            bufferFrames: granted.bufferFrames, startThreshold: startThreshold,
                                            availMin: granted.periodFrames)
            self.capabilities = offered
            self.canPause = granted.canPause && configuration.usesHardwarePause
        } catch {
            snd_pcm_close(pcm)
            throw error
        }
        self.handle = pcm
        self.name = name
        self.direction = direction
        self.configuration = configuration
        self.alsaConfiguration = alsaConfiguration
    }

    deinit { close() }

    /// Frees the handle once no other thread is inside a call on it: new calls are refused from the
    /// first moment, a blocked transfer is woken (snd_pcm_drop), and the ones in flight are waited for.
    public func close() {
        let before = users.bitwiseOr(Self.closingBit, ordering: .acquiringAndReleasing).oldValue
        guard before & Self.closingBit == 0 else { return }
        if before != 0 { snd_pcm_drop(handle) }   // wakes a read or write blocked on another thread
        while users.load(ordering: .acquiring) != Self.closingBit {
            SystemClock.shared.sleep(for: .microseconds(50))
        }
        snd_pcm_close(handle)
    }

    /// Runs `body` with the handle, which stays valid until it returns; `.badState(.closed)` once closing.
    private func using<Result>(_ operation: String, _ body: (OpaquePointer) throws(PCMError) -> Result)
        throws(PCMError) -> Result {
        var current = users.load(ordering: .relaxed)
        while true {
            guard current & Self.closingBit == 0 else {
                throw PCMError.badState(name: name, operation: operation, state: .closed)
            }
            let (exchanged, original) = users.compareExchange(expected: current, desired: current + 1,
                                                              ordering: .acquiring)
            if exchanged { break }
            current = original
        }
        defer { users.wrappingSubtract(1, ordering: .releasing) }
        return try body(handle)
    }

    // MARK: state and timing

    public var state: PCMState {
        (try? using("query state") { pcm in
            let state = PCMState(snd_pcm_state(pcm))
            // A drained capture reads as draining until its tail is read, paused or running under it.
            let tailLeft = tailFrames.load(ordering: .relaxed) > 0
            return tailLeft && (state == .paused || state == .running) ? .draining : state
        }) ?? .closed
    }

    public func available() throws(PCMError) -> Int {
        try using("query available frames") { pcm throws(PCMError) in
            let frames = snd_pcm_avail(pcm)
            guard frames >= 0 else { throw failure("query available frames", code: Int32(-frames)) }
            return frames
        }
    }

    public func delay() throws(PCMError) -> Int {
        try using("query delay") { pcm throws(PCMError) in
            var frames: snd_pcm_sframes_t = 0
            let result = snd_pcm_delay(pcm, &frames)
            guard result == 0 else { throw failure("query delay", code: -result) }
            return max(frames, 0)
        }
    }

    /// From one `snd_pcm_status`: the frames still queued (playback) or waiting to be read (capture) and
    /// the timestamp of that reading (monotonic: the software parameters ask for it).
    public func framePosition() throws(PCMError) -> PCMFramePosition {
        try using("query position") { pcm throws(PCMError) in
            let status = try ALSAStatus(of: pcm, name: name)
            let frames = streamFrames.load(ordering: .relaxed)
            let tail = tailFrames.load(ordering: .relaxed)
            let frame: Int64
            if direction == .playback {
                frame = max(frames - Int64(status.queuedPlayback(bufferFrames: parameters.bufferFrames)), 0)
            } else if tail != Self.noTail {
                frame = frames + Int64(tail)
            } else {
                frame = frames + Int64(status.waitingCapture)
            }
            return PCMFramePosition(frame: frame, time: status.time)
        }
    }

    // MARK: I/O

    public func write(_ frames: UnsafeRawBufferPointer) throws(PCMError) -> Int {
        precondition(direction == .playback, "write on a capture stream")
        let bytesPerFrame = parameters.bytesPerFrame
        precondition(frames.count % bytesPerFrame == 0, "write needs whole frames")
        let total = frames.count / bytesPerFrame
        guard total > 0, let base = frames.baseAddress else { return 0 }
        return try using("write") { pcm throws(PCMError) in
            var done = 0
            while done < total {
                let result = snd_pcm_writei(pcm, base + done * bytesPerFrame, snd_pcm_uframes_t(total - done))
                if result >= 0 {
                    done += result
                    streamFrames.wrappingAdd(Int64(result), ordering: .relaxed)
                    if result == 0 && configuration.nonBlocking { break }
                    continue
                }
                guard try transferFailed(pcm, code: Int32(-result), operation: "write") else { break }
            }
            return done
        }
    }

    public func read(into frames: UnsafeMutableRawBufferPointer) throws(PCMError) -> Int {
        precondition(direction == .capture, "read on a playback stream")
        let bytesPerFrame = parameters.bytesPerFrame
        precondition(frames.count % bytesPerFrame == 0, "read needs room for whole frames")
        let total = frames.count / bytesPerFrame
        guard total > 0, let base = frames.baseAddress else { return 0 }
        return try using("read") { pcm throws(PCMError) in
            if tailFrames.load(ordering: .relaxed) != Self.noTail {
                return try readTail(pcm, into: base, frames: total)
            }
            var done = 0
            while done < total {
                let result = snd_pcm_readi(pcm, base + done * bytesPerFrame, snd_pcm_uframes_t(total - done))
                if result >= 0 {
                    done += result
                    streamFrames.wrappingAdd(Int64(result), ordering: .relaxed)
                    if result == 0 && configuration.nonBlocking { break }
                    continue
                }
                guard try transferFailed(pcm, code: Int32(-result), operation: "read") else { break }
            }
            return done
        }
    }

    /// Reads from the tail a capture drain kept: exactly the frames that were waiting when it stopped,
    /// then 0 (end of stream) with the stream stopped (setup).
    ///
    /// On a device that cannot pause the hardware runs on under the tail, so the tail is there for one
    /// buffer time after the drain: a reader slower than that meets an overrun (EPIPE). The frames of the
    /// tail not yet read are then lost: the overrun is counted at the end of the stream (the drain's
    /// frame), they are counted as captured, as an overrun's discarded frames are, and the stream ends.
    private func readTail(_ pcm: OpaquePointer, into base: UnsafeMutableRawPointer, frames total: Int)
        throws(PCMError) -> Int {
        var done = 0
        while done < total {
            let left = tailFrames.load(ordering: .relaxed)
            guard left > 0 else { break }
            let result = snd_pcm_readi(pcm, base + done * parameters.bytesPerFrame,
                                       snd_pcm_uframes_t(min(total - done, left)))
            if result > 0 {
                done += result
                streamFrames.wrappingAdd(Int64(result), ordering: .relaxed)
                tailFrames.store(left - result, ordering: .relaxed)
            } else if result == -EINTR {
                continue
            } else if result == -EAGAIN {
                // Only through a plugin that moves frames late: wait for them, or let a non-blocking caller.
                if configuration.nonBlocking { break }
                _ = snd_pcm_wait(pcm, 1000)
            } else if result == -EPIPE {
                let status = try ALSAStatus(of: pcm, name: name)
                let end = streamFrames.load(ordering: .relaxed) + Int64(left)
                xruns.recordXrun(at: status.triggerTime, frame: end)
                streamFrames.wrappingAdd(Int64(left), ordering: .relaxed)
                tailFrames.store(0, ordering: .relaxed)
            } else if result == 0 || result == -EBADFD {
                // Since Linux 4.13 the kernel refuses reads from a draining capture (pcm_lib.c,
                // pcm_accessible_state has no DRAINING case): the frames are there but unreadable.
                // They were captured all the same; count them, and end the stream.
                streamFrames.wrappingAdd(Int64(left), ordering: .relaxed)
                tailFrames.store(0, ordering: .relaxed)
            } else {
                throw failure("read the drained tail", code: Int32(-result))
            }
        }
        if tailFrames.load(ordering: .relaxed) == 0 {
            // End of stream: the capture is stopped (to setup), as the kernel stops a draining one when
            // its tail is read (pcm_lib.c __snd_pcm_lib_xfer); reads return 0 from then on.
            let state = snd_pcm_state(pcm)
            if state == SND_PCM_STATE_PAUSED || state == SND_PCM_STATE_DRAINING || state == SND_PCM_STATE_RUNNING
                || state == SND_PCM_STATE_XRUN {
                _ = snd_pcm_drop(pcm)
            }
        }
        return done
    }

    public func wait(timeout: Duration?) throws(PCMError) -> Bool {
        let milliseconds = timeout.map { Int32(clamping: max($0.nanoseconds / 1_000_000, 0)) } ?? -1
        return try using("wait") { pcm throws(PCMError) in
            if tailFrames.load(ordering: .relaxed) != Self.noTail { return true }   // the tail is there now
            while true {
                let result = snd_pcm_wait(pcm, milliseconds)
                if result >= 0 { return result > 0 }
                guard try transferFailed(pcm, code: -result, operation: "wait") else { return false }
                if result == -EPIPE || result == -ESTRPIPE { return true }
            }
        }
    }

    /// Handles a failed transfer: true to retry (interrupted, room or frames waited for, or an xrun
    /// recovered), false to stop (would block, non-blocking); throws anything else.
    private func transferFailed(_ pcm: OpaquePointer, code: Int32, operation: String) throws(PCMError) -> Bool {
        let code = Self.transferCode(code, state: PCMState(snd_pcm_state(pcm)))
        switch code {
        case EINTR: return true
        case EAGAIN:
            guard !configuration.nonBlocking else { return false }
            let ready = snd_pcm_wait(pcm, 1000)
            return ready >= 0 || ready == -EAGAIN ? true : try transferFailed(pcm, code: -ready, operation: operation)
        case EPIPE, ESTRPIPE:
            let error: PCMError = code == EPIPE
                ? .xrun(name: name, direction: direction) : .suspended(name: name, direction: direction)
            guard configuration.recoversXruns else { throw error }
            try recover(pcm, from: error)
            return true
        default:
            throw failure(operation, code: code)
        }
    }

    /// The error a failed transfer stands for. EIO is the kernel giving up a wait for frames or room
    /// (sound/core/pcm_lib.c wait_for_avail: no progress for 1.1 buffer times, "DMA or IRQ trouble?"); when
    /// the stream stands in XRUN by then, the stall that timed the wait out overran the buffer too, and the
    /// xrun is what happened: taken as EPIPE, recovered like one, rather than ending the stream for good (the
    /// system rig's capture died so, and with it every later recording).
    static func transferCode(_ code: Int32, state: PCMState) -> Int32 {
        code == EIO && state == .xrun ? EPIPE : code
    }

    // MARK: transport

    public func start() throws(PCMError) {
        try using("start") { pcm throws(PCMError) in
            let result = snd_pcm_start(pcm)
            guard result == 0 else { throw failure("start", code: -result) }
        }
    }

    public func drop() throws(PCMError) {
        try using("drop") { pcm throws(PCMError) in
            let status = try ALSAStatus(of: pcm, name: name)
            if direction == .playback {
                // Queued playback frames will never play.
                let queued = status.queuedPlayback(bufferFrames: parameters.bufferFrames)
                streamFrames.wrappingAdd(-Int64(queued), ordering: .relaxed)
            } else {
                // Unread capture frames were captured all the same.
                let tail = tailFrames.exchange(Self.noTail, ordering: .relaxed)
                streamFrames.wrappingAdd(Int64(tail == Self.noTail ? status.waitingCapture : tail), ordering: .relaxed)
            }
            var result = snd_pcm_drop(pcm)
            if result == 0 { result = snd_pcm_prepare(pcm) }
            guard result == 0 else { throw failure("drop", code: -result) }
        }
    }

    public func drain() throws(PCMError) {
        try using("drain") { pcm throws(PCMError) in
            if direction == .capture { return try drainCapture(pcm) }
            if snd_pcm_state(pcm) == SND_PCM_STATE_PREPARED,
               try ALSAStatus(of: pcm, name: name).queuedPlayback(bufferFrames: parameters.bufferFrames) > 0 {
                // ALSA drains a prepared stream only once it runs: start it so queued frames play.
                _ = snd_pcm_start(pcm)
            }
            // Draining waits for the device: switch to blocking for it, whatever the I/O mode.
            if configuration.nonBlocking { snd_pcm_nonblock(pcm, 0) }
            var result = snd_pcm_drain(pcm)
            if configuration.nonBlocking { snd_pcm_nonblock(pcm, 1) }
            if result == -EPIPE { result = 0 }   // ran dry while draining: that is what draining means
            if result == 0 { result = snd_pcm_prepare(pcm) }
            guard result == 0 else { throw failure("drain", code: -result) }
        }
    }

    /// Stops a capture and keeps its tail for `read`, never preparing (which would discard it).
    /// The kernel's drain keeps the tail in DRAINING (pcm_native.c snd_pcm_do_drain_init) but, since
    /// Linux 4.13, refuses to read it (pcm_lib.c pcm_accessible_state), so a running capture is never
    /// drained. A device that can pause is paused: the hardware pointer stops and reads stay allowed, so
    /// the tail waits for the reader however long it takes. One that cannot (the Pi's bcm2835-i2s: its
    /// DMA engine has no pause, so soc-generic-dmaengine-pcm.c offers no SNDRV_PCM_INFO_PAUSE) runs on:
    /// the frames waiting now are the tail, read from the running ring before the hardware laps them
    /// (a buffer time), then the stream is dropped. Pausing where possible keeps the tail from that race.
    private func drainCapture(_ pcm: OpaquePointer) throws(PCMError) {
        guard tailFrames.load(ordering: .relaxed) == Self.noTail else { return }   // drained already
        if snd_pcm_state(pcm) == SND_PCM_STATE_RUNNING {
            if canPause && snd_pcm_pause(pcm, 1) == 0 {
                tailFrames.store(try ALSAStatus(of: pcm, name: name).waitingCapture, ordering: .relaxed)
                return
            }
            let waiting = try ALSAStatus(of: pcm, name: name).waitingCapture
            tailFrames.store(waiting, ordering: .relaxed)
            if waiting == 0 { _ = snd_pcm_drop(pcm) }   // no tail: the stream ends now
            return
        }
        let result = snd_pcm_drain(pcm)
        guard result == 0 || result == -EPIPE else { throw failure("drain", code: -result) }
        tailFrames.store(try ALSAStatus(of: pcm, name: name).waitingCapture, ordering: .relaxed)
    }

    public func pause() throws(PCMError) {
        guard canPause else { throw PCMError.unsupported(name: name, operation: "pause (no hardware pause)") }
        let now = state
        guard now == .running else { throw PCMError.badState(name: name, operation: "pause", state: now) }
        try using("pause") { pcm throws(PCMError) in
            let result = snd_pcm_pause(pcm, 1)
            guard result == 0 else { throw failure("pause", code: -result) }
        }
    }

    public func resume() throws(PCMError) {
        guard canPause else { throw PCMError.unsupported(name: name, operation: "resume (no hardware pause)") }
        let now = state
        guard now == .paused else { throw PCMError.badState(name: name, operation: "resume", state: now) }
        try using("resume") { pcm throws(PCMError) in
            let result = snd_pcm_pause(pcm, 0)
            guard result == 0 else { throw failure("resume", code: -result) }
        }
    }

    public func recover(from error: PCMError) throws(PCMError) {
        try using("recover") { pcm throws(PCMError) in try recover(pcm, from: error) }
    }

    /// Counts the xrun or suspend at the frame where the device stopped, then restarts the stream.
    /// Capture: the frames waiting at the stop are discarded by the prepare, and the device clock ran on
    /// while the stream stood stopped (from the status' trigger time, when the kernel stopped it, to now):
    /// both are counted as lost so the position stays the device's.
    private func recover(_ pcm: OpaquePointer, from error: PCMError) throws(PCMError) {
        let status = try ALSAStatus(of: pcm, name: name)
        let frames = streamFrames.load(ordering: .relaxed)
        switch error {
        case .xrun:
            if direction == .capture {
                let waiting = Int64(status.waitingCapture)
                xruns.recordXrun(at: status.triggerTime, frame: frames + waiting)
                streamFrames.wrappingAdd(waiting + status.framesMissedWhileStopped(rate: parameters.rate),
                                         ordering: .relaxed)
            } else {
                // Playback stops when everything written has played (stop threshold = buffer size).
                xruns.recordXrun(at: status.triggerTime, frame: frames)
            }
            let result = snd_pcm_prepare(pcm)
            guard result == 0 else { throw failure("recover from an xrun", code: -result) }
        case .suspended:
            let position = direction == .playback
                ? max(frames - Int64(status.queuedPlayback(bufferFrames: parameters.bufferFrames)), 0)
                : frames + Int64(status.waitingCapture)
            xruns.recordSuspend(at: status.time, frame: position)
            // Resume where the hardware can; otherwise (ENOSYS) or while still waking (EAGAIN), prepare.
            // Never snd_pcm_recover's one-second sleeps: the render thread has one period to spare.
            if snd_pcm_resume(pcm) != 0 {
                if direction == .playback {
                    streamFrames.wrappingAdd(-Int64(status.queuedPlayback(bufferFrames: parameters.bufferFrames)),
                                             ordering: .relaxed)
                } else {
                    streamFrames.wrappingAdd(Int64(status.waitingCapture), ordering: .relaxed)
                }
                let result = snd_pcm_prepare(pcm)
                guard result == 0 else { throw PCMError.suspended(name: name, direction: direction) }
            }
        default:
            throw error
        }
    }

    // MARK: errors

    private func failure(_ operation: String, code: Int32) -> PCMError {
        switch code {
        case EPIPE: .xrun(name: name, direction: direction)
        case ESTRPIPE: .suspended(name: name, direction: direction)
        case ENODEV: .disconnected(name: name, direction: direction)
        case EBADFD: .badState(name: name, operation: operation, state: PCMState(snd_pcm_state(handle)))
        default: .io(name: name, operation: operation, errno: Errno(code), detail: String(cString: calsa_last_message()))
        }
    }

    /// Turns an open failure into the error a person can act on.
    static func openFailure(name: String, direction: PCMDirection, code: Int32) -> PCMError {
        let detail = String(cString: calsa_last_message())
        switch code {
        case ENOENT, ENODEV, ENXIO:
            return .noSuchDevice(name: name, direction: direction, errno: Errno(code), detail: detail)
        case EBUSY, EAGAIN:
            return .busy(name: name, direction: direction, holders: PCMHolder.find(name: name, direction: direction))
        case EACCES, EPERM:
            return .permissionDenied(name: name, direction: direction, errno: Errno(code))
        default:
            return .io(name: name, operation: "open", errno: Errno(code), detail: detail)
        }
    }
}
