/// A debounced level change of one line.
public struct DebouncedChange: Hashable, Sendable, CustomStringConvertible {
    public var line: GPIOLineID
    /// The new logical level (true: active, e.g. pressed).
    public var active: Bool
    /// The first edge of the burst that ended in this level: when the button was really pressed. Gesture
    /// timing (long press, double click) measures from here.
    public var timestamp: Timestamp
    /// The last edge of that burst, after which the level held for the debounce time. The change is reported
    /// at `lastEdge + debounce time` at the earliest.
    public var lastEdge: Timestamp

    public init(line: GPIOLineID, active: Bool, timestamp: Timestamp, lastEdge: Timestamp) {
        self.line = line
        self.active = active
        self.timestamp = timestamp
        self.lastEdge = lastEdge
    }

    public var description: String {
        "\(line) \(active ? "active" : "inactive") at \(timestamp) (settled after \(lastEdge))"
    }
}

/// The software debouncer of one line: a level is reported once it has held, with no edge, for `time`.
///
/// States: *stable* (the raw level equals the reported one) and *pending* (it differs; the deadline is the
/// last edge plus `time`). Every edge restarts the wait; an edge pair shorter than `time` that returns to the
/// reported level (a glitch) reports nothing. Edges in a burst are those less than `time` apart; a change
/// carries the time of the burst's first edge.
///
/// Time comes only from the edges' kernel timestamps and the `now` given to `settle`, never from a wall
/// clock, so the result does not depend on when `settle` is called (only how soon a change is seen).
public struct Debouncer: Hashable, Sendable {
    public let line: GPIOLineID
    public let time: Duration
    /// The debounced level.
    public private(set) var level: Bool
    private var raw: Bool
    private var lastEdge: Timestamp
    private var burstStart: Timestamp?

    public init(line: GPIOLineID, time: Duration, level: Bool) {
        precondition(time >= .zero, "a debounce time is not negative")
        self.line = line
        self.time = time
        self.level = level
        raw = level
        lastEdge = .zero
    }

    /// When a pending level will be reported if no edge comes first; nil when stable.
    public var deadline: Timestamp? { raw != level ? lastEdge + time : nil }

    /// When the line will have had no edge for the debounce time (in the past once it has): unlike
    /// `deadline`, a bounce that is back at the reported level still counts as activity.
    public var quietAt: Timestamp { lastEdge + time }

    /// Takes in an edge to the raw level `active` at kernel time `timestamp`. Returns the change that had
    /// already settled before this edge, if the caller had not yet `settle`d it.
    public mutating func edge(to active: Bool, at timestamp: Timestamp) -> DebouncedChange? {
        let settled = settle(at: timestamp)
        if burstStart == nil || timestamp - lastEdge >= time { burstStart = timestamp }
        raw = active     // an edge to the level the line already had means a missed edge: still activity
        lastEdge = timestamp
        return settled
    }

    /// Reports the pending level if it has held for the debounce time by `now`.
    public mutating func settle(at now: Timestamp) -> DebouncedChange? {
        guard raw != level, now - lastEdge >= time else { return nil }
        level = raw
        defer { burstStart = nil }
        return DebouncedChange(line: line, active: raw, timestamp: burstStart ?? lastEdge, lastEdge: lastEdge)
    }
}
