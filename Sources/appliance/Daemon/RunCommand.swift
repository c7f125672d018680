import ArgumentParser
import Board
import HAL

/// `appliance run`: the appliance itself. Brings the board up and serves the console until SIGTERM, SIGINT,
/// SIGHUP or `shutdown`; exits 0 after an orderly shutdown.
struct RunCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "run",
        abstract: "Run the appliance: player, recorder, buttons and the console.",
        discussion: """
            As the service (root, or under systemd) settings and recordings live in /var/lib/appliance, the \
            media in /var/lib/appliance/media, the control socket and lock in /run/appliance. A developer run \
            keeps everything under ./.appliance/. The console is stdin/stdout unless --console names a serial \
            device.
            """)

    @Option(help: "The board: a name from 'appliance board list' or a board file.")
    var board = "simulated"

    @Option(help: "The console's serial device (e.g. /dev/ttyAMA0); default: stdin/stdout.")
    var console: String?

    @Option(help: "The serial console's baud rate.")
    var baud = 115_200

    @Option(help: "Play and record through this ALSA PCM instead of the board's (e.g. default).")
    var pcm: String?

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
            paths.runtime = state
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
    }

    func run() throws {
        // Before any thread starts, so every thread inherits the block (signal(7)).
        try SignalWatcher.blockTerminationSignals()
        let log = ServiceLog()
        let paths = self.paths
        do {
            try paths.createDirectories()
        } catch {
            throw RunError("cannot prepare the directories: \(error)")
        }
        let lock: InstanceLock
        do {
            lock = try InstanceLock(path: paths.lock)
        } catch {
            throw RunError(error.description)
        }
        let config = try BoardCommand.load(board, boards: boards)
        let store = SettingsStore(path: paths.settings)
        let loaded = store.load()
        let loop = try ControlLoop(clock: SystemClock())
        let signals = try SignalWatcher()
        let daemonBoard = ConfiguredBoard(config: config)
        let daemon = ApplianceDaemon(loop: loop, parts: DaemonParts(board: daemonBoard), settings: LiveSettings(loaded.settings),
                                     store: store, log: log)
        if let problem = loaded.problem { daemon.notice(problem, priority: .warning) }
        do { try daemonBoard.powerUp() } catch { throw RunError("\(config.name): \(error)") }
        loop.watch(signals.readDescriptor) {
            while let signal = signals.next() { daemon.requestShutdown(reason: "\(signal)") }
        }
        daemon.installTimers()
        daemon.ready()
        loop.run()
        daemon.shutdown()
        withExtendedLifetime(lock) {}
    }
}

/// A start-up failure: one line, exit status 1.
struct RunError: Error, CustomStringConvertible {
    let description: String
    init(_ description: String) { self.description = description }
}
