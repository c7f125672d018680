import Board
import HAL
#if canImport(Glibc)
import Glibc
#endif

/// The console's parser and the daemon's dispatcher together, against the real parts assembled on the simulated
/// board (as ApplianceAssemblyTests assembles them and `appliance run --board simulated` runs): each input line
/// that parses is dispatched, the control loop turned once after it; each input ends with `stop` so the next
/// starts from rest. A `shutdown` line ends that daemon; the next input gets a new one.
enum DispatcherFuzz {
    final class Rig {
        let loop: ControlLoop
        let daemon: ApplianceDaemon
        let assembly: ApplianceAssembly

        init() throws {
            let directory = FuzzScratch.directory + "/daemon"
            let paths = DaemonPaths(state: directory, runtime: directory, media: directory + "/media",
                                    recordings: directory + "/recordings", socket: directory + "/control.sock")
            try paths.createDirectories()
            loop = try ControlLoop(clock: SystemClock())
            let settings = LiveSettings(ApplianceSettings())
            let log = ServiceLog(prefixed: true) { _ in }
            assembly = try ApplianceAssembly(config: SimulatedBoard.config, pcm: nil, paths: paths, loop: loop,
                                             settings: settings, log: log, locksMemory: false, events: { _ in })
            var parts = assembly.parts
            let assembly = self.assembly
            parts.stopAudio = { assembly.stop() }
            daemon = ApplianceDaemon(loop: loop, parts: parts, settings: settings,
                                     store: SettingsStore(path: paths.settings), log: log,
                                     notifier: ServiceNotifier(socketPath: nil, watchdogMicroseconds: nil))
            daemon.installTimers()
        }

        deinit { daemon.shutdown() }
    }

    nonisolated(unsafe) static var rig: Rig?

    static func run(_ input: [UInt8]) {
        if rig == nil || rig?.loop.isStopping == true {
            rig = nil
            do { rig = try Rig() } catch { preconditionFailure("the simulated board did not assemble: \(error)") }
        }
        guard let rig else { return }
        var splitter = ConsoleLineSplitter()
        var pieces = splitter.feed(input)
        if let last = splitter.finish() { pieces.append(last) }
        for piece in pieces.prefix(64) {
            let outcome = ConsoleFuzz.outcome(of: piece)
            ConsoleFuzz.check(outcome)
            guard case .command(let command) = outcome else { continue }
            let reply = rig.daemon.dispatch(command)
            let final = reply.finalLine
            precondition(!final.contains("\n") && (final == "OK" || final.hasPrefix("ERR ")), "not one final line: \(final)")
            rig.loop.turn(maximumWait: .zero)
            if rig.loop.isStopping { return }
        }
        _ = rig.daemon.dispatch(.stop)
        rig.loop.turn(maximumWait: .zero)
        // Takes would pile up over millions of inputs.
        FuzzScratch.removeFiles(in: FuzzScratch.directory + "/daemon/recordings")
    }
}
