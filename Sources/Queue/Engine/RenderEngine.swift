import Codec8_24
import HAL
import Synchronization

/// The render engine: an output unit that pulls every attached `RenderSource` through the output chain into
/// the playback PCM once a period, and an input unit that widens captured frames to 8.24 for every attached
/// `CaptureSink`; one render thread per direction (SCHED_FIFO when permitted). Or, made without a device,
/// the same unit and chain in manual rendering mode: the caller pulls frames (`renderManually`),
/// deterministically.
///
/// The device clock is the engine's timeline (`timeline`): each period the output unit reads the PCM's frame
/// position and hands every source a `RenderTime` on it. Control reaches the render threads only through the
/// slot hand-over (`EngineSlots`: a fixed table and a ring of slot numbers) and atomics.
public final class RenderEngine: RenderHost, @unchecked Sendable {
    /// How `stop` ends playback after the fade-out.
    public enum StopMode: Sendable {
        /// Play out what the device has queued, then stop.
        case drain
        /// Discard what is queued.
        case drop
    }

    public let configuration: Configuration
    public let outputRate: Int
    public let maximumFrames: Int
    public let timeline: DeviceTimeline
    /// The output chain (its mixer's inputs are the engine's slots). Control-thread calls on it belong between
    /// renders: in manual mode, or while the engine is stopped.
    public let chain: OutputChain
    /// Channels the output unit renders (the device's, or the manual render's).
    public let outputChannels: Int
    public var inputRate: Int? { capture?.rate }
    public var inputChannels: Int? { capture?.channels }

    let output: OutputUnit
    let playback: PlaybackLoop?
    let capture: CaptureLoop?
    private let log: @Sendable (String) -> Void
    private let state = Mutex(ControlState())

    private struct ControlState {
        /// Render threads started and not yet joined (true while a stop is under way: commands then wait
        /// for the threads, whose rings they are).
        var running = false
        var stopping = false
        var outputThread: RealtimeThread?
        var inputThread: RealtimeThread?
        /// Said once per engine: real-time scheduling refused, memory not locked.
        var reportedScheduling = false
        var reportedMemoryLock = false
        /// Whether the last start locked memory (nil: not asked to).
        var memoryLocked: Bool?
    }

    /// An engine over a playback and/or a capture PCM (at least one). `log` receives the engine's one-time
    /// notes (real-time scheduling refused, memory not locked), on the control thread.
    public init(output outputDevice: (any PCMDevice)?, input inputDevice: (any PCMDevice)?,
                configuration: Configuration = Configuration(),
                log: @escaping @Sendable (String) -> Void = RenderEngine.standardLog) throws(RenderEngineError) {
        guard let reference = outputDevice ?? inputDevice else {
            throw .wrongState(operation: "make an engine", state: "without a playback or a capture device")
        }
        if let outputDevice, outputDevice.direction != .playback {
            throw .wrongState(operation: "render output into \(outputDevice.name)", state: "given a capture stream")
        }
        if let inputDevice, inputDevice.direction != .capture {
            throw .wrongState(operation: "capture from \(inputDevice.name)", state: "given a playback stream")
        }
        let parameters = reference.parameters
        self.configuration = configuration
        self.log = log
        outputRate = parameters.rate
        maximumFrames = parameters.periodFrames
        outputChannels = outputDevice?.parameters.channels ?? 2
        timeline = DeviceTimeline(sampleRate: parameters.rate)
        chain = try Self.makeChain(configuration, rate: outputRate, maximumFrames: maximumFrames,
                                   channels: outputChannels,
                                   dither: configuration.ditherDepth(for: outputDevice?.parameters.format))
        let unit = OutputUnit(chain: chain, inputChannels: configuration.inputChannels, outputChannels: outputChannels)
        output = unit
        let fadeFrames = GainRamp.frames(milliseconds: configuration.fadeMilliseconds, sampleRate: Double(outputRate))
        let timeline = timeline
        playback = outputDevice.map { PlaybackLoop(unit: unit, device: $0, timeline: timeline, fadeFrames: fadeFrames) }
        capture = inputDevice.map { CaptureLoop(device: $0, slots: configuration.captureSlots) }
    }

    /// An engine in manual rendering mode: no device, no thread; `renderManually` pulls `channels` channels
    /// at `rate`, at most `maximumFrames` at a time, dithered to `dither` (nil: none, e.g. for 8.24, float
    /// or 32-bit output; `configuration.dither` is for devices).
    public init(manualRate rate: Int, channels: Int, maximumFrames: Int, dither: Ditherer.Depth? = nil,
                configuration: Configuration = Configuration()) throws(RenderEngineError) {
        guard rate > 0, maximumFrames > 0 else {
            throw .wrongState(operation: "render \(maximumFrames) frames at \(rate) Hz", state: "being made")
        }
        self.configuration = configuration
        self.log = { _ in }
        outputRate = rate
        self.maximumFrames = maximumFrames
        outputChannels = channels
        timeline = DeviceTimeline(sampleRate: rate)
        chain = try Self.makeChain(configuration, rate: rate, maximumFrames: maximumFrames, channels: channels, dither: dither)
        output = OutputUnit(chain: chain, inputChannels: configuration.inputChannels, outputChannels: channels)
        playback = nil
        capture = nil
    }

    private static func makeChain(_ configuration: Configuration, rate: Int, maximumFrames: Int, channels: Int,
                                  dither: Ditherer.Depth?) throws(RenderEngineError) -> OutputChain {
        let chainConfiguration = OutputChain.Configuration(
            sampleRate: Double(rate), maximumFrames: maximumFrames, inputChannels: configuration.inputChannels,
            outputChannels: channels, softwareEQ: configuration.softwareEQ, limiter: configuration.limiter,
            dither: dither, ditherSeed: configuration.ditherSeed, preset: configuration.preset ?? .flat,
            gainRampFrames: GainRamp.frames(milliseconds: configuration.fadeMilliseconds, sampleRate: Double(rate)))
        do {
            try chainConfiguration.validate()
        } catch {
            throw .chain(error)
        }
        let chain = OutputChain(chainConfiguration)
        chain.mixer.rampFrames = chainConfiguration.gainRampFrames
        return chain
    }

    deinit {
        stop(.drop)
    }

    /// Writes a note to standard error with journald's "warning" priority.
    public static let standardLog: @Sendable (String) -> Void = { StandardStream.error.write("<4>engine: \($0)\n") }

    // MARK: RenderHost

    public func attach(_ source: any RenderSource) throws(RenderEngineError) {
        let channels = source.renderChannels
        guard channels == 1 || channels == 2 else { throw .unsupportedChannels(channels) }
        if let refusal = output.sources.refusal(for: ObjectIdentifier(source)) { throw RenderEngineError(refusal) }
        do {
            try source.prepare(engineRate: outputRate, maximumFrames: maximumFrames)
        } catch let error as RenderEngineError {
            throw error
        } catch {
            throw .prepareFailed(reason: "\(error)")
        }
        let widths = configuration.inputChannels
        let result = output.sources.attach(source, identity: ObjectIdentifier(source), fits: { widths[$0] == channels })
        switch result {
        case .attached: break
        case .alreadyAttached, .stillReleasing: throw RenderEngineError(result)
        case .full: throw .noFreeInput(channels: channels, inputs: widths.filter { $0 == channels }.count)
        }
        settleIfIdle()
    }

    public func detach(_ source: any RenderSource) {
        output.sources.detach(ObjectIdentifier(source))
        settleIfIdle()
    }

    public func attach(_ sink: any CaptureSink) throws(RenderEngineError) {
        guard let capture else { throw .wrongState(operation: "attach a capture sink", state: "without a capture device") }
        if let refusal = capture.sinks.refusal(for: ObjectIdentifier(sink)) { throw RenderEngineError(refusal) }
        do {
            try sink.prepare(engineRate: capture.rate, channels: capture.channels, maximumFrames: capture.periodFrames)
        } catch {
            throw .prepareFailed(reason: "\(error)")
        }
        let result = capture.sinks.attach(sink, identity: ObjectIdentifier(sink), fits: { _ in true })
        switch result {
        case .attached: break
        case .alreadyAttached, .stillReleasing: throw RenderEngineError(result)
        case .full: throw .noFreeSink(slots: capture.sinks.capacity)
        }
        settleIfIdle()
    }

    public func detach(_ sink: any CaptureSink) {
        capture?.sinks.detach(ObjectIdentifier(sink))
        settleIfIdle()
    }

    /// With no render thread running, commands take effect at once (manual mode applies them at its next
    /// render, so a detach still fades there).
    private func settleIfIdle() {
        guard playback != nil || capture != nil else { return }
        state.withLock { state in
            guard !state.running else { return }
            output.settle()
            capture?.settle()
        }
    }

    // MARK: control

    /// Hands the codec volume's 8.24 remainder (at most 1.0) to the chain: a plain number, taken by the render
    /// side at its next period and ramped there (`OutputChain.take(fineGain:)`). Any thread.
    public func setFineGain(_ gain: Fixed824) {
        output.requestedFineGain.store(gain.raw, ordering: .relaxed)
    }

    /// Switches the software EQ's preset: designed here (control thread), handed over lock-free and
    /// crossfaded at the next render (`OutputChain.setPreset`). Control thread only.
    public func setPreset(_ preset: EQPreset) {
        state.withLock { _ in chain.setPreset(preset) }
    }

    // MARK: device mode

    /// Why the capture device stopped delivering, once it has failed (any thread).
    public var inputFailure: String? {
        guard let capture, capture.failed.load(ordering: .acquiring), let failure = capture.failure else { return nil }
        return "\(failure)"
    }

    /// Why the playback device stopped taking periods, once it has failed (any thread): ENODEV for a card
    /// that went away, EBADFD, EIO. Xruns and suspends are recovered, never reported here.
    public var outputFailure: String? {
        guard let playback, playback.failed.load(ordering: .acquiring), let failure = playback.failure else { return nil }
        return "\(failure)"
    }

    /// While stopped: the devices opened again after they went away and came back (nil keeps a direction's
    /// device). Each must run its predecessor's parameters; the caller closes the old ones.
    public func replaceDevices(output newOutput: (any PCMDevice)?, input newInput: (any PCMDevice)?) throws(RenderEngineError) {
        try state.withLock { (state: inout ControlState) throws(RenderEngineError) in
            guard !state.running else { throw .wrongState(operation: "replace its devices", state: "running") }
            if let newOutput, let playback {
                guard newOutput.parameters == playback.device.parameters else {
                    throw .wrongState(operation: "replace \(playback.device.name)", state: "given other parameters")
                }
                playback.replace(device: newOutput)
            }
            if let newInput, let capture {
                guard newInput.parameters == capture.device.parameters else {
                    throw .wrongState(operation: "replace \(capture.device.name)", state: "given other parameters")
                }
                capture.replace(device: newInput)
            }
        }
    }

    /// Xruns (underruns and overruns) the engine has seen and recovered from, both directions.
    public var xruns: Int {
        (playback?.xruns.load(ordering: .relaxed) ?? 0) + (capture?.xruns.load(ordering: .relaxed) ?? 0)
    }

    /// Periods written to the playback device since the engine was made.
    public var outputPeriods: Int { playback?.periods.load(ordering: .acquiring) ?? 0 }
    /// Periods read from the capture device since the engine was made.
    public var inputPeriods: Int { capture?.periods.load(ordering: .acquiring) ?? 0 }

    public var isRunning: Bool { state.withLock { $0.running } }

    /// Starts the render threads (the output fades in from silence). Notes what the system refused
    /// (SCHED_FIFO, locked memory) once, through `log`.
    public func start() throws(RenderEngineError) {
        guard playback != nil || capture != nil else {
            throw .wrongState(operation: "start", state: "in manual rendering mode (call renderManually)")
        }
        try state.withLock { (state: inout ControlState) throws(RenderEngineError) in
            guard !state.running else { return }
            state.memoryLocked = nil
            if configuration.locksMemory {
                do throws(SystemError) {
                    try MemoryLock.lockAll()
                    state.memoryLocked = true
                } catch {
                    state.memoryLocked = false
                    if !state.reportedMemoryLock {
                        state.reportedMemoryLock = true
                        log("running with memory not locked: \(error.reason)")
                    }
                }
            }
            output.settle()
            capture?.settle()
            var refusal: ThreadScheduling?
            if let playback {
                playback.prepareToStart()
                let thread = try startThread { playback.run() }
                state.outputThread = thread
                if !thread.scheduling.isRealtime { refusal = thread.scheduling }
            }
            if let capture {
                capture.prepareToStart()
                let thread: RealtimeThread
                do throws(RenderEngineError) {
                    thread = try startThread { capture.run() }
                } catch {
                    // Half started is not started: end the output thread too, or it would run on unowned.
                    if let output = state.outputThread, let playback {
                        playback.ending.store(PlaybackLoop.Ending.fadeOut.rawValue, ordering: .releasing)
                        output.join()
                        state.outputThread = nil
                    }
                    throw error
                }
                state.inputThread = thread
                if !thread.scheduling.isRealtime, refusal == nil { refusal = thread.scheduling }
            }
            state.running = true
            if let refusal, configuration.realtimePriority != nil, !state.reportedScheduling {
                state.reportedScheduling = true
                log("render threads run with \(refusal)")
            }
        }
    }

    /// The scheduling the running render threads got (output first), for status displays and tests.
    public var scheduling: [ThreadScheduling] {
        state.withLock { [$0.outputThread?.scheduling, $0.inputThread?.scheduling].compactMap { $0 } }
    }

    /// Whether the last start locked the process's memory (`mlockall`); nil when the configuration does not
    /// ask for it or the engine has not started.
    public var memoryLocked: Bool? { state.withLock { $0.memoryLocked } }

    /// The output render thread's render time per period since the last start; nil while it runs (the
    /// histogram is the render thread's alone until it is joined) or without a playback device.
    public var renderTimes: RenderTimeHistogram.Summary? {
        state.withLock { $0.running ? nil : playback?.renderTimes.summary }
    }

    /// The output render thread's render times so far, read while it runs (see `RenderTimeHistogram.live`);
    /// nil without a playback device.
    public var liveRenderTimes: RenderTimeHistogram.Live? { playback?.renderTimes.live }

    private func startThread(_ body: @escaping @Sendable () -> Void) throws(RenderEngineError) -> RealtimeThread {
        do {
            return try RealtimeThread(stackBytes: configuration.stackBytes, fifoPriority: configuration.realtimePriority,
                                      body: body)
        } catch {
            throw .thread(error)
        }
    }

    /// Stops the render threads: the output fades out over the fade time, then the device drains (plays what
    /// it has queued) or drops it; capture stops after its current period and, when draining, the frames it
    /// had captured are still delivered to the sinks. Returns the error that stopped a thread early, if any.
    @discardableResult
    public func stop(_ mode: StopMode = .drain) -> RenderEngineError? {
        let threads: (RealtimeThread?, RealtimeThread?)? = state.withLock { state in
            guard state.running && !state.stopping else { return nil }
            state.stopping = true
            return (state.outputThread, state.inputThread)
        }
        guard let threads else { return nil }
        var failure: RenderEngineError?
        if let outputThread = threads.0, let playback {
            playback.ending.store(PlaybackLoop.Ending.fadeOut.rawValue, ordering: .releasing)
            outputThread.join()
            if let error = playback.failure { failure = .device(error) }
            do {
                if mode == .drain {
                    try playback.device.drain()
                    // Everything written has now played: publish it, or the last buffers' "played" stage
                    // (read against the timeline) would never come, as no period follows.
                    if let position = try? playback.device.framePosition() {
                        timeline.didPlay(through: playback.timelineFrame(position.frame), at: position.time)
                    }
                } else {
                    try playback.device.drop()
                }
            } catch {
                failure = failure ?? .device(error)
            }
        }
        if let inputThread = threads.1, let capture {
            capture.stopping.store(true, ordering: .releasing)
            inputThread.join()
            if let error = capture.failure { failure = failure ?? .device(error) }
            do {
                if mode == .drain {
                    try capture.device.drain()
                    while try capture.period() > 0 {}   // the tail, on this thread now that the capture thread is gone
                }
                try capture.device.drop()
            } catch {
                failure = failure ?? .device(error)
            }
        }
        state.withLock { state in
            state.running = false
            state.stopping = false
            state.outputThread = nil
            state.inputThread = nil
            output.settle()
            capture?.settle()
        }
        return failure
    }

    // MARK: manual mode

    /// Renders `frames` frames (at most `maximumFrames`) of every attached source through the chain into
    /// `output` (`frames × outputChannels` 8.24 samples) and advances the timeline by them.
    public func renderManually(frames: Int, into output: UnsafeMutablePointer<Fixed824>) throws(RenderEngineError) {
        let time = try beginManualRender(frames: frames)
        self.output.pull(frames: frames, at: time)
        chain.render(frames: frames, into: output)
        endManualRender(frames: frames)
    }

    /// Renders `frames` frames into `output` in the sample format `S` (dithered when the engine was made for
    /// a 16- or 24-bit format).
    public func renderManually<S: LinearPCMSample>(frames: Int, into output: UnsafeMutablePointer<S>) throws(RenderEngineError) {
        let time = try beginManualRender(frames: frames)
        self.output.pull(frames: frames, at: time)
        chain.render(frames: frames, into: output)
        endManualRender(frames: frames)
    }

    /// The manual timeline: frames rendered are frames played, at the time those frames take at the rate.
    private func beginManualRender(frames: Int) throws(RenderEngineError) -> RenderTime {
        guard playback == nil && capture == nil else {
            throw .wrongState(operation: "render manually", state: "driving a device (make it with init(manualRate:...))")
        }
        guard frames >= 0 && frames <= maximumFrames else { throw .tooManyFrames(requested: frames, maximum: maximumFrames) }
        let sampleTime = timeline.renderedFrames
        let hostTime = Timestamp(nanoseconds: Int64(outputRate).dividingFullWidth(
            sampleTime.multipliedFullWidth(by: 1_000_000_000)).quotient)
        timeline.didPlay(through: sampleTime, at: hostTime)
        return RenderTime(sampleTime: sampleTime, hostTime: hostTime)
    }

    private func endManualRender(frames: Int) {
        timeline.didRender(frames: frames)
        output.sources.reclaim()
    }
}
