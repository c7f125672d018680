import Foundation
import Testing
@testable import HAL

struct InstanceLockTests {
    private func temporaryPath() -> String {
        NSTemporaryDirectory() + "appliance-lock-\(getpid())-\(UUID().uuidString).lock"
    }

    /// The lock holds our pid while we live; a second open of the file cannot take it (flock(2): locks belong
    /// to the open file description) and learns our pid; once released, it can.
    @Test func theHolderWritesItsPidAndASecondTakerIsRefused() throws {
        let path = temporaryPath()
        defer { unlink(path) }
        var lock: InstanceLock? = try InstanceLock(path: path)
        #expect(String(decoding: try FileSystem.contents(of: path), as: UTF8.self) == "\(getpid())\n")
        #expect(throws: InstanceLock.Failure.self) { _ = try InstanceLock(path: path) }
        #expect(InstanceLock.holder(of: path)?.pid == getpid())
        _ = lock
        lock = nil
        #expect(InstanceLock.holder(of: path) == nil)
        _ = try InstanceLock(path: path)
    }

    /// Another process holds it: util-linux's `flock --no-fork` execs `sleep` in the shell that wrote its pid, so
    /// the file's pid is sleep's; its name, from /proc/PID/comm, is the program's name "sleep".
    @Test func aChildProcessHolderIsNamedByPidAndName() throws {
        guard FileManager.default.isExecutableFile(atPath: "/usr/bin/flock") else { return }
        let path = temporaryPath()
        defer { unlink(path) }
        let child = Process()
        child.executableURL = URL(fileURLWithPath: "/bin/sh")
        child.arguments = ["-c", "echo $$ > '\(path)'; exec /usr/bin/flock --no-fork '\(path)' sleep 30"]
        try child.run()
        defer { kill(child.processIdentifier, SIGKILL); child.waitUntilExit() }
        // Wait (up to 10 s) until flock has the lock and has become sleep; polling, not a guessed sleep.
        var holder: InstanceLock.Holder?
        for _ in 0..<1000 where holder?.name != "sleep" {
            holder = InstanceLock.holder(of: path)
            if holder?.name != "sleep" { usleep(10_000) }
        }
        #expect(holder == InstanceLock.Holder(pid: child.processIdentifier, name: "sleep"))
        do throws(InstanceLock.Failure) {
            _ = try InstanceLock(path: path)
            Issue.record("took a lock another process holds")
        } catch let failure {
            #expect(failure == .held(by: InstanceLock.Holder(pid: child.processIdentifier, name: "sleep"), path: path))
            #expect(failure.description == "the appliance is already running (pid \(child.processIdentifier), sleep)")
        }
    }
}
