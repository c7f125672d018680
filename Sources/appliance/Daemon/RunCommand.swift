import ArgumentParser
import Board
import HAL
import Synchronization

/// `appliance run`: the appliance itself. Brings the board up and serves the console until SIGTERM, SIGINT,
/// SIGHUP or `shutdown`; exits 0 after an orderly shutdown.
struct RunCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "run",
        abstract: "Run the appliance: player, recorder, buttons and the console.",
        discussion: """
            Under systemd (INVOCATION_ID or NOTIFY_SOCKET set) settings and recordings live in \
            /var/lib/appliance, the media in /var/lib/appliance/media, the control socket in /run/appliance. \
            Run from a terminal (as root too) everything is kept under ./.appliance/. The instance lock is \
            $APPLIANCE_LOCK, else /run/appliance/appliance.lock for root or the service, else \
            $XDG_RUNTIME_DIR/appliance.lock (or /tmp/appliance-UID.lock), whatever --state says. The console \
            is stdin/stdout unless --console names a serial \
            device.
            """)

    @Option(help: "The board: a name from 'appliance board list', a board file, or auto ('appliance board which').")
    var board = "simulated"

    @OptionGroup var choice: BoardCommand.ChoiceOptions

    @Option(help: "The console's serial device (e.g. /dev/ttyAMA0); default: stdin/stdout.")
    var console: String?

    @Option(help: "The serial console's baud rate.")
    var baud = 115_200

    @Option(help: "Play and record through this ALSA PCM instead of the board's (e.g. default).")
    var pcm: String?

    @Option(help: ArgumentHelp("Periods of 10 ms in the PCM buffers (default 4).",
                               discussion: "More ride out a machine that stalls (an emulated CPU), at the cost of latency."))
    var periods = ApplianceAssembly.periodCount

    @Option(help: "The media directory (play, ls).")
    var media: String?

    @Option(help: "Where recordings go.")
    var recordings: String?

    @Option(help: "Where the settings (settings.json) are kept.")
    var state: String?

    @Option(help: "The control socket for 'appliance ctl'.")
    var socket: String?

    @Option(help: "Look for board files in this directory first.")
    var boards: String?

    /// The paths this run uses: the defaults with the options applied.
    var paths: DaemonPaths {
        var paths = DaemonPaths.defaults()
        if let state {
            paths.state = state
            paths.runtime = state  // the lock stays where DaemonPaths.lockPath puts it
            paths.media = state + "/media"
            paths.recordings = state + "/recordings"
            paths.socket = state + "/control.sock"
        }
        if let media { paths.media = media }
        if let recordings { paths.recordings = recordings }
        if let socket { paths.socket = socket }
        return paths
    }

    func validate() throws {
        guard baud > 0 else { throw ValidationError("--baud must be a positive number of bits per second") }
        let counts = ApplianceAssembly.periodCounts
        guard counts.contains(periods) else {
            throw ValidationError("--periods must be \(counts.lowerBound) to \(counts.upperBound)")
        }
    }

    func run() throws {
        // Before any thread starts, so every thread inherits the block (signal(7)).
        try SignalWatcher.blockTerminationSignals()
        // A console reader that went away (`appliance run | head -c5`) is EPIPE on the next reply, handled as
        // the console's end, never a SIGPIPE death in the middle of a take.
        SignalWatcher.ignoreBrokenPipe()
        let log = ServiceLog()
        let paths = self.paths
        // A board file that is wrong is the user's mistake to mend: said before any directory or lock is taken.
        let config: BoardConfig
        if board == BoardCommand.ChoiceOptions.auto {
            let chosen = try BoardCommand.choose(boards: boards, where: choice)
            // The journal says which board `auto` took, and from what: the first thing to read when no sound comes.
            log.info("board \(chosen.explanation)")
            config = chosen.config
        } else {
            config = try BoardCommand.load(board, boards: boards)
        }
        do {
            try paths.createDirectories()
        } catch {
            throw RunError("cannot prepare the directories: \(error)")
        }
        let lock: InstanceLock
        do throws(InstanceLock.Failure) {
            lock = try InstanceLock(path: paths.lock)
        } catch {
            throw RunError(error.description)
        }
        let store = SettingsStore(path: paths.settings)
        let loaded = store.load()
        let settings = LiveSettings(loaded.settings)
        let loop = try ControlLoop(clock: SystemClock())
        let signals = try SignalWatcher()
        // Recordings a power cut left unfinished are repaired before the recorder may add to the directory.
        let recovered = RecordingRecovery.run(directory: paths.recordings)
        let fanout = EventFanout()
        let assembly: ApplianceAssembly
        do {
            assembly = try ApplianceAssembly(config: config, pcm: pcm, periods: periods, paths: paths, loop: loop, settings: settings, log: log,
                                             events: { event in fanout.send(event) })
        } catch {
            throw RunError("\(error)")
        }
        var parts = assembly.parts
        if loaded.isCorrupt { parts.faults.count(.settingsCorrupt) }
        parts.stopAudio = { assembly.stop() }
        parts.help = { ConsoleHelp.reply(for: $0) }
        // A settings file that is there but unreadable is not replaced by this run's settings (load said so).
        let daemon = ApplianceDaemon(loop: loop, parts: parts, settings: settings, store: loaded.mayReplace ? store : nil,
                                     log: log)
        let bound = LoopBound(daemon)
        fanout.sink = { event in loop.post { bound.value?.broadcast(event) } }
        if let problem = loaded.problem { daemon.notice(problem, priority: .warning) }
        for line in assembly.startNotices { daemon.notice(line, priority: .warning) }
        for line in recovered { daemon.notice(line) }
        loop.watch(signals.readDescriptor) {
            while let signal = signals.next() { daemon.requestShutdown(reason: "\(signal)") }
        }
        // Engine xruns as `EVENT xrun`, looked at twice a second.
        var nextXrunCheck = loop.clock.now
        loop.addTimer(deadline: { nextXrunCheck }, fire: { now in
            nextXrunCheck = now + .milliseconds(500)
            let count = assembly.newXruns()
            if count > 0 { daemon.broadcast(ApplianceEvent(.xrun, "\(count)")) }
        })
        daemon.installTimers()
        let server = try startConsole(daemon: daemon, paths: paths, loop: loop)
        daemon.ready()
        loop.run()
        daemon.shutdown()
        server.close()
        withExtendedLifetime(lock) {}
    }
}

extension RunCommand {
    /// The console: stdin/stdout (libedit on a terminal, plain lines otherwise) or `--console DEV`, and the
    /// control socket for `appliance ctl`. The end of standard input (a script that ran out, ^D) shuts the
    /// appliance down, and so does standard output that can no longer be written (EPIPE: the reader went
    /// away); a serial console that hangs up does not (the socket still serves).
    func startConsole(daemon: ApplianceDaemon, paths: DaemonPaths, loop: ControlLoop) throws -> ConsoleServer {
        let server = ConsoleServer(loop: loop) { command, connection in
            daemon.dispatch(command) { on in connection.eventsEnabled = on }
        }
        daemon.broadcast = { event in server.broadcast(event) }
        if let device = console {
            do { try server.attachSerial(path: device, baud: baud) } catch { throw RunError("console \(device): \(error)") }
            server.onConsoleEnd = { _ in daemon.log.warning("console \(device) hung up; the control socket still serves") }
        } else {
            for line in daemon.notices { StandardStream.output.write(line + "\n") }
            server.attachStandardStreams()
            server.onConsoleEnd = { _ in daemon.requestShutdown(reason: "end of console input") }
        }
        do { try server.listen(path: paths.socket) } catch { throw RunError("control socket \(paths.socket): \(error)") }
        return server
    }
}

/// Events from any thread, to wherever the console sends them once it is up.
final class EventFanout: Sendable {
    private let target = Mutex<EventSink>({ _ in })
    var sink: EventSink {
        get { target.withLock { $0 } }
        set { target.withLock { $0 = newValue } }
    }
    func send(_ event: ApplianceEvent) { sink(event) }
}

/// A start-up failure: one line, exit status 1.
struct RunError: Error, CustomStringConvertible {
    let description: String
    init(_ description: String) { self.description = description }
}
