import Foundation
#if canImport(Glibc)
import Glibc
#endif
import Testing

/// `appliance run` as systemd and a user see it: the notify protocol, signals, the instance lock, the
/// settings file.
@Suite(.serialized) struct RunCommandTests {
    /// Type=notify: READY=1 once up, STOPPING=1 when SIGTERM arrives (systemd.service(5): a clean stop exits 0),
    /// and the settings file written at shutdown.
    @Test(arguments: [SIGTERM, SIGINT, SIGHUP])
    func aTerminationSignalStopsItCleanly(signal: Int32) throws {
        let daemon = try DaemonProcess(arguments: ["--board", "simulated"])
        let ready = try #require(daemon.waitUntilReady(), "no READY=1; stderr: \(daemon.standardError)")
        #expect(ready.hasPrefix("READY=1\nSTATUS="))
        kill(daemon.pid, signal)
        #expect(daemon.nextNotification() == "STOPPING=1")
        #expect(daemon.waitForExit() == 0, "stderr: \(daemon.standardError)")
        #expect(FileManager.default.fileExists(atPath: daemon.stateDirectory + "/settings.json"))
    }

    /// Only one process owns the codec: a second `run` on the same state exits 1 naming the first one's pid;
    /// `hal` is refused the same way while it runs. (Under qemu-user the process name is the emulator's, so
    /// the name is only checked on the host.)
    @Test func aSecondInstanceAndHardwareCommandsAreRefusedNamingTheRunningOne() throws {
        let first = try DaemonProcess(arguments: [])
        _ = try #require(first.waitUntilReady(), "no READY=1; stderr: \(first.standardError)")
        let second = try DaemonProcess(arguments: [], stateDirectory: first.stateDirectory)
        #expect(second.waitForExit() == 1)
        let emulated = ProcessInfo.processInfo.environment["APPLIANCE_LAUNCHER"].map { !$0.isEmpty } ?? false
        let expected = emulated ? "the appliance is already running (pid \(first.pid)"
                                : "the appliance is already running (pid \(first.pid), appliance)"
        #expect(second.standardError.contains(expected), "\(second.standardError)")
        // `hal` told where the lock is through the child's own environment (not ours: parallel tests run `hal`).
        let hal = try DaemonProcess.runOnce(["hal", "pcm", "open", "--device", "null"],
                                            environment: ["APPLIANCE_LOCK": first.stateDirectory + "/appliance.lock"])
        #expect(hal.status == 1)
        #expect(hal.stderr.contains(expected), "\(hal.stderr)")
        #expect(first.stop() == 0)
    }

    /// The lock is one place whatever --state says: a daemon with its own --state (and the lock given to
    /// both processes as the same $APPLIANCE_LOCK, as the default place would be) is still found by `hal`.
    @Test func hardwareCommandsFindADaemonRunningWithAnotherStateDirectory() throws {
        let lock = NSTemporaryDirectory() + "appliance-lock-\(UUID().uuidString).lock"
        defer { unlink(lock) }
        let daemon = try DaemonProcess(arguments: [], environment: ["APPLIANCE_LOCK": lock])
        _ = try #require(daemon.waitUntilReady(), "no READY=1; stderr: \(daemon.standardError)")
        let hal = try DaemonProcess.runOnce(["hal", "pcm", "open", "--device", "null"], environment: ["APPLIANCE_LOCK": lock])
        #expect(hal.status == 1)
        #expect(hal.stderr.contains("the appliance is already running (pid \(daemon.pid)"), "\(hal.stderr)")
        #expect(daemon.stop() == 0)
    }

    /// DESIGN.md "Threads and real time": the daemon locks its memory (mlockall MCL_CURRENT|MCL_FUTURE|
    /// MCL_ONFAULT); proc(5)'s VmLck ("locked memory size") is then above zero once pages are touched.
    /// Tests run as root (CAP_IPC_LOCK), so the lock is granted here.
    @Test func theDaemonLocksItsMemory() throws {
        let daemon = try DaemonProcess(arguments: [])
        _ = try #require(daemon.waitUntilReady(), "no READY=1; stderr: \(daemon.standardError)")
        let status = try String(contentsOfFile: "/proc/\(daemon.pid)/status", encoding: .utf8)
        let line = try #require(status.split(separator: "\n").first { $0.hasPrefix("VmLck:") })
        let kilobytes = Int(line.split(separator: " ", omittingEmptySubsequences: true)[1]) ?? 0
        #expect(kilobytes > 0, "\(line)")
        #expect(daemon.stop() == 0)
    }

    /// A corrupt settings file never stops the appliance: kept aside, reported as a warning (<4>, journald's
    /// warning priority per sd-daemon(3)), defaults used.
    @Test func aCorruptSettingsFileIsKeptAsideAndReported() throws {
        let state = NSTemporaryDirectory() + "appliance-run-\(UUID().uuidString)"
        try FileManager.default.createDirectory(atPath: state, withIntermediateDirectories: true)
        try Data("{ not json".utf8).write(to: URL(fileURLWithPath: state + "/settings.json"))
        let daemon = try DaemonProcess(arguments: [], stateDirectory: state)
        _ = try #require(daemon.waitUntilReady(), "no READY=1; stderr: \(daemon.standardError)")
        #expect(try Data(contentsOf: URL(fileURLWithPath: state + "/settings.json.corrupt-1")) == Data("{ not json".utf8))
        // One warning, not one per turn or per save.
        #expect(daemon.standardError.split(separator: "\n").filter {
            $0.hasPrefix("<4>settings file ") && $0.contains("kept as \(state)/settings.json.corrupt-1")
        }.count == 1, "\(daemon.standardError)")
        // Counted in `stats` (RELIABILITY.md section 3), and the next save writes a fresh file beside the kept one.
        #expect(daemon.command("stats")?.contains("settings corrupt: 1") == true)
        #expect(daemon.command("vol 40")?.last == "OK")
        #expect(daemon.stop() == 0)
        #expect(try Data(contentsOf: URL(fileURLWithPath: state + "/settings.json.corrupt-1")) == Data("{ not json".utf8))
        let saved = try Data(contentsOf: URL(fileURLWithPath: state + "/settings.json"))
        #expect((try? JSONSerialization.jsonObject(with: saved)) != nil, "\(String(decoding: saved, as: UTF8.self))")
    }

    /// No such ALSA PCM: the start fails after the codec's power-up, with one line saying so and status 1.
    @Test func aMissingPCMIsOneLineAndExitStatusOne() throws {
        let daemon = try DaemonProcess(arguments: ["--board", "simulated", "--pcm", "nosuch"])
        #expect(daemon.waitForExit() == 1)
        let lines = daemon.standardError.split(separator: "\n").filter { !$0.isEmpty }
        #expect(lines.count == 1 && lines[0].contains("nosuch"), "\(daemon.standardError)")
    }

    /// A settings file that is there but cannot be read (a symbolic link to itself: ELOOP, a read error
    /// root cannot get past) is not replaced at shutdown after a change; the log says so once.
    @Test func anUnreadableSettingsFileIsNotOverwritten() throws {
        let state = NSTemporaryDirectory() + "appliance-run-\(UUID().uuidString)"
        try FileManager.default.createDirectory(atPath: state, withIntermediateDirectories: true)
        #expect(symlink(state + "/settings.json", state + "/settings.json") == 0)
        let daemon = try DaemonProcess(arguments: [], stateDirectory: state)
        _ = try #require(daemon.waitUntilReady(), "no READY=1; stderr: \(daemon.standardError)")
        #expect(daemon.command("vol 40")?.last == "OK")
        #expect(daemon.stop() == 0)
        let kind = try FileManager.default.attributesOfItem(atPath: state + "/settings.json")[.type] as? FileAttributeType
        #expect(kind == .typeSymbolicLink)
        #expect(daemon.standardError.components(separatedBy: "will not be saved").count == 2, "\(daemon.standardError)")
    }

    /// `appliance run | head -c5` while recording: the reader goes away, the next reply meets EPIPE (SIGPIPE
    /// is ignored; pipe(7)), and the appliance shuts down as at the end of its input: exit 0 (not 141 or a
    /// SIGPIPE death), the take finalized. Finalized is judged by sox (the reference reader): the samples its
    /// header declares (soxi -s) times the block size (soxi -c, -b) account for the file's size to within a
    /// header, where a take cut off would have up to a commit interval (1 s) of audio past its header's count.
    @Test func aConsoleReaderThatGoesAwayStopsTheApplianceCleanlyWhileRecording() throws {
        guard FileManager.default.isExecutableFile(atPath: "/usr/bin/soxi") else {
            Issue.record("soxi (sox) is needed to read the take back")
            return
        }
        let daemon = try DaemonProcess(arguments: [], pipedOutput: true)
        let output = try #require(daemon.outputPipe)
        _ = try #require(daemon.waitUntilReady(), "no READY=1; stderr: \(daemon.standardError)")
        daemon.input.fileHandleForWriting.write(Data("record\n".utf8))
        #expect(output.fileHandleForReading.readData(ofLength: 5).count == 5)   // what `head -c5` takes
        usleep(1_500_000)
        try output.fileHandleForReading.close()
        daemon.input.fileHandleForWriting.write(Data("status\n".utf8))
        #expect(daemon.waitForExit() == 0, "stderr: \(daemon.standardError)")
        #expect(daemon.process.terminationReason == .exit)
        let recordings = daemon.stateDirectory + "/recordings"
        let takes = try FileManager.default.contentsOfDirectory(atPath: recordings).filter { $0.hasSuffix(".wav") }
        let take = try #require(takes.first.map { recordings + "/" + $0 }, "\(takes)")
        func soxi(_ flag: String) throws -> Int {
            let process = Process()
            let pipe = Foundation.Pipe()
            process.executableURL = URL(fileURLWithPath: "/usr/bin/soxi")
            process.arguments = [flag, take]
            process.standardOutput = pipe
            try process.run()
            process.waitUntilExit()
            let text = String(decoding: pipe.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
            return Int(text.trimmingCharacters(in: .whitespacesAndNewlines)) ?? -1
        }
        let frames = try soxi("-s"), channels = try soxi("-c"), bits = try soxi("-b")
        let size = try #require(try FileManager.default.attributesOfItem(atPath: take)[.size] as? Int)
        #expect(frames > 48_000, "\(frames) frames")   // at least the 1.5 s recorded before the reader left
        let audioBytes = frames * channels * bits / 8
        #expect(size - audioBytes >= 0 && size - audioBytes < 4_096, "\(size) bytes, \(audioBytes) of audio")
    }

    @Test func anUnknownBoardIsOneLineAndExitStatusOne() throws {
        // Its own lock, not the default place that parallel `hal` tests look at for a running daemon.
        let state = NSTemporaryDirectory() + "appliance-run-\(UUID().uuidString)"
        let result = try DaemonProcess.runOnce(["run", "--board", "no-such-board", "--state", state],
                                               environment: ["APPLIANCE_LOCK": state + ".lock"])
        #expect(result.status != 0)
        #expect(result.stderr.split(separator: "\n").count == 1, "\(result.stderr)")
        #expect(result.stderr.contains("no-such-board"))
    }

    /// `--periods` outside 2...64 is a usage mistake (ArgumentParser's validation: status 64, EX_USAGE in
    /// sysexits.h), said before anything starts.
    @Test(arguments: ["1", "65"]) func aBufferOutsideItsRangeIsAUsageMistake(periods: String) throws {
        let state = NSTemporaryDirectory() + "appliance-run-\(UUID().uuidString)"
        let result = try DaemonProcess.runOnce(["run", "--periods", periods, "--state", state],
                                               environment: ["APPLIANCE_LOCK": state + ".lock"])
        #expect(result.status == 64, "\(result.stderr)")
        #expect(result.stderr.contains("--periods must be 2 to 64"), "\(result.stderr)")
    }
}
