/// What a button does; the queue layer turns presses into remote-control events.
public enum ButtonRole: String, Hashable, Sendable, CaseIterable, CustomStringConvertible {
    /// The headset remote's centre button: single, double and triple presses and holds are decoded later
    /// into play/pause, next, previous and seek gestures.
    case remote
    case volumeUp = "volume-up"
    case volumeDown = "volume-down"
    case record
    /// Reported by name only.
    case custom

    public var description: String { rawValue }
}

/// One push button on a GPIO line.
public struct ButtonConfig: Hashable, Sendable {
    public var name: String
    public var input: GPIOInputLine
    public var role: ButtonRole

    public init(name: String, input: GPIOInputLine, role: ButtonRole) {
        self.name = name
        self.input = input
        self.role = role
    }

    /// Debounce when the file names none: long enough for a tact switch, short enough for a double press.
    public static let defaultDebounceMilliseconds = 20
}
