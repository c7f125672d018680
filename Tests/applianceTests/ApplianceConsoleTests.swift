import Foundation
#if canImport(Glibc)
import Glibc
#endif
import Testing

/// `appliance run --board simulated` driven through its console as a user (or a script) would: lines typed on
/// standard input, replies read up to their final `OK` / `ERR` line.
@Suite(.serialized) struct ApplianceConsoleTests {
    /// Whether sox (the reference tool that makes and reads the test audio) is installed; the tests that need
    /// it say so when they are skipped.
    static let hasSox = FileManager.default.isExecutableFile(atPath: "/usr/bin/sox")

    /// A media directory with one 10 s, 440 Hz stereo WAV made by sox (the reference tool).
    static func mediaWithTone() throws -> String {
        let media = NSTemporaryDirectory() + "appliance-media-\(UUID().uuidString)"
        try FileManager.default.createDirectory(atPath: media, withIntermediateDirectories: true)
        let status = try ApplianceConsoleTests.check("/usr/bin/sox", ["-n", "-r", "48000", "-c", "2", "-b", "16", media + "/tone.wav",
                                                                      "synth", "10", "sine", "440", "vol", "0.5"])
        try #require(status == 0, "sox could not make the test tone")
        return media
    }

    static func check(_ tool: String, _ arguments: [String]) throws -> Int32 {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: tool)
        process.arguments = arguments
        try process.run()
        process.waitUntilExit()
        return process.terminationStatus
    }

    /// The README's walk-through (the issue's "Done when"), each answered with OK, then `shutdown` exits 0.
    @Test(.enabled(if: ApplianceConsoleTests.hasSox, "sox is not installed: it makes the test tone"))
    func theNewcomersWalkThroughAnswersOKToEveryLine() throws {
        let media = try Self.mediaWithTone()
        let daemon = try DaemonProcess(arguments: ["--board", "simulated", "--media", media])
        _ = try #require(daemon.waitUntilReady(), "no READY=1; stderr: \(daemon.standardError)")
        for line in ["play", "vol 40", "eq rock", "button play double", "jack out", "record --seconds 3", "ls", "stats"] {
            let reply = daemon.command(line)
            #expect(reply?.last == "OK", "\(line): \(reply ?? ["(no reply)"]) stderr: \(daemon.standardError)")
            if line == "ls" { #expect(reply?.contains { $0.contains("tone.wav") } == true, "\(reply ?? [])") }
            if line == "stats" { #expect(reply?.contains { $0.hasPrefix("xruns: ") } == true, "\(reply ?? [])") }
        }
        #expect(daemon.command("shutdown")?.last == "OK")
        #expect(daemon.waitForExit() == 0, "stderr: \(daemon.standardError)")
    }

    /// Garbage never kills the console: binary bytes and an overlong line get `ERR input`, an unknown word
    /// `ERR unknown`, and the next command is answered as usual.
    @Test func badInputIsRefusedAndTheApplianceStillAnswers() throws {
        let daemon = try DaemonProcess(arguments: [])
        _ = try #require(daemon.waitUntilReady(), "no READY=1; stderr: \(daemon.standardError)")
        #expect(daemon.command("\u{01}\u{02}\u{7f}garbage")?.last?.hasPrefix("ERR input ") == true)
        #expect(daemon.command(String(repeating: "x", count: 5_000))?.last?.hasPrefix("ERR input ") == true)
        #expect(daemon.command("frobnicate")?.last?.hasPrefix("ERR unknown ") == true)
        #expect(daemon.command("vol loud")?.last?.hasPrefix("ERR usage ") == true)
        #expect(daemon.command("status")?.last == "OK")
        #expect(daemon.stop() == 0)
    }

    /// Every command of the grammar gets exactly one final line, the one it should get on the simulated board
    /// with one 10 s track: OK, except `prev` after `next` ran off the end of the only track (repeat off:
    /// playback stops at the end of the queue, as MPD's does, so there is no track to go back in; `state`),
    /// `meter` with no input
    /// running, `rm` of a file that is not there (not-found) and a path climbing out of the media directory
    /// (denied).
    @Test(.enabled(if: ApplianceConsoleTests.hasSox, "sox is not installed: it makes the test tone"))
    func everyCommandIsAnswered() throws {
        let media = try Self.mediaWithTone()
        let daemon = try DaemonProcess(arguments: ["--media", media])
        _ = try #require(daemon.waitUntilReady(), "no READY=1; stderr: \(daemon.standardError)")
        let expected: [(String, String)] = [
            ("help", "OK"), ("help vol", "OK"), ("status", "OK"), ("play tone.wav", "OK"), ("pause", "OK"),
            ("resume", "OK"), ("seek 2", "OK"), ("seek +1", "OK"), ("next", "OK"), ("prev", "ERR state"),
            ("repeat all", "OK"), ("repeat", "OK"), ("shuffle on", "OK"), ("shuffle off", "OK"), ("stop", "OK"),
            ("ls", "OK"), ("vol", "OK"), ("vol 50", "OK"), ("vol +5", "OK"), ("vol -5", "OK"), ("vol -12dB", "OK"),
            ("mute", "OK"), ("mute off", "OK"), ("eq", "OK"), ("eq list", "OK"), ("eq show", "OK"), ("eq jazz", "OK"),
            ("route", "OK"), ("route speaker", "OK"), ("route auto", "OK"), ("input", "OK"), ("input mic", "OK"),
            ("meter", "OK"), ("sounds", "OK"), ("board", "OK"), ("stats", "OK"), ("selftest", "OK"),
            ("jack in", "OK"), ("jack out", "OK"), ("button play click", "OK"), ("button play hold", "OK"),
            ("record --seconds 30", "OK"), ("mark", "OK"), ("stop", "OK"), ("events on", "OK"), ("events off", "OK"),
            ("rm nothing-here.wav", "ERR not-found"), ("play ../etc/passwd", "ERR denied"),
        ]
        for (line, outcome) in expected {
            let reply = daemon.command(line)
            let last = reply?.last ?? "(no reply)"
            #expect(last == outcome || last.hasPrefix(outcome + " "), "\(line): \(reply ?? ["(no reply)"])")
        }
        #expect(daemon.stop() == 0)
    }

    /// Settings survive a restart: `vol 40` and `eq rock`, an orderly shutdown, and the next start shows them.
    @Test func settingsAreRestoredAtTheNextStart() throws {
        let first = try DaemonProcess(arguments: [])
        _ = try #require(first.waitUntilReady(), "no READY=1; stderr: \(first.standardError)")
        #expect(first.command("vol 40")?.last == "OK")
        #expect(first.command("eq rock")?.last == "OK")
        #expect(first.command("shutdown")?.last == "OK")
        #expect(first.waitForExit() == 0)
        let second = try DaemonProcess(arguments: [], stateDirectory: first.stateDirectory)
        _ = try #require(second.waitUntilReady(), "no READY=1; stderr: \(second.standardError)")
        let status = second.command("status") ?? []
        #expect(status.contains { $0.hasPrefix("volume: 40%") }, "\(status)")
        #expect(status.contains { $0.hasPrefix("eq: Rock") }, "\(status)")
        #expect(second.stop() == 0)
    }

    /// Disk full: below the free-space threshold `record` is refused (`ERR full`); with no threshold a
    /// recording on a 1 MiB tmpfs (288,000 bytes a second at 24-bit stereo 48 kHz: full after ~3.6 s) stops
    /// by itself with `EVENT record disk-full`, its file finalized so sox (the reference reader) opens it.
    @Test func aFullDiskRefusesAndStopsRecordingCleanly() throws {
        let recordings = NSTemporaryDirectory() + "appliance-full-\(UUID().uuidString)"
        try FileManager.default.createDirectory(atPath: recordings, withIntermediateDirectories: true)
        guard try Self.check("/bin/mount", ["-t", "tmpfs", "-o", "size=1m", "tmpfs", recordings]) == 0 else { return }
        defer { _ = try? Self.check("/bin/umount", [recordings]) }
        let guarded = try DaemonProcess(arguments: ["--recordings", recordings])
        _ = try #require(guarded.waitUntilReady(), "no READY=1; stderr: \(guarded.standardError)")
        #expect(guarded.command("record")?.last?.hasPrefix("ERR full ") == true)
        #expect(guarded.stop() == 0)

        let state = NSTemporaryDirectory() + "appliance-full-state-\(UUID().uuidString)"
        try FileManager.default.createDirectory(atPath: state, withIntermediateDirectories: true)
        try Data(#"{"recording": {"minimumFreeBytes": 0}}"#.utf8).write(to: URL(fileURLWithPath: state + "/settings.json"))
        let daemon = try DaemonProcess(arguments: ["--recordings", recordings], stateDirectory: state)
        _ = try #require(daemon.waitUntilReady(), "no READY=1; stderr: \(daemon.standardError)")
        #expect(daemon.command("events on")?.last == "OK")
        #expect(daemon.command("record")?.last == "OK")
        var stopped = false
        for _ in 0..<1_000 where !stopped {
            _ = daemon.command("status")
            stopped = daemon.events.contains("EVENT record disk-full")
            if !stopped { usleep(20_000) }
        }
        #expect(stopped, "\(daemon.events)")
        // Counted once (RELIABILITY.md section 3), and the next `record` is refused with one clear line.
        #expect(daemon.command("stats")?.contains("disk full: 1") == true)
        #expect(daemon.command("record")?.last?.hasPrefix("ERR full ") == true)
        let takes = try FileManager.default.contentsOfDirectory(atPath: recordings).filter { $0.hasSuffix(".wav") }
        #expect(takes.count == 1)
        if FileManager.default.isExecutableFile(atPath: "/usr/bin/soxi"), let take = takes.first {
            #expect(try Self.check("/usr/bin/soxi", [recordings + "/" + take]) == 0)
        }
        #expect(daemon.stop() == 0)
    }

    /// `rm` never deletes the take being written, also when --recordings is relative (the library compares
    /// resolved paths): `ERR state`, and the file is still there.
    @Test func theTakeBeingRecordedCannotBeRemovedWithARelativeRecordingsDirectory() throws {
        let base = NSTemporaryDirectory() + "appliance-rel-\(UUID().uuidString)"
        try FileManager.default.createDirectory(atPath: base + "/rel", withIntermediateDirectories: true)
        let daemon = try DaemonProcess(arguments: ["--recordings", "rel"], workingDirectory: base)
        _ = try #require(daemon.waitUntilReady(), "no READY=1; stderr: \(daemon.standardError)")
        #expect(daemon.command("record")?.last == "OK")
        // The take is named at `record`; its file opens with the first captured period.
        let current = try #require(daemon.command("status")?.first { $0.hasPrefix("recording: ") })
        let take = String(current.split(separator: " ")[1])
        for _ in 0..<250 where !FileManager.default.fileExists(atPath: base + "/rel/\(take).wav") { usleep(20_000) }
        let reply = daemon.command("rm recordings/\(take).wav")
        #expect(reply?.last?.hasPrefix("ERR state ") == true, "\(reply ?? [])")
        #expect(FileManager.default.fileExists(atPath: base + "/rel/\(take).wav"))
        #expect(daemon.stop() == 0)
    }

    /// Route policy: pulling the headphones while playing pauses (as a phone does); `status` says so.
    @Test(.enabled(if: ApplianceConsoleTests.hasSox, "sox is not installed: it makes the test tone"))
    func unpluggingDuringPlaybackPauses() throws {
        let media = try Self.mediaWithTone()
        let daemon = try DaemonProcess(arguments: ["--media", media])
        _ = try #require(daemon.waitUntilReady(), "no READY=1; stderr: \(daemon.standardError)")
        /// Asks `status` until it shows `line` (the jack's debounce takes tens of milliseconds), up to 5 s.
        func waitForStatus(_ line: String) -> Bool {
            for _ in 0..<250 {
                if daemon.command("status")?.contains(line) == true { return true }
                usleep(20_000)
            }
            return false
        }
        #expect(daemon.command("jack in")?.last == "OK")
        #expect(waitForStatus("jack: headphones"))
        #expect(daemon.command("play tone.wav")?.last == "OK")
        #expect(waitForStatus("player: playing"))
        #expect(daemon.command("jack out")?.last == "OK")
        #expect(waitForStatus("player: paused"), "\(daemon.command("status") ?? [])")
        #expect(daemon.stop() == 0)
    }

    /// A power cut (SIGKILL) mid-recording: the next start repairs the take and says so; the file then
    /// opens for sox (the reference reader).
    @Test func aRecordingCutBySIGKILLIsRecoveredAtTheNextStart() throws {
        let first = try DaemonProcess(arguments: [])
        _ = try #require(first.waitUntilReady(), "no READY=1; stderr: \(first.standardError)")
        #expect(first.command("record")?.last == "OK")
        usleep(1_500_000)
        kill(first.pid, SIGKILL)
        _ = first.waitForExit()
        let second = try DaemonProcess(arguments: [], stateDirectory: first.stateDirectory)
        _ = try #require(second.waitUntilReady(), "no READY=1; stderr: \(second.standardError)")
        #expect(second.standardError.contains("recovered"), "\(second.standardError)")
        let takes = try FileManager.default.contentsOfDirectory(atPath: first.stateDirectory + "/recordings")
        #expect(!takes.isEmpty)
        if FileManager.default.isExecutableFile(atPath: "/usr/bin/soxi"), let take = takes.first {
            #expect(try Self.check("/usr/bin/soxi", [first.stateDirectory + "/recordings/" + take]) == 0)
        }
        #expect(second.stop() == 0)
    }

    /// `appliance ctl` speaks the console grammar over the control socket of the running appliance.
    @Test func ctlReachesTheRunningAppliance() throws {
        let daemon = try DaemonProcess(arguments: [])
        _ = try #require(daemon.waitUntilReady(), "no READY=1; stderr: \(daemon.standardError)")
        let result = try DaemonProcess.runOnce(["ctl", "--socket", daemon.stateDirectory + "/control.sock", "vol 40"],
                                               environment: [:])
        #expect(result.status == 0, "\(result.stderr)")
        let refused = try DaemonProcess.runOnce(["ctl", "--socket", daemon.stateDirectory + "/control.sock", "frobnicate"],
                                                environment: [:])
        #expect(refused.status == 1)
        #expect(daemon.stop() == 0)
    }
}
