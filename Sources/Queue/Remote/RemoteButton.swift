import HAL

/// One button the gesture decoder follows: its name (the board file's), the GPIO line its debounced
/// changes come from, and its timing.
public struct RemoteButton: Hashable, Sendable {
    public var name: String
    /// The line whose `DebouncedChange`s are this button's edges; nil for a button fed by name only.
    public var line: GPIOLineID?
    public var timing: GestureTiming

    public init(name: String, line: GPIOLineID? = nil, timing: GestureTiming = .standard) {
        self.name = name
        self.line = line
        self.timing = timing
    }
}
