import HAL

/// When the alert line (LED, buzzer or vibration motor) is on: a pure state machine with time passed in,
/// like HAL's `JackStateMachine`. An alert or the vibrate ID turns the line on for `duration`; another one
/// while it is on extends the pulse rather than restarting it with an off-on flicker.
public struct AlertPulse: Hashable, Sendable {
    /// What to do to the line.
    public enum Action: Hashable, Sendable {
        case on
        case off
    }

    /// How long one pulse holds the line on.
    public let duration: Duration
    /// When the pulse in progress ends; nil while the line is off.
    public private(set) var deadline: Timestamp?

    public init(duration: Duration = .milliseconds(400)) {
        precondition(duration > .zero, "a pulse lasts some time")
        self.duration = duration
    }

    /// Whether the line is on.
    public var isOn: Bool { deadline != nil }

    /// An alert at `now`: turns the line on, or keeps it on until `now + duration`.
    public mutating func trigger(at now: Timestamp) -> Action? {
        let wasOn = isOn
        deadline = max(deadline ?? now, now + duration)
        return wasOn ? nil : .on
    }

    /// Turns the line off once the pulse's deadline has passed by `now`.
    public mutating func settle(at now: Timestamp) -> Action? {
        guard let deadline, now >= deadline else { return nil }
        self.deadline = nil
        return .off
    }
}

extension AlertPulse {
    /// Ends a pulse in progress at once (vibrate was turned off).
    public mutating func cancel() -> Action? {
        guard isOn else { return nil }
        deadline = nil
        return .off
    }
}
