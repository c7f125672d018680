import Board
import Foundation
import HAL
import Synchronization
@testable import Queue
@testable import appliance

/// The whole appliance on the simulated board with every timed part on one `ManualClock`: the board's GPIO
/// lines, the simulated sound card, the control loop and its timers. The render threads are not started;
/// the rig turns the engine's playback and capture periods itself (the same `period()` the threads run), so
/// simulated time moves only here, in one of two ways:
/// - rendered: period by period (10 ms of audio each, the clock moved by the card's own pacing), with the
///   queues' callbacks, the recorder's writer and the control loop served after every period;
/// - jumped: while nothing plays, records or is about to happen (no loop timer due within a second, no
///   gesture or plug in flight), the clock jumps to the next timer or the end of the wait. The sound card
///   sees such a jump as a gap (one underrun/overrun, recovered on the next period), as after a suspend.
final class SoakRig {
    /// What the rig has done, for the report.
    struct Totals {
        var periods = 0
        var rendered: Duration = .zero
        var jumped: Duration = .zero
        var jumps = 0
        /// Xruns on periods that did not follow a jump: the manual clock never starves the card, so any is a
        /// fault of the engine or the rig.
        var xrunsOutsideJumps = 0
        var xrunsAfterJumps = 0
    }

    final class Events: Sendable {
        private let list = Mutex<[ApplianceEvent]>([])
        func record(_ event: ApplianceEvent) { list.withLock { $0.append(event) } }
        /// The events since the last call.
        func take() -> [ApplianceEvent] { list.withLock { events in defer { events.removeAll() }; return events } }
    }

    let clock = ManualClock(start: .zero + .seconds(1), skipsSleeps: true)
    let directory: String
    let paths: DaemonPaths
    let loop: ControlLoop
    let assembly: ApplianceAssembly
    let daemon: ApplianceDaemon
    let events = Events()
    let player: PlaybackService
    let recorder: RecordingService
    let audio: AudioController
    let buttons: ButtonInput
    let sounds: SystemSounds
    let gpio: SimulatedGPIO
    private(set) var totals = Totals()
    /// Periods still counted as "after a jump" (the gap's xrun shows on the first one or two).
    private var recovering = 0
    /// Until when a simulated press or plug is in flight: rendered, never jumped over.
    var busyUntil: Timestamp = .zero

    init(settings initial: ApplianceSettings = ApplianceSettings()) throws {
        directory = NSTemporaryDirectory() + "appliance-soak-\(UUID().uuidString)"
        paths = DaemonPaths(state: directory, runtime: directory, media: directory + "/media",
                            recordings: directory + "/recordings", socket: directory + "/control.sock")
        try paths.createDirectories()
        try SoakMedia.write(into: paths.media)
        loop = try ControlLoop(clock: clock)
        let settings = LiveSettings(initial)
        let log = ServiceLog(prefixed: true) { _ in }
        let events = self.events
        let board = try AssembledBoard(config: SimulatedBoard.config,
                                       options: BoardAssemblyOptions(timing: .manual(clock), loopback: true))
        assembly = try ApplianceAssembly(assembled: board, pcm: nil, paths: paths, loop: loop, settings: settings, log: log,
                                         locksMemory: false, startsEngine: false, events: { events.record($0) })
        var parts = assembly.parts
        let assembly = self.assembly
        parts.stopAudio = { assembly.stop() }
        parts.help = { ConsoleHelp.reply(for: $0) }
        daemon = ApplianceDaemon(loop: loop, parts: parts, settings: settings, store: SettingsStore(path: paths.settings),
                                 log: log, notifier: ServiceNotifier(socketPath: nil, watchdogMicroseconds: nil))
        daemon.installTimers()
        player = try Self.part(parts.player)
        recorder = try Self.part(parts.recorder)
        audio = try Self.part(parts.audio)
        buttons = try Self.part(parts.others.first { $0 is ButtonInput })
        sounds = try Self.part(parts.others.first { $0 is SystemSounds })
        gpio = try Self.part(board.gpio.simulated)
        assembly.engine.playback?.prepareToStart()
        assembly.engine.capture?.prepareToStart()
    }

    private static func part<T>(_ value: Any?) throws -> T {
        guard let part = value as? T else { throw SoakFailure("the assembly has no \(T.self)") }
        return part
    }

    func removeDirectory() { try? FileManager.default.removeItem(atPath: directory) }

    /// One console line through the parser and the daemon's dispatch, as the console sends it.
    func send(_ line: String) -> ConsoleReply {
        switch ConsoleParser.parse(line) {
        case .empty: return .ok()
        case .rejected(let reply): return reply
        case .command(let command): return daemon.dispatch(command)
        }
    }

    /// Whether time must be rendered now rather than jumped: something plays or records, a system sound is
    /// sounding, a simulated press or plug is in flight, or a loop timer is due within a second.
    var isBusy: Bool {
        if player.isPlaying || recorder.isRecording || sounds.player.playsInProgress > 0 || clock.now < busyUntil {
            return true
        }
        guard let due = loop.nextTimerDeadline else { return false }
        return due < clock.now + .seconds(1)
    }

    /// One period of the engine, then everything the period's reports lead to.
    func period() throws {
        let engine = assembly.engine
        let before = clock.now
        let xruns = engine.xruns
        try engine.playback?.period()
        if let capture = engine.capture { _ = try capture.period() }
        gpio.advance(to: clock.now)
        player.collectCallbacks()
        recorder.deliverCaptured()
        loop.turn(maximumWait: .zero)
        let new = engine.xruns - xruns
        if recovering > 0 { totals.xrunsAfterJumps += new; recovering -= 1 } else { totals.xrunsOutsideJumps += new }
        totals.periods += 1
        totals.rendered += clock.now - before
    }

    /// Lets `duration` of simulated time pass: rendered while busy, jumped while idle.
    func pass(_ duration: Duration) throws {
        let end = clock.now + duration
        while clock.now < end {
            if isBusy {
                try period()
                continue
            }
            let target = min(end, (loop.nextTimerDeadline ?? end) - .milliseconds(500))
            guard target > clock.now + .milliseconds(50) else {
                try period()
                continue
            }
            totals.jumped += target - clock.now
            totals.jumps += 1
            gpio.advance(to: target)
            loop.turn(maximumWait: .zero)
            recovering = 2
        }
    }

    /// Renders until nothing is in flight (a press decided, a take's tail written), at most `limit`.
    func settle(limit: Duration = .seconds(3)) throws {
        let end = clock.now + limit
        while clock.now < end && clock.now < busyUntil { try period() }
        for _ in 0..<3 { try period() }
    }

    /// The orderly end (`shutdown`'s path): the take finalized, settings saved, the codec powered down.
    func shutdown() { daemon.shutdown() }
}

/// A soak invariant or set-up that failed, with what was seen.
struct SoakFailure: Error, CustomStringConvertible {
    let description: String
    init(_ description: String) { self.description = description }
}
