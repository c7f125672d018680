import Foundation
#if canImport(Glibc)
import Glibc
#endif
import TestSupport
import Testing

/// `appliance run` with its console on a terminal (a pseudo-terminal), as a person at `make run` or on the
/// serial line sees it: the prompt, line editing, replies and streamed events.
@Suite(.serialized) struct ApplianceTerminalTests {
    /// On a terminal: commands typed at the prompt are answered; `events on` streams the simulated jack's
    /// change as an `EVENT jack` line; ^D (end of input) shuts the appliance down cleanly.
    @Test func aPersonAtTheTerminalTypesCommandsAndSeesEvents() throws {
        let pty = try PseudoTerminalPair()
        let device = try pty.openDevice()
        let daemon = try DaemonProcess(arguments: ["--board", "simulated"], terminal: device)
        _ = try #require(daemon.waitUntilReady(), "no READY=1; stderr: \(daemon.standardError)")
        // Type only once the prompt is up (libedit has the terminal in its own mode then).
        _ = try pty.read(until: "appliance> ", timeout: .seconds(30))
        try pty.type("status\r")
        let status = try pty.read(until: "\nOK", timeout: .seconds(30))
        #expect(status.contains("board: simulated"), "\(status)")
        try pty.type("events on\r")
        _ = try pty.read(until: "OK", timeout: .seconds(30))
        try pty.type("jack in\r")
        let event = try pty.read(until: "EVENT jack headphones", timeout: .seconds(30))
        #expect(event.contains("EVENT jack headphones"), "\(event)")
        try pty.type("frobnicate\r")
        let refused = try pty.read(until: "ERR unknown", timeout: .seconds(30))
        #expect(refused.contains("ERR unknown"))
        try pty.type("\u{04}")  // ^D: end of input at an empty prompt
        #expect(daemon.waitForExit() == 0, "stderr: \(daemon.standardError)")
    }

    /// `--console /dev/pts/N`: the serial-console path (termios set up by the appliance) on a pty.
    @Test func theSerialConsoleOptionServesADevice() throws {
        let pty = try PseudoTerminalPair()
        let daemon = try DaemonProcess(arguments: ["--console", pty.devicePath, "--baud", "115200"])
        _ = try #require(daemon.waitUntilReady(), "no READY=1; stderr: \(daemon.standardError)")
        try pty.type("vol 40\r")
        let reply = try pty.read(until: "OK", timeout: .seconds(30))
        #expect(reply.contains("volume: 40%"), "\(reply)")
        #expect(daemon.stop() == 0)
    }
}
