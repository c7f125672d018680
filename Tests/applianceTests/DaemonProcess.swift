import Foundation
#if canImport(Glibc)
import Glibc
#endif

/// `appliance run` started as a child process the way systemd starts it: a notify socket bound by the test
/// (READY=1 says start-up is done; sd_notify(3)), standard output and error to files, standard input a pipe
/// the test writes console lines to. Under qemu-user (`$APPLIANCE_LAUNCHER`) the launcher forwards signals.
final class DaemonProcess {
    let process = Process()
    let stateDirectory: String
    private let notifySocket: Int32
    private let notifyPath: String
    private let outputPath: String
    private let errorPath: String
    let input = Foundation.Pipe()
    /// Standard output as a pipe the test reads (and may close), when asked for; else it goes to a file.
    let outputPipe: Foundation.Pipe?
    /// Standard output lines already returned by `command`.
    var consumedLines = 0
    /// `EVENT` lines seen so far.
    var events: [String] = []

    /// `terminal`: a pty device descriptor to be the console (standard input and output) instead of the pipe.
    /// `workingDirectory`: where the daemon runs (relative paths in `arguments` are from there).
    init(arguments: [String], stateDirectory: String? = nil, environment: [String: String] = [:],
         terminal: Int32? = nil, workingDirectory: String? = nil, pipedOutput: Bool = false) throws {
        outputPipe = pipedOutput ? Foundation.Pipe() : nil
        guard let binary = ApplianceBinary.url else { throw ApplianceBinary.LocateError() }
        let base = NSTemporaryDirectory() + "appliance-run-\(UUID().uuidString)"
        self.stateDirectory = stateDirectory ?? base + "/state"
        try FileManager.default.createDirectory(atPath: base, withIntermediateDirectories: true)
        notifyPath = base + "/notify.sock"
        outputPath = base + "/stdout"
        errorPath = base + "/stderr"
        notifySocket = socket(AF_UNIX, Int32(SOCK_DGRAM.rawValue), 0)
        var address = sockaddr_un()
        address.sun_family = sa_family_t(AF_UNIX)
        let name = Array(notifyPath.utf8)
        withUnsafeMutableBytes(of: &address.sun_path) { for (i, b) in name.enumerated() { $0[i] = b } }
        let length = socklen_t(MemoryLayout.offset(of: \sockaddr_un.sun_path)! + name.count)
        _ = withUnsafePointer(to: &address) { $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(notifySocket, $0, length) } }
        _ = FileManager.default.createFile(atPath: outputPath, contents: nil)
        _ = FileManager.default.createFile(atPath: errorPath, contents: nil)
        let all = ["run", "--state", self.stateDirectory] + arguments
        if let launcher = ProcessInfo.processInfo.environment["APPLIANCE_LAUNCHER"], !launcher.isEmpty {
            process.executableURL = URL(fileURLWithPath: launcher)
            process.arguments = [binary.path] + all
        } else {
            process.executableURL = binary
            process.arguments = all
        }
        var env = ProcessInfo.processInfo.environment
        env["NOTIFY_SOCKET"] = notifyPath
        // One lock per state directory, so parallel tests do not collide (the daemon's lock is otherwise one
        // place whatever --state says).
        env["APPLIANCE_LOCK"] = self.stateDirectory + "/appliance.lock"
        for (key, value) in environment { env[key] = value }
        process.environment = env
        if let workingDirectory { process.currentDirectoryURL = URL(fileURLWithPath: workingDirectory) }
        if let terminal {
            process.standardInput = FileHandle(fileDescriptor: terminal, closeOnDealloc: false)
            process.standardOutput = FileHandle(fileDescriptor: terminal, closeOnDealloc: false)
        } else {
            process.standardInput = input
            if let outputPipe {
                process.standardOutput = outputPipe
            } else {
                process.standardOutput = try FileHandle(forWritingTo: URL(fileURLWithPath: outputPath))
            }
        }
        process.standardError = try FileHandle(forWritingTo: URL(fileURLWithPath: errorPath))
        try process.run()
    }

    /// Runs another `appliance` command to its end with extra environment; its status and standard error.
    static func runOnce(_ arguments: [String], environment: [String: String]) throws -> (status: Int32, stderr: String) {
        guard let binary = ApplianceBinary.url else { throw ApplianceBinary.LocateError() }
        let process = Process()
        let errorPath = NSTemporaryDirectory() + "appliance-once-\(UUID().uuidString)"
        _ = FileManager.default.createFile(atPath: errorPath, contents: nil)
        defer { try? FileManager.default.removeItem(atPath: errorPath) }
        if let launcher = ProcessInfo.processInfo.environment["APPLIANCE_LAUNCHER"], !launcher.isEmpty {
            process.executableURL = URL(fileURLWithPath: launcher)
            process.arguments = [binary.path] + arguments
        } else {
            process.executableURL = binary
            process.arguments = arguments
        }
        process.environment = ProcessInfo.processInfo.environment.merging(environment) { $1 }
        process.standardInput = FileHandle.nullDevice
        process.standardOutput = FileHandle.nullDevice
        let handle = try FileHandle(forWritingTo: URL(fileURLWithPath: errorPath))
        process.standardError = handle
        try process.run()
        process.waitUntilExit()
        try handle.close()
        return (process.terminationStatus, (try? String(contentsOfFile: errorPath, encoding: .utf8)) ?? "")
    }

    deinit {
        if process.isRunning { kill(process.processIdentifier, SIGKILL); process.waitUntilExit() }
        close(notifySocket)
    }

    var pid: Int32 { process.processIdentifier }
    var standardOutput: String { (try? String(contentsOfFile: outputPath, encoding: .utf8)) ?? "" }
    var standardError: String { (try? String(contentsOfFile: errorPath, encoding: .utf8)) ?? "" }

    /// The next datagram on the notify socket, waiting up to `seconds`.
    func nextNotification(seconds: Int32 = 60) -> String? {
        var entries = [pollfd(fd: notifySocket, events: Int16(POLLIN), revents: 0)]
        guard poll(&entries, 1, seconds * 1000) == 1 else { return nil }
        var buffer = [UInt8](repeating: 0, count: 4096)
        let count = recv(notifySocket, &buffer, buffer.count, 0)
        return count < 0 ? nil : String(decoding: buffer[..<count], as: UTF8.self)
    }

    /// Waits for READY=1 (skipping STATUS-only messages); the whole message, or nil if it never came.
    func waitUntilReady(seconds: Int32 = 60) -> String? {
        while let message = nextNotification(seconds: seconds) {
            if message.split(separator: "\n").contains("READY=1") { return message }
        }
        return nil
    }

    /// Sends `signal` and waits (up to `seconds`) for the exit; the exit status, or nil on a timeout.
    func stop(with signal: Int32 = SIGTERM, seconds: Double = 60) -> Int32? {
        kill(pid, signal)
        return waitForExit(seconds: seconds)
    }

    func waitForExit(seconds: Double = 60) -> Int32? {
        let deadline = Date().addingTimeInterval(seconds)
        while process.isRunning && Date() < deadline { usleep(10_000) }
        guard !process.isRunning else { return nil }
        return process.terminationStatus
    }
}

extension DaemonProcess {
    /// Types `line` on the console (standard input) and returns the reply: the lines up to and including the
    /// final `OK` / `ERR ...` line, `EVENT` lines left out (they are in `events`). Nil if no final line came
    /// within `seconds`.
    func command(_ line: String, seconds: Double = 30) -> [String]? {
        input.fileHandleForWriting.write(Data((line + "\n").utf8))
        let deadline = Date().addingTimeInterval(seconds)
        while Date() < deadline {
            let lines = standardOutput.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
            let fresh = lines.dropFirst(consumedLines)
            if let end = fresh.firstIndex(where: { $0 == "OK" || $0.hasPrefix("ERR ") }) {
                let reply = Array(fresh[fresh.startIndex...end])
                consumedLines = end + 1
                events += reply.filter { $0.hasPrefix("EVENT ") }
                return reply.filter { !$0.hasPrefix("EVENT ") && !$0.hasPrefix(ConsolePrompt.text) }
            }
            usleep(5_000)
        }
        return nil
    }
}

/// The console's prompt (only written on a terminal; the pipe console has none).
enum ConsolePrompt {
    static let text = "appliance> "
}
