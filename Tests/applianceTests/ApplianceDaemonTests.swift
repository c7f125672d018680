import Foundation
import HAL
import Testing
@testable import appliance

struct ApplianceDaemonTests {
    struct Rig {
        let calls = CallLog()
        let clock = ManualClock()
        let loop: ControlLoop
        let settings = LiveSettings(ApplianceSettings())
        let daemon: ApplianceDaemon
        let board: FakeBoard
        let player: FakePlayer
        let recorder: FakeRecorder
        let directory: String

        init(simulated: Bool = true) throws {
            loop = try ControlLoop(clock: clock)
            board = FakeBoard(log: calls, name: simulated ? "simulated" : "fe-pi-audio", isSimulated: simulated)
            player = FakePlayer(log: calls)
            recorder = FakeRecorder(log: calls)
            directory = NSTemporaryDirectory() + "appliance-daemon-\(UUID().uuidString)"
            try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
            let parts = DaemonParts(board: board, player: player, recorder: recorder,
                                    audio: FakeAudio(log: calls, settings: settings))
            daemon = ApplianceDaemon(loop: loop, parts: parts, settings: settings,
                                     store: SettingsStore(path: directory + "/settings.json"),
                                     log: ServiceLog(prefixed: true) { _ in },
                                     notifier: ServiceNotifier(socketPath: nil, watchdogMicroseconds: nil))
        }

        var savedSettings: ApplianceSettings? {
            guard let data = FileManager.default.contents(atPath: directory + "/settings.json") else { return nil }
            return try? JSONDecoder().decode(ApplianceSettings.self, from: data)
        }
    }

    /// The issue: `stop` ends a recording first (finalized), then playback.
    @Test func stopFinalizesTheRecordingBeforeStoppingPlayback() throws {
        let rig = try Rig()
        _ = rig.daemon.dispatch(.player(.play(nil)))
        _ = rig.daemon.dispatch(.recorder(.start(RecordOptions())))
        let reply = rig.daemon.dispatch(.stop)
        #expect(reply == .ok(["recording finalized", "stopped"]))
        #expect(rig.calls.calls.suffix(2) == ["recorder finalize", "player stop"])
    }

    /// Deliver 1: shutdown finishes the recording safely, saves settings, powers down, in that order.
    @Test func shutdownFinalizesThenShutsSubsystemsDownThenSavesThenPowersDown() throws {
        let rig = try Rig()
        _ = rig.daemon.dispatch(.recorder(.start(RecordOptions())))
        _ = rig.daemon.dispatch(.audio(.volume(.decibels(-12))))
        let reply = rig.daemon.dispatch(.shutdown)
        #expect(reply == .ok(["shutting down"]))
        #expect(rig.loop.isStopping)
        rig.calls.calls.removeAll()
        rig.daemon.shutdown()
        #expect(rig.calls.calls == ["recorder finalize", "recorder shutdown", "player shutdown", "audio shutdown",
                                    "board power down"])
        #expect(rig.savedSettings?.volumeDB == ["speaker": -12])
        // After shutdown began, commands are refused and change nothing.
        #expect(rig.daemon.dispatch(.status).outcome == .error(.state, "the appliance is shutting down"))
    }

    /// A changed setting is written once, `settingsDelay` after the change, by the loop's timer.
    @Test func aChangedSettingIsSavedTwoSecondsLaterByTheLoop() throws {
        let rig = try Rig()
        rig.daemon.installTimers()
        _ = rig.daemon.dispatch(.audio(.volume(.decibels(-20))))
        rig.loop.turn(maximumWait: .zero)
        #expect(rig.savedSettings == nil)
        rig.clock.advance(by: .milliseconds(1_999))
        rig.loop.turn(maximumWait: .zero)
        #expect(rig.savedSettings == nil)
        rig.clock.advance(by: .milliseconds(1))
        rig.loop.turn(maximumWait: .zero)
        #expect(rig.savedSettings?.volumeDB == ["speaker": -20])
        #expect(!rig.settings.isDirty)
    }

    /// `jack` only on the simulated board: ERR denied elsewhere; `button` with an unknown name: ERR not-found.
    @Test func simulatedHardwareCommandsAreRefusedWhereTheyCannotWork() throws {
        let real = try Rig(simulated: false)
        #expect(real.daemon.dispatch(.jack(.unplugged)).finalLine.hasPrefix("ERR denied "))
        let simulated = try Rig()
        #expect(simulated.daemon.dispatch(.jack(.headphones)) == .ok())
        #expect(simulated.calls.calls == ["jack headphones"])
        #expect(simulated.daemon.dispatch(.button(name: "power", gesture: .click)).finalLine == "ERR not-found no button 'power'")
        #expect(simulated.daemon.dispatch(.button(name: "play", gesture: .double)) == .ok())
    }

    /// `status`: one line per subsystem (board, recorder, player, audio) then the uptime from the loop's clock.
    @Test func statusHasALinePerSubsystemAndTheUptime() throws {
        let rig = try Rig()
        rig.clock.advance(by: .seconds(3_725))  // 1 h 2 min 5 s
        let reply = rig.daemon.dispatch(.status)
        #expect(reply == .ok(["board: simulated", "recorder: idle", "player: stopped", "volume: 0.0 dB", "uptime: 1h2m5s"]))
    }

    /// `selftest`: every check reported; any failure makes the final line an ERR that counts them.
    @Test func selftestReportsEveryCheckAndFailsIfAnyFails() throws {
        let rig = try Rig()
        rig.board.checks = [SelfTestCheck(name: "codec", passed: true, detail: "registers as expected"),
                            SelfTestCheck(name: "loopback", passed: false, detail: "no tone")]
        let reply = rig.daemon.dispatch(.selftest)
        #expect(reply.wireLines == ["PASS codec: registers as expected", "FAIL loopback: no tone",
                                    "ERR device 1 of 2 checks failed"])
        rig.board.checks.removeLast()
        #expect(rig.daemon.dispatch(.selftest).finalLine == "OK")
    }

    @Test func eventsNeedAConnectionThatCanStreamThem() throws {
        let rig = try Rig()
        var switched: [Bool] = []
        #expect(rig.daemon.dispatch(.events(true)) { switched.append($0) } == .ok())
        #expect(switched == [true])
        #expect(rig.daemon.dispatch(.events(true)).outcome == .error(.state, "this connection cannot stream events"))
    }
}
