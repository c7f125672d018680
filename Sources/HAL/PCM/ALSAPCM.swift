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
/// open; blocking I/O is switched on afterwards unless the configuration asks for non-blocking.
public final class ALSAPCM: PCMDevice, @unchecked Sendable {
    public let name: String
    public let direction: PCMDirection
    public let parameters: PCMParameters
    public let capabilities: PCMCapabilities
    public let canPause: Bool
    public let xruns = PCMXruns()

    private var handle: OpaquePointer?
    private let configuration: PCMConfiguration
    private let clock: any MonotonicClock
    /// Keeps a caller's configuration tree alive while the PCM may refer to it.
    private let alsaConfiguration: ALSAConfiguration?
    /// Playback: frames written minus frames dropped. Capture: frames read plus frames dropped.
    private let streamFrames = Atomic<Int64>(0)

    /// Opens `name` and negotiates `configuration`. `alsaConfiguration` replaces the system configuration
    /// (for PCMs defined in text); `clock` stamps xruns.
    public init(name: String, direction: PCMDirection, configuration: PCMConfiguration,
                alsaConfiguration: ALSAConfiguration? = nil,
                clock: any MonotonicClock = SystemClock.shared) throws(PCMError) {
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
            self.canPause = granted.canPause
        } catch {
            snd_pcm_close(pcm)
            throw error
        }
        self.handle = pcm
        self.name = name
        self.direction = direction
        self.configuration = configuration
        self.clock = clock
        self.alsaConfiguration = alsaConfiguration
    }

    deinit { close() }

    public func close() {
        if let handle { snd_pcm_close(handle) }
        handle = nil
    }

    // MARK: state and timing

    public var state: PCMState {
        guard let handle else { return .closed }
        return switch snd_pcm_state(handle) {
        case SND_PCM_STATE_OPEN: .open
        case SND_PCM_STATE_SETUP: .setup
        case SND_PCM_STATE_PREPARED: .prepared
        case SND_PCM_STATE_RUNNING: .running
        case SND_PCM_STATE_XRUN: .xrun
        case SND_PCM_STATE_DRAINING: .draining
        case SND_PCM_STATE_PAUSED: .paused
        case SND_PCM_STATE_SUSPENDED: .suspended
        default: .disconnected
        }
    }

    public func available() throws(PCMError) -> Int {
        let pcm = try open("query available frames")
        let frames = snd_pcm_avail(pcm)
        guard frames >= 0 else { throw failure("query available frames", code: Int32(-frames)) }
        return frames
    }

    public func delay() throws(PCMError) -> Int {
        let pcm = try open("query delay")
        var frames: snd_pcm_sframes_t = 0
        let result = snd_pcm_delay(pcm, &frames)
        guard result == 0 else { throw failure("query delay", code: -result) }
        return max(frames, 0)
    }

    public func framePosition() throws(PCMError) -> Int64 {
        let frames = streamFrames.load(ordering: .relaxed)
        let queued = Int64(try delay())
        return direction == .playback ? max(frames - queued, 0) : frames + queued
    }

    // MARK: I/O

    public func write(_ frames: UnsafeRawBufferPointer) throws(PCMError) -> Int {
        precondition(direction == .playback, "write on a capture stream")
        let pcm = try open("write")
        let bytesPerFrame = parameters.bytesPerFrame
        precondition(frames.count % bytesPerFrame == 0, "write needs whole frames")
        let total = frames.count / bytesPerFrame
        guard total > 0, let base = frames.baseAddress else { return 0 }
        var done = 0
        while done < total {
            let result = snd_pcm_writei(pcm, base + done * bytesPerFrame, snd_pcm_uframes_t(total - done))
            if result >= 0 {
                done += result
                streamFrames.wrappingAdd(Int64(result), ordering: .relaxed)
                if result == 0 && configuration.nonBlocking { break }
                continue
            }
            guard try transferFailed(code: Int32(-result), operation: "write") else { break }
        }
        return done
    }

    public func read(into frames: UnsafeMutableRawBufferPointer) throws(PCMError) -> Int {
        precondition(direction == .capture, "read on a playback stream")
        let pcm = try open("read")
        let bytesPerFrame = parameters.bytesPerFrame
        precondition(frames.count % bytesPerFrame == 0, "read needs room for whole frames")
        let total = frames.count / bytesPerFrame
        guard total > 0, let base = frames.baseAddress else { return 0 }
        var done = 0
        while done < total {
            let result = snd_pcm_readi(pcm, base + done * bytesPerFrame, snd_pcm_uframes_t(total - done))
            if result >= 0 {
                done += result
                streamFrames.wrappingAdd(Int64(result), ordering: .relaxed)
                if result == 0 && configuration.nonBlocking { break }
                continue
            }
            guard try transferFailed(code: Int32(-result), operation: "read") else { break }
        }
        return done
    }

    public func wait(timeout: Duration?) throws(PCMError) -> Bool {
        let pcm = try open("wait")
        let milliseconds = timeout.map { Int32(clamping: max($0.nanoseconds / 1_000_000, 0)) } ?? -1
        while true {
            let result = snd_pcm_wait(pcm, milliseconds)
            if result >= 0 { return result > 0 }
            guard try transferFailed(code: -result, operation: "wait") else { return false }
            if result == -EPIPE || result == -ESTRPIPE { return true }
        }
    }

    /// Handles a failed transfer: true to retry (interrupted, or an xrun recovered), false to stop
    /// (would block); throws anything else.
    private func transferFailed(code: Int32, operation: String) throws(PCMError) -> Bool {
        switch code {
        case EINTR: return true
        case EAGAIN: return false
        case EPIPE, ESTRPIPE:
            let error: PCMError = code == EPIPE
                ? .xrun(name: name, direction: direction) : .suspended(name: name, direction: direction)
            guard configuration.recoversXruns else { throw error }
            try recover(from: error)
            return true
        default:
            throw failure(operation, code: code)
        }
    }

    // MARK: transport

    public func start() throws(PCMError) {
        let pcm = try open("start")
        let result = snd_pcm_start(pcm)
        guard result == 0 else { throw failure("start", code: -result) }
    }

    public func drop() throws(PCMError) {
        let pcm = try open("drop")
        var queued: snd_pcm_sframes_t = 0
        if snd_pcm_delay(pcm, &queued) == 0, queued > 0 {
            // Queued playback frames will never play; unread capture frames were captured all the same.
            streamFrames.wrappingAdd(direction == .playback ? -Int64(queued) : Int64(queued), ordering: .relaxed)
        }
        var result = snd_pcm_drop(pcm)
        if result == 0 { result = snd_pcm_prepare(pcm) }
        guard result == 0 else { throw failure("drop", code: -result) }
    }

    public func drain() throws(PCMError) {
        let pcm = try open("drain")
        if direction == .playback && state == .prepared, (try? delay()) ?? 0 > 0 {
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

    public func pause() throws(PCMError) {
        let pcm = try open("pause")
        guard canPause else { throw PCMError.unsupported(name: name, operation: "pause (no hardware pause)") }
        guard state == .running else { throw PCMError.badState(name: name, operation: "pause", state: state) }
        let result = snd_pcm_pause(pcm, 1)
        guard result == 0 else { throw failure("pause", code: -result) }
    }

    public func resume() throws(PCMError) {
        let pcm = try open("resume")
        guard canPause else { throw PCMError.unsupported(name: name, operation: "resume (no hardware pause)") }
        guard state == .paused else { throw PCMError.badState(name: name, operation: "resume", state: state) }
        let result = snd_pcm_pause(pcm, 0)
        guard result == 0 else { throw failure("resume", code: -result) }
    }

    public func recover(from error: PCMError) throws(PCMError) {
        let pcm = try open("recover")
        let frame = streamFrames.load(ordering: .relaxed)
            + (direction == .capture ? Int64(parameters.bufferFrames) : 0)
        switch error {
        case .xrun:
            xruns.recordXrun(at: clock.now, frame: frame)
            if direction == .capture {
                // An overrun stops with the buffer full (stop threshold = buffer): those frames were
                // captured and are lost to the prepare; count them so the position stays the device's.
                streamFrames.wrappingAdd(Int64(parameters.bufferFrames), ordering: .relaxed)
            }
            let result = snd_pcm_prepare(pcm)
            guard result == 0 else { throw failure("recover from an xrun", code: -result) }
        case .suspended:
            xruns.recordSuspend(at: clock.now, frame: frame)
            // Resume where the hardware can; otherwise (ENOSYS) or while still waking (EAGAIN), prepare.
            // Never snd_pcm_recover's one-second sleeps: the render thread has one period to spare.
            if snd_pcm_resume(pcm) != 0 {
                let result = snd_pcm_prepare(pcm)
                guard result == 0 else { throw PCMError.suspended(name: name, direction: direction) }
            }
        default:
            throw error
        }
    }

    // MARK: errors

    private func open(_ operation: String) throws(PCMError) -> OpaquePointer {
        guard let handle else { throw PCMError.badState(name: name, operation: operation, state: .closed) }
        return handle
    }

    private func failure(_ operation: String, code: Int32) -> PCMError {
        switch code {
        case EPIPE: .xrun(name: name, direction: direction)
        case ESTRPIPE: .suspended(name: name, direction: direction)
        case ENODEV: .disconnected(name: name, direction: direction)
        case EBADFD: .badState(name: name, operation: operation, state: state)
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
