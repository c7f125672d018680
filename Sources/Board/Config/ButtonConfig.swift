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

/// One push button on a GPIO line, with the timings that group its presses into gestures.
public struct ButtonConfig: Hashable, Sendable {
    public var name: String
    public var input: GPIOInputLine
    public var role: ButtonRole
    /// From a release to the next press that still counts as part of the same double or triple click.
    public var multiClickMilliseconds: Int
    /// From a press until it counts as a hold.
    public var holdMilliseconds: Int
    /// Between repeats while held.
    public var repeatMilliseconds: Int

    public init(name: String, input: GPIOInputLine, role: ButtonRole,
                multiClickMilliseconds: Int = ButtonConfig.defaultMultiClickMilliseconds,
                holdMilliseconds: Int = ButtonConfig.defaultHoldMilliseconds,
                repeatMilliseconds: Int = ButtonConfig.defaultRepeatMilliseconds) {
        self.name = name
        self.input = input
        self.role = role
        self.multiClickMilliseconds = multiClickMilliseconds
        self.holdMilliseconds = holdMilliseconds
        self.repeatMilliseconds = repeatMilliseconds
    }

    /// Debounce when the file names none: long enough for a tact switch, short enough for a double press.
    public static let defaultDebounceMilliseconds = 20
    /// Android's published gesture timings (AOSP ViewConfiguration: DEFAULT_MULTI_PRESS_TIMEOUT 300 ms,
    /// DEFAULT_LONG_PRESS_TIMEOUT 400 ms, DEFAULT_KEY_REPEAT_DELAY_MS 50 ms), the same as the gesture
    /// decoder's own defaults (Queue's GestureTiming.standard; a test keeps them equal).
    public static let defaultMultiClickMilliseconds = 300
    public static let defaultHoldMilliseconds = 400
    public static let defaultRepeatMilliseconds = 50

    /// What a board file may set: a window shorter than a deliberate second press, or a hold so long that it
    /// feels broken, is a mistake.
    public static let multiClickRange = 50...2000
    public static let holdRange = 100...10_000
    public static let repeatRange = 10...2000
}

/// What holding the remote button does on a board (`hold:`): seek through the track while held, as a
/// headset's fast-forward, or start and stop recording, on a board made for recording.
public enum HoldAction: String, Hashable, Sendable, CaseIterable, CustomStringConvertible {
    case seek
    case record

    public var description: String { rawValue }
}
