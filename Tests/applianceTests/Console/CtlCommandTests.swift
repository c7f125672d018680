import Foundation
import HAL
import Testing
@testable import appliance

/// `appliance ctl`, the binary run as a user would, against a console server in this process (its loop on a
/// thread of its own). Exit statuses and messages as issue 13's brief for the console states them: 0 on OK,
/// 1 on ERR with the message on stderr, 2 with "no appliance is running (no socket at PATH)".
@Suite(.serialized)
struct CtlCommandTests {
    @Test func aCommandGetsItsResultLinesAndTheExitStatusSaysHowItWent() throws {
        let rig = try ConsoleTestRig()
        rig.answers[.audio(.volume(.percent(40)))] = .ok(["volume: 40 (-23.5 dB)"])
        rig.answers[.player(.play("missing.wav"))] = .error(.notFound, "no file 'missing.wav' in the media directory")
        try rig.server.listen(path: rig.socketPath)
        let running = SystemThreadRunner(rig)
        defer { running.stop() }

        let ok = try ApplianceBinary.run(["ctl", "--socket", rig.socketPath, "vol 40"])
        #expect(ok.status == 0, "\(ok.stderr)")
        #expect(ok.stdout == "volume: 40 (-23.5 dB)\n")
        // Several words are one line, as a shell would split it.
        let words = try ApplianceBinary.run(["ctl", "--socket", rig.socketPath, "play", "missing.wav"])
        #expect(words.status == 1)
        #expect(words.stdout == "")
        #expect(words.stderr == "ERR not-found no file 'missing.wav' in the media directory\n")
        let bad = try ApplianceBinary.run(["ctl", "--socket", rig.socketPath, "vol", "loud"])
        #expect(bad.status == 1)
        #expect(bad.stderr.hasPrefix("ERR usage vol: 'loud'"))
        running.stop()
        #expect(rig.dispatched == [.audio(.volume(.percent(40))), .player(.play("missing.wav"))])
    }

    @Test func withoutADaemonItSaysSoAndExitsTwo() throws {
        let directory = NSTemporaryDirectory() + "ctl-" + UUID().uuidString.prefix(8)
        let path = directory + "/control.sock"
        let result = try ApplianceBinary.run(["ctl", "--socket", path, "status"])
        #expect(result.status == 2)
        #expect(result.stderr == "appliance: no appliance is running (no socket at \(path))\n")
    }
}

/// Runs a rig's control loop on its own thread until `stop()`.
final class SystemThreadRunner: @unchecked Sendable {
    private let rig: ConsoleTestRig
    private let finished = DispatchSemaphore(value: 0)
    private var stopped = false

    init(_ rig: ConsoleTestRig) {
        self.rig = rig
        let loop = rig.loop
        let finished = finished
        Thread.detachNewThread {
            loop.run()
            finished.signal()
        }
    }

    func stop() {
        guard !stopped else { return }
        stopped = true
        rig.loop.stop()
        finished.wait()
    }
}
