/// What is in the headphone jack, as far as the board can tell.
public enum JackState: String, Hashable, Sendable, CustomStringConvertible {
    case unplugged
    /// A 3-pole plug, or any plug on a board that cannot sense a microphone.
    case headphones
    /// A 4-pole plug whose microphone ring the board senses (mic bias drawn, or a mic-detect line).
    case headset

    public var isPlugged: Bool { self != .unplugged }
    public var hasMicrophone: Bool { self == .headset }
    public var description: String { rawValue }
}

/// A change of the jack's state: the route-change trigger. `timestamp` is when it really happened (the
/// first edge of the plug's bounce burst, on the kernel's monotonic clock), not when debouncing let it
/// through, so the session can order it against button presses.
public struct JackEvent: Hashable, Sendable, CustomStringConvertible {
    public var timestamp: Timestamp
    public var state: JackState
    public var previous: JackState

    public init(timestamp: Timestamp, state: JackState, previous: JackState) {
        self.timestamp = timestamp
        self.state = state
        self.previous = previous
    }

    public var description: String { "jack: \(previous) -> \(state) at \(timestamp)" }
}
