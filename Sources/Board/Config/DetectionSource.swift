/// How the board learns that headphones (or a headset microphone) are plugged in.
public enum DetectionSource: Hashable, Sendable, CustomStringConvertible {
    /// It does not: the route stays where the board file puts it.
    case none
    /// A switch contact in the jack on a GPIO line.
    case gpio(GPIOInputLine)
    /// A status register of the codec, read over I2C.
    case codecStatus

    public var gpioLine: GPIOInputLine? {
        if case .gpio(let line) = self { return line }
        return nil
    }

    public var description: String {
        switch self {
        case .none: "none"
        case .gpio(let line): "gpio \(line)"
        case .codecStatus: "codec status register"
        }
    }

    /// Debounce for a jack when the file names none: contacts bounce longer than buttons while a plug slides in.
    public static let defaultDebounceMilliseconds = 50
}
