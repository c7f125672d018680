import Board
import Codec8_24
import HAL
@testable import Queue
#if canImport(Glibc)
import Glibc
#endif

/// The console's parser and the daemon's dispatcher together, against the real parts assembled on the simulated
/// board, as the soak assembles them (`SoakRig`): every timed part on one `ManualClock`, the render threads not
/// started, the fuzzer turning the engine's periods itself. Each input line that parses is dispatched, then a
/// few periods of audio rendered and recorded (the queues' callbacks, the recorder's writer and the control loop
/// served after each, as the threads and the loop would); each input ends with `stop` so the next starts from
/// rest. A `shutdown` line ends that daemon; the next input gets a new one.
///
/// On the manual clock an input costs only its work: with real-time threads each input waited for the render
/// thread's periods and the sound card's pacing (2–30 inputs a second), and what the engine did depended on
/// thread timing, so a finding could not be replayed exactly.
enum DispatcherFuzz {
    /// Periods (10 ms of audio each on the simulated card) rendered after each line: enough for a play to reach
    /// the card, a take to commit its first packets and a fade to run, few enough to keep inputs cheap.
    static let periodsPerLine = 4

    /// Two short tracks for `play`, `next`, `seek` and the playlist (a queue boundary between two formats and
    /// rates), written by the firmware's own writer; put back when an input deleted one.
    static let media: [(name: String, type: AudioFileType, format: StreamFormat)] = [
        ("a-tone.wav", .wave, .linearPCM(sampleRate: 48000, channels: 2, bits: 16)),
        ("b-tone.flac", .flac, .compressed(.flac, sampleRate: 44100, channels: 1, bitsPerChannel: 16)),
    ]

    final class Rig {
        let clock = ManualClock(start: .zero + .seconds(1), skipsSleeps: true)
        let paths: DaemonPaths
        let loop: ControlLoop
        let daemon: ApplianceDaemon
        let assembly: ApplianceAssembly
        let player: PlaybackService?
        let recorder: RecordingService?
        let gpio: SimulatedGPIO?

        init() throws {
            let directory = FuzzScratch.directory + "/daemon"
            paths = DaemonPaths(state: directory, runtime: directory, media: directory + "/media",
                                recordings: directory + "/recordings", socket: directory + "/control.sock")
            try paths.createDirectories()
            loop = try ControlLoop(clock: clock)
            let settings = LiveSettings(ApplianceSettings())
            let log = ServiceLog(prefixed: true) { _ in }
            let board = try AssembledBoard(config: SimulatedBoard.config,
                                           options: BoardAssemblyOptions(timing: .manual(clock), loopback: true))
            assembly = try ApplianceAssembly(assembled: board, pcm: nil, paths: paths, loop: loop, settings: settings,
                                             log: log, locksMemory: false, startsEngine: false, events: { _ in })
            var parts = assembly.parts
            let assembly = self.assembly
            parts.stopAudio = { assembly.stop() }
            parts.help = { ConsoleHelp.reply(for: $0) }
            daemon = ApplianceDaemon(loop: loop, parts: parts, settings: settings,
                                     store: SettingsStore(path: paths.settings), log: log,
                                     notifier: ServiceNotifier(socketPath: nil, watchdogMicroseconds: nil))
            daemon.installTimers()
            player = parts.player as? PlaybackService
            recorder = parts.recorder as? RecordingService
            gpio = board.gpio.simulated
            assembly.engine.playback?.prepareToStart()
            assembly.engine.capture?.prepareToStart()
        }

        deinit { daemon.shutdown() }

        /// The tracks `play` finds, written again if an input deleted one.
        func restoreMedia() {
            for track in DispatcherFuzz.media where access(paths.media + "/" + track.name, F_OK) != 0 {
                SeedWriter.writeTone(path: paths.media + "/" + track.name, type: track.type, format: track.format,
                                     frames: 4800)
            }
        }

        /// One period of the engine and what it leads to, as the render threads and the control loop do it.
        /// The simulated card on the manual clock never starves, so a period's error is a finding.
        func period() {
            let engine = assembly.engine
            do throws(PCMError) {
                try engine.playback?.period()
                if let capture = engine.capture { _ = try capture.period() }
            } catch {
                preconditionFailure("a period failed on the simulated card: \(error)")
            }
            gpio?.advance(to: clock.now)
            player?.collectCallbacks()
            recorder?.deliverCaptured()
            loop.turn(maximumWait: .zero)
        }
    }

    nonisolated(unsafe) static var rig: Rig?

    static func run(_ input: [UInt8]) {
        if rig == nil || rig?.loop.isStopping == true {
            rig = nil
            do { rig = try Rig() } catch { preconditionFailure("the simulated board did not assemble: \(error)") }
        }
        guard let rig else { return }
        rig.restoreMedia()
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
            for _ in 0..<periodsPerLine {
                rig.period()
                if rig.loop.isStopping { return }
            }
        }
        _ = rig.daemon.dispatch(.stop)
        for _ in 0..<periodsPerLine { rig.period() }
        // Takes would pile up over millions of inputs.
        FuzzScratch.removeFiles(in: FuzzScratch.directory + "/daemon/recordings")
    }
}
