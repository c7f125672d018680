import HAL

/// A device the board file names that could not be opened or driven, said once, naming the device and what
/// to check: `cannot open the codec on /dev/i2c-1: ... (check ...)`.
public enum BoardDeviceError: Error, Hashable, Sendable, CustomStringConvertible {
    /// The codec's bus or driver (`/dev/i2c-N`, or the chip not answering).
    case codec(device: String, String)
    /// The GPIO chip or one of its lines (buttons, jack, amplifier, LEDs).
    case gpio(what: String, GPIOError)
    /// A PCM (playback or capture).
    case pcm(PCMError)
    /// The jack detector could not start.
    case jack(JackDetectorError)
    /// The simulated loopback cannot carry what was asked.
    case loopback(String)
    /// The board has no such LED, or the LED cannot do this.
    case led(String)
    /// A simulation call on real hardware (`jack in` on a board with a real jack).
    case notSimulated(String)

    public var description: String {
        switch self {
        case .codec(let device, let message): "codec on \(device): \(message)"
        case .gpio(let what, let error): "\(what): \(error)"
        case .pcm(let error): "\(error) (\(error.hint))"
        case .jack(let error): "\(error)"
        case .loopback(let message): "loopback: \(message)"
        case .led(let message): message
        case .notSimulated(let what):
            "\(what) works on the simulated board only: this board's lines are real (run with --board simulated)"
        }
    }
}
