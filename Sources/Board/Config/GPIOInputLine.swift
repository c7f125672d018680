import HAL

/// Which logic level means "active" on a line: a button to ground is active low.
public enum ActiveLevel: String, Hashable, Sendable, CaseIterable, CustomStringConvertible {
    case high
    case low

    public var isLow: Bool { self == .low }
    public var description: String { "active-\(rawValue)" }
}

/// An input line as a board file describes it: offset, level, pull resistor and debounce time.
public struct GPIOInputLine: Hashable, Sendable, CustomStringConvertible {
    public var line: Int
    public var active: ActiveLevel
    public var bias: GPIOBias
    public var debounceMilliseconds: Int

    public init(line: Int, active: ActiveLevel, bias: GPIOBias, debounceMilliseconds: Int) {
        self.line = line
        self.active = active
        self.bias = bias
        self.debounceMilliseconds = debounceMilliseconds
    }

    /// The pull a file gets when it names none: up for an active-low line (idle high), down for active-high.
    public static func defaultBias(for active: ActiveLevel) -> GPIOBias { active == .low ? .pullUp : .pullDown }

    public static let debounceRange = 0...1000

    public var description: String { "GPIO\(line) \(active), bias \(bias), debounce \(debounceMilliseconds) ms" }
}
