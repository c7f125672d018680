import Glibc
import TestSupport
import Testing
@testable import HAL

/// A serial console's termios set-up, checked on a pty (the kernel keeps the settings a serial driver would
/// get). 8N1 means CS8 without PARENB and without CSTOPB; no flow control means no CRTSCTS (termios(3)).
struct TerminalTests {
    @Test func aLineConsoleIs8N1AtTheBaudRateWithoutFlowControl() throws {
        let pty = try PseudoTerminalPair()
        let terminal = try Terminal(opening: pty.devicePath, baud: 115200)
        var settings = termios()
        #expect(tcgetattr(terminal.descriptor, &settings) == 0)
        #expect(cfgetospeed(&settings) == speed_t(B115200))
        #expect(cfgetispeed(&settings) == speed_t(B115200))
        #expect(settings.c_cflag & tcflag_t(CSIZE) == tcflag_t(CS8))
        #expect(settings.c_cflag & tcflag_t(PARENB) == 0)
        #expect(settings.c_cflag & tcflag_t(CSTOPB) == 0)
        #expect(settings.c_cflag & tcflag_t(CRTSCTS) == 0)
        #expect(settings.c_cflag & tcflag_t(CLOCAL) != 0)
        #expect(settings.c_lflag & tcflag_t(ICANON) != 0)
        #expect(settings.c_lflag & tcflag_t(ISIG) == 0)
        #expect(Terminal.isTerminal(terminal.descriptor))
        // Enter sends CR; ICRNL makes it the end of a line for a canonical reader.
        try pty.type("status\r")
        var buffer = [UInt8](repeating: 0, count: 32)
        let count = buffer.withUnsafeMutableBytes { read(terminal.descriptor, $0.baseAddress, $0.count) }
        #expect(Array(buffer[..<max(0, count)]) == Array("status\n".utf8))
        terminal.close()
        #expect(terminal.descriptor == -1)
    }

    @Test func wrongDevicesAndRatesAreTypedErrorsWithHints() throws {
        #expect(throws: TerminalError.notATerminal(path: "/dev/null")) { try Terminal(opening: "/dev/null", baud: 115200) }
        #expect(throws: TerminalError.unsupportedBaud(12345, supported: Terminal.supportedBauds)) {
            try Terminal(opening: "/dev/null", baud: 12345)
        }
        do {
            _ = try Terminal(opening: "/dev/ttyNOPE0", baud: 9600)
            Issue.record("a missing device opened")
        } catch {
            guard case .open(let system) = error else { Issue.record("\(error)"); return }
            #expect(system.errno == .noSuchFile)
            #expect(error.description.contains("enable_uart"))
        }
        let denied = TerminalError.open(SystemError("open", path: "/dev/ttyAMA0", errno: .permissionDenied))
        #expect(denied.description.contains("dialout group"))
    }
}
