import Foundation
import Glibc
import HAL
@testable import appliance

/// A console server on a control loop that the test turns itself (no thread, no sleeping): it records the
/// commands the server dispatched and answers them from a table.
final class ConsoleTestRig: @unchecked Sendable {
    let loop: ControlLoop
    private(set) var server: ConsoleServer!
    private(set) var dispatched: [ConsoleCommand] = []
    var answers: [ConsoleCommand: ConsoleReply] = [:]
    let directory: String

    init() throws {
        loop = try ControlLoop(clock: SystemClock())
        directory = NSTemporaryDirectory() + "console-" + UUID().uuidString.prefix(8)
        try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
        server = ConsoleServer(loop: loop) { [unowned self] command, _ in
            dispatched.append(command)
            return answers[command] ?? .ok()
        }
    }

    deinit {
        server.close()
        try? FileManager.default.removeItem(atPath: directory)
    }

    var socketPath: String { directory + "/control.sock" }

    /// Turns the loop until `condition` holds (false after ~5 s).
    @discardableResult
    func turn(until condition: () -> Bool) -> Bool {
        for _ in 0..<500 {
            if condition() { return true }
            loop.turn(maximumWait: .milliseconds(10))
        }
        return condition()
    }

    /// Turns the loop a few times (for what should NOT happen).
    func turnAFew() {
        for _ in 0..<5 { loop.turn(maximumWait: .milliseconds(10)) }
    }
}

/// A client's view of a socket: lines read with a timeout.
final class LineClient {
    let socket: UnixSocket
    private var pending: [UInt8] = []

    init(path: String) throws { socket = try UnixSocket.connect(path: path) }

    func send(_ line: String) throws { try socket.send(Array((line + "\n").utf8)) }

    /// Reads lines up to and including a final `OK` / `ERR` line, turning `rig`'s loop meanwhile.
    func reply(turning rig: ConsoleTestRig) throws -> [String] {
        var lines: [String] = []
        var done = false
        rig.turn {
            while let line = try? takeLine() {
                lines.append(line)
                if line == "OK" || line.hasPrefix("ERR ") { done = true; return true }
            }
            return done
        }
        return lines
    }

    /// One line if there is one now.
    func takeLine() throws -> String? {
        while true {
            if let newline = pending.firstIndex(of: UInt8(ascii: "\n")) {
                defer { pending.removeSubrange(...newline) }
                return String(decoding: pending[..<newline], as: UTF8.self)
            }
            guard try socket.waitForInput(timeoutMilliseconds: 0) else { return nil }
            let bytes = try socket.receive()
            if bytes.isEmpty { return nil }
            pending += bytes
        }
    }
}
