/// Why a serial console could not be opened or set up, with what to check.
public enum TerminalError: Error, Hashable, Sendable, CustomStringConvertible {
    case open(SystemError)
    /// The path opened, but it is no terminal (a file, /dev/null).
    case notATerminal(path: String)
    /// termios has no constant for this rate.
    case unsupportedBaud(Int, supported: [Int])
    /// tcgetattr/tcsetattr failed.
    case configure(SystemError)

    public var description: String {
        switch self {
        case .open(let error):
            let hint: String
            switch error.errno {
            case .permissionDenied, .notPermitted:
                hint = "; add the user to the dialout group (ls -l \(error.path) shows the device's group)"
            case .noSuchFile:
                hint = "; no such serial device: on a Pi enable the UART (enable_uart=1) or check the name"
            case .busy:
                hint = "; another program (a getty: systemctl stop serial-getty@...) holds it"
            default:
                hint = ""
            }
            return "\(error.path): cannot open the serial device: \(error.errno)\(hint)"
        case .notATerminal(let path):
            return "\(path): not a terminal or serial device"
        case .unsupportedBaud(let baud, let supported):
            return "\(baud) baud is not a standard rate; use one of \(supported.map(String.init).joined(separator: ", "))"
        case .configure(let error):
            return "\(error.path): cannot set the serial line up: \(error.errno)"
        }
    }
}
