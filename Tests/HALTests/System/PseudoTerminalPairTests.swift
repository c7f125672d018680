import Foundation
import TestSupport
import Testing

/// The pty helper the console and daemon tests share, checked against the kernel's line discipline defaults
/// (termios(3): a new pty's device side is canonical, echoes, and maps `\n` to `\r\n` on output).
struct PseudoTerminalPairTests {
    @Test func linesWrittenOnTheDeviceArriveAndTypedLinesAreEchoed() throws {
        let pty = try PseudoTerminalPair()
        #expect(pty.devicePath.hasPrefix("/dev/pts/"))
        let device = try pty.openDevice()
        let text = Array("hello\n".utf8)
        #expect(text.withUnsafeBytes { write(device, $0.baseAddress, $0.count) } == text.count)
        #expect(try pty.readLine(timeout: .seconds(5)) == "hello")
        try pty.type("abc\n")
        // ECHO on: the typed line comes back, ONLCR turns its \n into \r\n.
        #expect(try pty.read(until: "\r\n", timeout: .seconds(5)) == "abc\r\n")
        var buffer = [UInt8](repeating: 0, count: 16)
        let count = buffer.withUnsafeMutableBytes { read(device, $0.baseAddress, $0.count) }
        #expect(Array(buffer[..<max(0, count)]) == Array("abc\n".utf8))
        #expect(try pty.readLine(timeout: .milliseconds(50)) == nil)
    }

    @Test func aMissingMarkerTimesOutWithWhatArrived() throws {
        let pty = try PseudoTerminalPair()
        let device = try pty.openDevice()
        let text = Array("partial".utf8)
        _ = text.withUnsafeBytes { write(device, $0.baseAddress, $0.count) }
        #expect(throws: PseudoTerminalPair.Failure.self) { try pty.read(until: "OK", timeout: .milliseconds(100)) }
    }
}
