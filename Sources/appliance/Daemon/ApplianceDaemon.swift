import HAL

/// The running appliance: brings the board and the subsystems up, answers console commands on the control
/// loop, and shuts down in order. Everything here runs on the loop's thread.
///
/// Bring-up (`RunCommand` does the order): termination signals blocked before any thread starts, the
/// instance lock, the settings, the board (codec powered up pop-free), the subsystems, the console, READY=1.
/// Shutdown (SIGTERM, SIGINT, SIGHUP or `shutdown`): the recording finalized, every subsystem shut down, the
/// settings saved, the codec powered down, STOPPING=1, exit 0.
final class ApplianceDaemon {
    let loop: ControlLoop
    let parts: DaemonParts
    let settings: LiveSettings
    let store: SettingsStore?
    let log: ServiceLog
    let notifier: ServiceNotifier
    /// Where events go (the console's broadcast), on the loop's thread; set by whoever starts the console.
    var broadcast: (ApplianceEvent) -> Void = { _ in }
    /// Lines shown to the console when it starts (recovered recordings, a corrupt settings file).
    private(set) var notices: [String] = []
    private(set) var isShuttingDown = false
    /// Why the daemon stopped, for the last log line.
    private(set) var stopReason: String?
    private let startedAt: Timestamp
    /// Save a change this long after it was made (a burst of `vol +5` writes once).
    static let settingsDelay: Duration = .seconds(2)
    private var dirtySince: Timestamp?
    private var lastWatchdog: Timestamp

    init(loop: ControlLoop, parts: DaemonParts, settings: LiveSettings, store: SettingsStore?,
         log: ServiceLog = ServiceLog(), notifier: ServiceNotifier = ServiceNotifier()) {
        self.loop = loop
        self.parts = parts
        self.settings = settings
        self.store = store
        self.log = log
        self.notifier = notifier
        startedAt = loop.clock.now
        lastWatchdog = startedAt
    }

    /// Says something worth knowing at start-up on the log, and later on the console.
    func notice(_ line: String, priority: ServiceLog.Priority = .info) {
        notices.append(line)
        log.log(priority, line)
    }

    /// Registers the loop's timers: subsystem ticks, the delayed settings save, the watchdog.
    func installTimers() {
        for subsystem in parts.subsystems {
            loop.addTimer(deadline: { subsystem.nextDeadline }, polls: subsystem.ticksOnlyPoll,
                          fire: { subsystem.tick(now: $0) })
        }
        loop.addTimer(deadline: { [unowned self] in settingsSaveDeadline() }, fire: { [unowned self] _ in saveSettings() })
        if let interval = notifier.watchdogInterval {
            loop.addTimer(deadline: { [unowned self] in lastWatchdog + interval }, fire: { [unowned self] now in
                lastWatchdog = now
                do { try notifier.watchdog() } catch { log.warning("watchdog: \(error)") }
            })
        }
    }

    /// Start-up is complete: tell systemd.
    func ready() {
        do { try notifier.ready(status: "running on \(parts.board.name)") } catch { log.warning("notify: \(error)") }
        log.info("appliance ready on board \(parts.board.name)")
    }

    // MARK: Commands

    /// Answers one console command. `events` switches the asking connection's event stream.
    func dispatch(_ command: ConsoleCommand, events: ((Bool) -> Void)? = nil) -> ConsoleReply {
        if isShuttingDown { return .error(.state, "the appliance is shutting down") }
        let reply: ConsoleReply
        switch command {
        case .help(let topic):
            reply = parts.help?(topic) ?? .error(.internal, "no help in this build")
        case .status:
            reply = .ok(statusLines)
        case .player(let request):
            guard let player = parts.player else { return missing("player") }
            reply = player.perform(request)
        case .recorder(let request):
            guard let recorder = parts.recorder else { return missing("recorder") }
            reply = recorder.perform(request)
        case .audio(let request):
            guard let audio = parts.audio else { return missing("volume and route control") }
            reply = audio.perform(request)
        case .stop:
            reply = stopEverything()
        case .sounds(let name):
            reply = parts.sounds?(name) ?? missing("system sound player")
        case .button(let name, let gesture):
            reply = attempt { () throws(DaemonError) in try parts.board.simulateButton(name, gesture) }
        case .jack(let state):
            reply = attempt { () throws(DaemonError) in try parts.board.simulateJack(state) }
        case .board:
            reply = .ok(parts.board.descriptionLines)
        case .stats:
            reply = .ok(statsLines)
        case .selftest:
            reply = selfTest()
        case .events(let on):
            guard let events else { return .error(.state, "this connection cannot stream events") }
            events(on)
            reply = .ok()
        case .shutdown:
            requestShutdown(reason: "shutdown command")
            reply = .ok(["shutting down"])
        }
        noteSettingsChange()
        return reply
    }

    /// `status`: one line per subsystem, then how long it has run.
    var statusLines: [String] {
        var lines = ["board: \(parts.board.name)"]
        for subsystem in parts.subsystems { lines += subsystem.statusLines }
        let seconds = (loop.clock.now - startedAt).components.seconds
        lines.append("uptime: \(seconds / 3600)h\((seconds / 60) % 60)m\(seconds % 60)s")
        return lines
    }

    /// `stats`: the board's device counters, then the faults lived through (`FaultCounters`).
    var statsLines: [String] {
        let board = parts.board.statsLines
        return (board.isEmpty ? ["no device statistics on this board yet"] : board) + parts.faults.statsLines
    }

    /// `stop`: a recording first (finalized), then playback.
    private func stopEverything() -> ConsoleReply {
        var lines: [String] = []
        if let recorder = parts.recorder, recorder.isRecording {
            let stopped = recorder.stopRecording()
            if case .error = stopped.outcome { return stopped }
            lines += stopped.lines
        }
        if let player = parts.player {
            let stopped = player.stopPlayback()
            if case .error = stopped.outcome, lines.isEmpty { return stopped }
            lines += stopped.lines
        }
        return .ok(lines)
    }

    private func selfTest() -> ConsoleReply {
        let checks = parts.board.selfTest()
        let failed = checks.filter { !$0.passed }.count
        let lines = checks.map(\.line)
        guard failed == 0 else {
            return ConsoleReply(lines: lines, outcome: .error(.device, "\(failed) of \(checks.count) checks failed"))
        }
        return .ok(lines)
    }

    private func attempt(_ body: () throws(DaemonError) -> Void) -> ConsoleReply {
        do throws(DaemonError) { try body(); return .ok() } catch { return error.reply }
    }

    private func missing(_ what: String) -> ConsoleReply {
        .error(.state, "the \(what) is not available in this build")
    }

    // MARK: Settings

    private func noteSettingsChange() {
        if settings.isDirty && dirtySince == nil { dirtySince = loop.clock.now }
    }

    private func settingsSaveDeadline() -> Timestamp? {
        noteSettingsChange()
        return dirtySince.map { $0 + Self.settingsDelay }
    }

    /// Writes the settings if they changed; a failure is logged and retried at the next change or shutdown.
    func saveSettings() {
        dirtySince = nil
        guard settings.isDirty, let store else { return }
        do {
            try store.save(settings.value)
            settings.isDirty = false
        } catch {
            log.error("settings not saved: \(error)")
        }
    }

    // MARK: Shutdown

    /// Ends the loop after the current turn (the reply to `shutdown` is written first); `shutdown()` follows.
    func requestShutdown(reason: String) {
        guard stopReason == nil else { return }
        stopReason = reason
        log.info("stopping: \(reason)")
        do { try notifier.stopping() } catch { log.warning("notify: \(error)") }
        loop.stop()
    }

    /// The orderly end: the recording finalized, subsystems shut down (recorder first), settings saved, the
    /// codec powered down. Runs once.
    func shutdown() {
        guard !isShuttingDown else { return }
        isShuttingDown = true
        if let recorder = parts.recorder, recorder.isRecording {
            let stopped = recorder.stopRecording()
            if case .error(_, let message) = stopped.outcome { log.error("recording not finalized: \(message)") }
        }
        for subsystem in parts.subsystems { subsystem.shutdown() }
        settings.isDirty = settings.isDirty || store != nil
        saveSettings()
        parts.stopAudio()
        if let problem = parts.board.powerDown() { log.warning("codec power-down: \(problem)") }
        broadcast(ApplianceEvent(.shutdown, stopReason ?? ""))
        log.info("appliance stopped")
    }
}
