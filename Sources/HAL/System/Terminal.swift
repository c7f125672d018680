#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif

/// A terminal: a serial device set up for a line console (`--console /dev/ttyAMA0 --baud 115200`), or any
/// descriptor asked whether it is one.
///
/// The line is 8N1 without flow control (what a USB-serial adapter and `screen`, `picocom` or `minicom`
/// expect by default), the modem lines ignored (CLOCAL: a board has none), canonical input with echo and
/// CR -> NL (Enter sends CR), and NL -> CR NL on output. libedit, when it edits lines on it, switches to its
/// own raw mode and back.
public final class Terminal: @unchecked Sendable {
    /// The baud rates termios names, from `B9600` up (lower ones are of no use for a console).
    public static let supportedBauds: [Int] = [9600, 19200, 38400, 57600, 115200, 230400, 460800, 500000, 576000,
                                               921600, 1000000, 1152000, 1500000, 2000000, 3000000]

    public let path: String
    /// The open device (read and write), for the control loop's `poll`; -1 once closed.
    public private(set) var descriptor: Int32

    /// Opens `path` (without making it the controlling terminal) and sets it up at `baud`, 8N1.
    public init(opening path: String, baud: Int) throws(TerminalError) {
        guard let speed = Self.speed(baud) else { throw .unsupportedBaud(baud, supported: Self.supportedBauds) }
        let raw: Int32
        do throws(SystemError) {
            raw = try retrying("open", path) { Syscalls.open(path, O_RDWR | O_NOCTTY | O_CLOEXEC, 0) }
        } catch {
            throw .open(error)
        }
        self.path = path
        descriptor = raw
        guard Syscalls.isatty(raw) else { close(); throw .notATerminal(path: path) }
        var settings = termios()
        guard Syscalls.tcgetattr(raw, &settings) == 0 else { let error = SystemError.current("tcgetattr", path: path); close(); throw .configure(error) }
        Self.makeLineConsole(&settings)
        guard Syscalls.cfsetspeed(&settings, speed) == 0,
              Syscalls.tcsetattr(raw, TCSANOW, &settings) == 0 else {
            let error = SystemError.current("tcsetattr", path: path)
            close()
            throw .configure(error)
        }
    }

    deinit { close() }

    public func close() {
        guard descriptor >= 0 else { return }
        _ = Syscalls.close(descriptor)
        descriptor = -1
    }

    /// Whether `descriptor` is a terminal (isatty(3)).
    public static func isTerminal(_ descriptor: Int32) -> Bool { Syscalls.isatty(descriptor) }

    /// 8N1, no flow control, modem lines ignored, canonical with echo, CR -> NL in, NL -> CR NL out.
    static func makeLineConsole(_ settings: inout termios) {
        settings.c_iflag = tcflag_t(ICRNL)
        settings.c_oflag = tcflag_t(OPOST) | tcflag_t(ONLCR)
        let cleared: tcflag_t = tcflag_t(CSIZE) | tcflag_t(PARENB) | tcflag_t(CSTOPB) | tcflag_t(CRTSCTS)
        let set: tcflag_t = tcflag_t(CS8) | tcflag_t(CREAD) | tcflag_t(CLOCAL)
        settings.c_cflag = (settings.c_cflag & ~cleared) | set
        settings.c_lflag = tcflag_t(ICANON) | tcflag_t(ECHO) | tcflag_t(ECHOE) | tcflag_t(ECHOK) | tcflag_t(IEXTEN)
        withUnsafeMutableBytes(of: &settings.c_cc) { cc in
            cc[Int(VMIN)] = 1
            cc[Int(VTIME)] = 0
        }
    }

    /// The termios constant for `baud`.
    static func speed(_ baud: Int) -> speed_t? {
        switch baud {
        case 9600: speed_t(B9600)
        case 19200: speed_t(B19200)
        case 38400: speed_t(B38400)
        case 57600: speed_t(B57600)
        case 115200: speed_t(B115200)
        case 230400: speed_t(B230400)
        case 460800: speed_t(B460800)
        case 500000: speed_t(B500000)
        case 576000: speed_t(B576000)
        case 921600: speed_t(B921600)
        case 1000000: speed_t(B1000000)
        case 1152000: speed_t(B1152000)
        case 1500000: speed_t(B1500000)
        case 2000000: speed_t(B2000000)
        case 3000000: speed_t(B3000000)
        default: nil
        }
    }
}
