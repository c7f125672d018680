import HAL

/// What a button did, as the user meant it: presses counted within the multi-click window, and holds.
///
/// A hold carries how many presses it ended: `presses: 2` is "press, then press and hold" (the headset
/// remote's fast-forward), `presses: 1` a plain long press.
public enum Gesture: Hashable, Sendable, CustomStringConvertible {
    case click
    case doubleClick
    case tripleClick
    /// The button has been held for the hold threshold.
    case holdBegan(presses: Int)
    /// Every repeat interval after the hold began, while the button stays down.
    case holdRepeated(presses: Int)
    /// The held button was let go.
    case holdEnded(presses: Int)

    /// The click gesture for `count` presses (1...3).
    static func clicks(_ count: Int) -> Gesture {
        switch count {
        case 1: .click
        case 2: .doubleClick
        default: .tripleClick
        }
    }

    public var description: String {
        switch self {
        case .click: "click"
        case .doubleClick: "double click"
        case .tripleClick: "triple click"
        case .holdBegan(let presses): "hold began (press \(presses))"
        case .holdRepeated(let presses): "hold repeat (press \(presses))"
        case .holdEnded(let presses): "hold ended (press \(presses))"
        }
    }
}

/// A gesture of one named button, stamped with when it happened: the release for a click that ends a
/// sequence at once, the deadline for one decided by time (window closed, hold threshold reached).
public struct ButtonGesture: Hashable, Sendable, CustomStringConvertible {
    public var button: String
    public var gesture: Gesture
    public var timestamp: Timestamp

    public init(button: String, gesture: Gesture, timestamp: Timestamp) {
        self.button = button
        self.gesture = gesture
        self.timestamp = timestamp
    }

    public var description: String { "\(button): \(gesture) at \(timestamp)" }
}
