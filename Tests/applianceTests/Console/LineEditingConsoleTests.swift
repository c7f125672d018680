import Foundation
import HAL
import TestSupport
import Testing
@testable import appliance

/// The console on a terminal (a pty): libedit edits the line. Keys are the bytes a VT100/xterm sends
/// (ECMA-48: ESC [ D cursor left, ESC [ A cursor up); Enter sends CR. libedit binds them in its default
/// emacs mode (editline(7): ed-prev-char, ed-prev-history). libedit keeps one editor per process, so these
/// tests run one at a time.
@Suite(.serialized)
struct LineEditingConsoleTests {
    @Test func editedAndRecalledLinesAreTheCommandsAndEventsPrintAboveAHalfTypedLine() throws {
        let rig = try ConsoleTestRig()
        let pty = try PseudoTerminalPair()
        let device = try pty.openDevice()
        let stream = StreamDescriptor(device, name: pty.devicePath)
        let connection = rig.server.attach(ConsoleConnection(input: stream, output: stream, name: pty.devicePath))
        #expect(connection.isEdited)
        _ = try pty.read(until: "appliance> ", timeout: .seconds(5))

        // "vol 0", cursor left once, "4": the line is "vol 40". libedit moves the cursor itself: the kernel
        // never echoes the key as "^[[D" (that would mean the terminal fell back to canonical mode).
        try pty.type("vol 0\u{1B}[D4\r")
        #expect(rig.turn { rig.dispatched.count == 1 })
        #expect(rig.dispatched.last == .audio(.volume(.percent(40))))
        let first = try pty.read(until: "OK", timeout: .seconds(5))
        #expect(first.hasSuffix("OK"))
        #expect(!first.contains("^["))

        // Up-arrow brings the last line back.
        try pty.type("\u{1B}[A\r")
        #expect(rig.turn { rig.dispatched.count == 2 })
        #expect(rig.dispatched.last == .audio(.volume(.percent(40))))
        #expect(!(try pty.read(until: "OK", timeout: .seconds(5))).contains("^["))

        try pty.type("events on\r")
        #expect(rig.turn { connection.eventsEnabled })
        _ = try pty.read(until: "OK", timeout: .seconds(5))
        _ = try pty.drain(quietFor: .milliseconds(100))

        // Half a line typed, then an event: the event is printed on a line of its own, the prompt and the
        // half-typed "sta" drawn again below it; "tus" and Enter make "status".
        try pty.type("sta")
        rig.turnAFew()
        _ = try pty.drain(quietFor: .milliseconds(100))
        rig.server.broadcast(ApplianceEvent(.jack, "out"))
        let shown = try pty.read(until: "appliance> sta", timeout: .seconds(5))
        #expect(shown.contains("EVENT jack out\r\n"))
        try pty.type("tus\r")
        #expect(rig.turn { rig.dispatched.count == 3 })
        _ = try pty.drain(quietFor: .milliseconds(100))
        #expect(rig.dispatched.last == .status)

        // A bad line on a terminal: ERR, and the console still answers.
        try pty.type("vol 400\r")
        rig.turnAFew()
        let error = try pty.read(until: "NdB]", timeout: .seconds(5))
        #expect(error.contains("ERR usage vol: '400'"))

        // ^D on an empty line ends the console.
        var ended = false
        rig.server.onConsoleEnd = { _ in ended = true }
        try pty.type("\u{04}")
        #expect(rig.turn { ended })
        #expect(rig.server.connections.isEmpty)
    }

    @Test func aSerialConsoleIsSetUpAndEdited() throws {
        let rig = try ConsoleTestRig()
        let pty = try PseudoTerminalPair()
        // The pty's device stands in for /dev/ttyAMA0: opened by path, set to 115200 8N1, then edited.
        let connection = try rig.server.attachSerial(path: pty.devicePath, baud: 115200)
        #expect(connection.isEdited)
        #expect(connection.name == pty.devicePath)
        _ = try pty.read(until: "appliance> ", timeout: .seconds(5))
        try pty.type("jack in headset\r")
        #expect(rig.turn { rig.dispatched == [.jack(.headset)] })
        #expect(try pty.read(until: "OK", timeout: .seconds(5)).hasSuffix("OK"))
        #expect(throws: TerminalError.notATerminal(path: "/dev/null")) {
            try rig.server.attachSerial(path: "/dev/null", baud: 115200)
        }
        rig.server.close()
        #expect(rig.server.connections.isEmpty)
    }

    @Test func aHungUpTerminalEndsTheConsole() throws {
        let rig = try ConsoleTestRig()
        var pty: PseudoTerminalPair? = try PseudoTerminalPair()
        let devicePath = pty!.devicePath
        let device = open(devicePath, O_RDWR | O_NOCTTY)
        defer { close(device) }
        let stream = StreamDescriptor(device, name: devicePath)
        var ended = false
        rig.server.onConsoleEnd = { _ in ended = true }
        rig.server.attach(ConsoleConnection(input: stream, output: stream, name: devicePath))
        pty = nil   // the controller side closes: the device hangs up
        #expect(rig.turn { ended })
    }
}
