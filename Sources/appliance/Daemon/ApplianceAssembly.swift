import Board
import Codec8_24
import HAL
import Queue

/// Puts a running appliance together on a board: the assembled board (codec powered up pop-free), the
/// render engine on the board's PCMs, and the subsystems on it (player, recorder, volume/route). The one
/// place that knows which concrete class plays which part; the daemon only sees `DaemonParts`.
final class ApplianceAssembly {
    /// The engine's device format: 32-bit containers (24-bit codecs left-justify into them), 48 kHz stereo,
    /// 10 ms periods, four of them unless `appliance run --periods` asks for more.
    static let rate = 48_000
    static let periodFrames = 480
    static let periodCount = 4
    /// What `--periods` may ask: a buffer of 20 ms to 640 ms.
    static let periodCounts = 2...64

    let board: AssembledDaemonBoard
    let engine: RenderEngine
    let callbacks: AudioQueueCallbackThread
    let parts: DaemonParts
    private let startedAt: Timestamp
    private let gain: EngineGain
    /// The engine's playback device, for `stats`' buffer fill (its delay: frames queued ahead of the DAC);
    /// replaced, with the capture device, when the card went away and came back (`AudioDeviceWatch`).
    private var playback: any PCMDevice
    private var capture: (any PCMDevice)?
    /// Said once at start, on the log and the console (a missing GPIO chip).
    private(set) var startNotices: [String] = []
    /// The capture device open now (tests inject faults on the simulated one).
    var captureDevice: (any PCMDevice)? { capture }
    /// Watches the devices; a subsystem of `parts`.
    private(set) var deviceWatch: AudioDeviceWatch!
    private var lastXruns = 0

    /// `locksMemory`: mlockall as DESIGN.md requires (the unit grants LimitMEMLOCK); false only for tests that
    /// assemble inside the test runner, whose own memory is not ours to lock.
    convenience init(config: BoardConfig, pcm: String?, periods: Int = periodCount, paths: DaemonPaths, loop: ControlLoop,
                     settings: LiveSettings, log: ServiceLog, locksMemory: Bool = true,
                     events: @escaping EventSink) throws(DaemonError) {
        let board = try Self.board(config, options: BoardAssemblyOptions(pcm: pcm, loopback: config.isSimulated && pcm == nil))
        try self.init(assembled: board.assembled, pcm: pcm, periods: periods, paths: paths, loop: loop, settings: settings,
                      log: log, locksMemory: locksMemory, gpioMissing: board.gpioMissing, events: events)
    }

    /// The board put together; when its GPIO chip is not there (a kernel without the HAT's GPIO driver, a
    /// wrong chip in the board file), put together again without what sits on GPIO lines, so the appliance
    /// still plays, records and answers its console: a person at an appliance expects sound before buttons.
    /// `gpioMissing` then says what is missing, once, for the log and the console.
    static func board(_ config: BoardConfig, options: BoardAssemblyOptions) throws(DaemonError)
        -> (assembled: AssembledBoard, gpioMissing: String?) {
        do throws(BoardDeviceError) {
            return (try AssembledBoard(config: config, options: options), nil)
        } catch where error.isGPIOChipMissing {
            let missing = config.gpioUses.joined(separator: ", ")
            do {
                let degraded = try AssembledBoard(config: config.withoutGPIO, options: options)
                return (degraded, "\(error): running without \(missing)")
            } catch {
                throw .board("\(config.name): \(error)")
            }
        } catch {
            throw .board("\(config.name): \(error)")
        }
    }

    /// On `assembled`, not yet powered up. Any failure after the power-up powers the codec down again and
    /// releases what was opened (lines, the queue thread), so a failed start leaves the board as it found it.
    /// `startsEngine` false leaves the render threads unstarted: the caller turns the engine's periods itself,
    /// as the soak does on a manual clock (a day of simulated time cannot wait for real-time threads).
    init(assembled: AssembledBoard, pcm: String?, periods: Int = periodCount, paths: DaemonPaths, loop: ControlLoop,
         settings: LiveSettings, log: ServiceLog, locksMemory: Bool, gpioMissing: String? = nil, startsEngine: Bool = true,
         events: @escaping EventSink) throws(DaemonError) {
        let config = assembled.config
        let board = AssembledDaemonBoard(board: assembled, loop: loop, log: log)
        self.board = board
        try board.powerUp()
        var started = false
        var queueThread: AudioQueueCallbackThread?
        var opened: [any PCMDevice] = []
        defer {
            if !started {
                queueThread?.end()
                for device in opened { device.close() }
                if let problem = board.powerDown() { log.warning("power-down after a failed start: \(problem)") }
            }
        }
        let configuration = PCMConfiguration(format: .s32LE, rate: Self.rate, channels: 2, periodFrames: Self.periodFrames,
                                             periodCount: periods, allowsNearestRate: pcm != nil)
        let playback: any PCMDevice
        do { playback = try assembled.pcms.openPlayback(configuration) } catch { throw .device("\(error)") }
        opened.append(playback)
        self.playback = playback
        let capture: (any PCMDevice)? = assembled.pcms.captureName == nil ? nil : try? assembled.pcms.openCapture(configuration)
        self.capture = capture
        if let capture { opened.append(capture) }
        do {
            engine = try RenderEngine(output: playback, input: capture, configuration: RenderEngine.Configuration(locksMemory: locksMemory))
            let thread = try AudioQueueCallbackThread(name: "queues", pollInterval: .milliseconds(10))
            callbacks = thread
            queueThread = thread
        } catch {
            throw .device("cannot start the audio engine: \(error)")
        }
        let recordingsDirectory = paths.recordings
        let recorder = RecordingService(directory: recordingsDirectory, loop: loop, host: capture == nil ? nil : engine,
                                        settings: settings, events: events,
                                        recordLED: RecordLED.driver(assembled.leds, log: log))
        // The library resolves the path it is asked about; the take's files are resolved too (the
        // recordings directory may be given relative), so the two compare as the same file.
        let library = MediaLibrary(mediaDirectory: paths.media, recordingsDirectory: recordingsDirectory) { [weak recorder] path in
            let resolved = (try? FileSystem.resolvedPath(path)) ?? path
            return recorder?.currentTakePaths.contains(resolved) == true
        }
        let player = PlaybackService(library: library, host: engine, callbackThread: callbacks, loop: loop,
                                     settings: settings, events: events, seed: UInt64(loop.clock.now.nanoseconds))
        var inputs: [CodecInput: PCMCapabilities] = [:]
        if let capture {
            for input in assembled.codec.codec.capabilities.inputs { inputs[input] = capture.capabilities }
        }
        var hooks = AudioHooks()
        let engine = self.engine
        let gain = EngineGain(engine: engine)
        self.gain = gain
        hooks.setFineGain = { gain.setFineGain($0) }
        hooks.setPreset = { gain.setPreset($0) }
        hooks.setAmplifier = { on in
            do { try assembled.amplifier?.set(on: on) } catch { log.warning("amplifier: \(error)") }
        }
        let sounds: SystemSounds
        do { sounds = try SystemSounds(host: engine, clock: loop.clock) } catch { throw .device("system sounds: \(error)") }
        hooks.systemSounds = { [weak sounds] allowed in sounds?.setAllowed(allowed) }
        hooks.pausePlayback = { [weak player] in player?.pauseForRouteChange() }
        hooks.isPlaying = { [weak player] in player?.isPlaying ?? false }
        hooks.isOutputActive = { [weak player, weak sounds] in player?.isPlaying == true || (sounds?.player.playsInProgress ?? 0) > 0 }
        hooks.event = events
        let faults = FaultCounters()
        if let gpioMissing {
            faults.count(.gpioMissing)
            startNotices.append(gpioMissing)
        }
        player.faults = faults
        recorder.faults = faults
        hooks.countFault = { faults.count($0) }
        hooks.bringUpCodec = { [unowned board] in
            do throws(DaemonError) { try board.powerUp() } catch { return "\(error)" }
            return nil
        }
        let audio: AudioController
        do {
            audio = try AudioController(board: config, codec: assembled.codec.codec,
                                        capabilities: HardwareCapabilities(output: playback.capabilities, inputs: inputs),
                                        hardware: HardwareSettings(sampleRate: Self.rate, ioBufferFrames: Self.periodFrames,
                                                                   outputChannels: 2, inputChannels: capture == nil ? 0 : 2),
                                        jack: assembled.jack?.state ?? .unplugged, settings: settings, clock: loop.clock,
                                        hooks: hooks)
        } catch {
            throw .device("cannot set up the audio session: \(error)")
        }
        board.jackChanged = { [weak audio] event in
            events(ApplianceEvent(.jack, "\(event.state)"))
            audio?.jackChanged(event)
        }
        let buttons: ButtonInput
        do {
            buttons = try ButtonInput(config: config, gpio: assembled.gpio, loop: loop) { [weak player, weak recorder, weak audio] action in
                ApplianceAssembly.route(action, player: player, recorder: recorder, audio: audio, events: events)
            }
        } catch {
            throw .device("buttons: \(error)")
        }
        board.pressButton = { name, gesture throws(DaemonError) in
            do throws(ButtonInputError) { try buttons.simulate(button: name, gesture: gesture) } catch {
                switch error.consoleCode {
                case .notFound: throw .notFound("\(error)")
                case .denied: throw .denied("\(error)")
                default: throw .device("\(error)")
                }
            }
        }
        startedAt = loop.clock.now
        let watch = AudioDeviceWatch(actions: AudioDeviceWatch.Actions(failure: { nil }, stopAudio: { [] }, reopen: { nil }),
                                     events: events, faults: faults, now: loop.clock.now)
        parts = DaemonParts(board: board, player: player, recorder: recorder, audio: audio, others: [board, buttons, sounds, watch],
                            sounds: { [weak sounds] name in sounds?.reply(name) ?? .error(.state, "no system sounds") },
                            faults: faults)
        board.engineStats = { [unowned self] in statsLines(now: loop.clock.now) }
        deviceWatch = watch
        watch.actions = AudioDeviceWatch.Actions(
            failure: { [unowned self] in engine.outputFailure ?? engine.inputFailure },
            stopAudio: { [unowned self, weak recorder, weak player] in
                var said: [String] = []
                if let recorder, recorder.isRecording {
                    let stopped = recorder.stopRecording()
                    said.append(stopped.outcome == .ok ? "the recording was stopped and kept" : "the recording: \(stopped.finalLine)")
                }
                if let player, player.state.transport != .stopped {
                    _ = player.stopPlayback()
                    said.append("playback stopped")
                }
                _ = engine.stop(.drop)
                playback.close()
                capture?.close()
                return said
            },
            reopen: { [unowned self] in reopenDevices(assembled.pcms, configuration) })
        if assembled.pcms.loopback != nil {
            board.signalCheck = { [unowned self] in
                // The tone at unity gain and flat, whatever the volume and EQ are; put back afterwards.
                gain.bypass(true)
                defer { gain.bypass(false) }
                return LoopbackToneCheck.run(engine: self.engine, clock: loop.clock)
            }
        }
        for line in audio.restore() { log.info(line) }
        if startsEngine {
            do { try engine.start() } catch { throw .device("cannot start the audio engine: \(error)") }
        }
        recorder.standBy()   // the pre-roll ring (when configured) fills from boot, for the first take too
        started = true
    }

    /// A button action, on the loop: remote events to the recorder (record button), the player (transport)
    /// or the volume, whichever takes it; the shift chord's marker; encoder detents as volume steps.
    static func route(_ action: ButtonAction, player: (any PlayerControl)?, recorder: (any RecorderControl)?,
                      audio: (any AudioControl)?, events: EventSink) {
        switch action {
        case .remote(let event, let gesture):
            events(ApplianceEvent(.button, "\(gesture.button) \(gesture.gesture) \(event)"))
            if recorder?.handle(event) == true || player?.handle(event) == true { return }
            _ = audio?.handle(event)
        case .chord(let chord, let gesture):
            events(ApplianceEvent(.button, "shift+\(gesture.button) \(gesture.gesture) \(chord)"))
            switch chord {
            case .marker: _ = recorder?.perform(.mark(nil))
            }
        case .encoder(let name, let role, let steps, _):
            events(ApplianceEvent(.button, "\(name) \(steps > 0 ? "+" : "")\(steps)"))
            switch role {
            case .volume: audio?.nudgeVolume(steps: steps)
            }
        case .gesture(let gesture):
            events(ApplianceEvent(.button, "\(gesture.button) \(gesture.gesture)"))
        }
    }

    /// `stats`: xruns, periods rendered, actual vs nominal rate from the device timeline, the render thread's
    /// worst and mean render time per period against the period's length (read live, without a lock), the
    /// playback device's fill (frames queued ahead of the DAC, of its buffer) and the codec bus's I2C retries.
    func statsLines(now: Timestamp) -> [String] {
        let seconds = Double((now - startedAt).nanoseconds) / 1e9
        let played = engine.timeline.playedFrames
        let actual = seconds > 0 ? Double(played) / seconds : 0
        var lines = ["xruns: \(engine.xruns)",
                     "periods: \(engine.outputPeriods) out, \(engine.inputPeriods) in",
                     "rate: \(Int(actual.rounded())) Hz actual, \(engine.timeline.sampleRate) Hz nominal"]
        let periodMicroseconds = Self.periodFrames * 1_000_000 / Self.rate
        if let times = engine.liveRenderTimes {
            lines.append("render: worst \(times.worstNanoseconds / 1000) us, mean \(times.meanNanoseconds / 1000) us "
                         + "of a \(periodMicroseconds) us period (\(times.periods) periods)")
        }
        let bufferFrames = playback.parameters.bufferFrames
        if let queued = try? playback.delay() {
            lines.append("buffer: \(queued) of \(bufferFrames) frames queued (\(bufferFrames > 0 ? queued * 100 / bufferFrames : 0)%)")
        } else {
            lines.append("buffer: unknown of \(bufferFrames) frames (the device did not say)")
        }
        lines.append("i2c retries: \(board.board.codec.bus.retryCount)")
        return lines
    }

    /// The engine's fine gain and software EQ as the audio controls set them, put aside for `selftest`.
    final class EngineGain {
        let engine: RenderEngine
        private var fineGain = Fixed824.one
        private var preset = EQPreset.flat
        private var bypassed = false
        init(engine: RenderEngine) { self.engine = engine }

        func setFineGain(_ value: Fixed824) {
            fineGain = value
            if !bypassed { engine.setFineGain(value) }
        }

        func setPreset(_ value: EQPreset) {
            preset = value
            if !bypassed { engine.setPreset(value) }
        }

        func bypass(_ on: Bool) {
            bypassed = on
            engine.setFineGain(on ? .one : fineGain)
            engine.setPreset(on ? .flat : preset)
        }
    }

    /// The card's devices opened again with the configuration they had, and the engine started on them;
    /// why not, nil when it worked. A half-open pair is closed again.
    private func reopenDevices(_ pcms: BoardPCMs, _ configuration: PCMConfiguration) -> String? {
        let newPlayback: any PCMDevice
        do { newPlayback = try pcms.openPlayback(configuration) } catch { return "\(error)" }
        var newCapture: (any PCMDevice)?
        if capture != nil {
            do { newCapture = try pcms.openCapture(configuration) } catch {
                newPlayback.close()
                return "\(error)"
            }
        }
        do {
            try engine.replaceDevices(output: newPlayback, input: newCapture)
            try engine.start()
        } catch {
            newPlayback.close()
            newCapture?.close()
            return "\(error)"
        }
        playback = newPlayback
        if let newCapture { capture = newCapture }
        return nil
    }

    /// New xruns since the last call, for `EVENT xrun`.
    func newXruns() -> Int {
        let now = engine.xruns
        defer { lastXruns = now }
        return now - lastXruns
    }

    /// Stops the engine (a short fade out) and the queue thread; the board powers down after this.
    func stop() {
        _ = engine.stop(.drop)
        callbacks.end()
    }
}
