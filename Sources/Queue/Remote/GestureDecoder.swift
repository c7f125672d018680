import HAL

/// Turns debounced button edges into gestures: clicks counted within the multi-click window, holds,
/// and hold repeats, for several buttons at once, each with its own state and timing.
///
/// Per button: *idle*; *down* (pressed, the `n`th press of a sequence); *up* (released after `n` presses,
/// waiting to see if another press follows); *holding* (down past the hold threshold). The rules, with the
/// press at P and the release at R:
/// - a press at or after R + `multiClickWindow` starts a new sequence: the window closed at exactly
///   R + window and reported the clicks then; one nanosecond earlier it is the next press of the sequence;
/// - a button still down at P + `holdThreshold` is holding (hold began then); released one nanosecond
///   earlier it was a click;
/// - while holding, a repeat at P + threshold + k * `repeatInterval` (k >= 1); the release ends the hold
///   and no click is counted;
/// - a release that brings the count to `maxClicks` reports the clicks at once.
///
/// Time comes only from the edges' timestamps and `advance(to:)`. A debounced edge arrives after its
/// time (it carries its burst's first edge, reported a debounce time after the last one), so an edge
/// older than the time advanced to still counts at its own time, unless its button has already reported
/// something later (a hold that began, a window that closed): then it counts from that report, as time
/// does not run backwards for a button. Advancing no further than the debounce time behind the clock
/// (`RemoteControlDecoder` does so) keeps that to bursts longer than the debounce time.
public struct GestureDecoder: Hashable, Sendable {
    enum Phase: Hashable, Sendable {
        case idle
        case down(presses: Int, since: Timestamp)
        case up(clicks: Int, since: Timestamp)
        case holding(presses: Int, nextRepeat: Timestamp)
    }

    public let buttons: [RemoteButton]
    private var phases: [Phase]
    /// Per button, the time of its latest edge or reported gesture.
    private var settled: [Timestamp]
    private let byName: [String: Int]
    private let byLine: [GPIOLineID: Int]
    /// The latest time reached by an edge or `advance(to:)`.
    public private(set) var now: Timestamp

    public init(buttons: [RemoteButton], start: Timestamp = .zero) throws(GestureDecoderError) {
        var byName: [String: Int] = [:]
        var byLine: [GPIOLineID: Int] = [:]
        for (index, button) in buttons.enumerated() {
            let timing = button.timing
            if timing.multiClickWindow <= .zero || timing.holdThreshold <= .zero || timing.repeatInterval <= .zero {
                throw .invalidTiming(button: button.name, reason: "the click window, hold threshold and repeat interval must be positive")
            }
            if !(1...3).contains(timing.maxClicks) {
                throw .invalidTiming(button: button.name, reason: "maxClicks is \(timing.maxClicks), it must be 1, 2 or 3")
            }
            guard byName.updateValue(index, forKey: button.name) == nil else { throw .duplicateButton(button.name) }
            if let line = button.line, byLine.updateValue(index, forKey: line) != nil { throw .duplicateButton(button.name) }
        }
        self.buttons = buttons
        self.byName = byName
        self.byLine = byLine
        phases = Array(repeating: .idle, count: buttons.count)
        settled = Array(repeating: start, count: buttons.count)
        now = start
    }

    /// Whether the button is down (pressed or holding).
    public func isPressed(_ button: String) -> Bool {
        guard let index = byName[button] else { return false }
        switch phases[index] {
        case .down, .holding: return true
        case .idle, .up: return false
        }
    }

    /// The earliest time `advance(to:)` has something to report; nil when every button is idle.
    public var deadline: Timestamp? {
        phases.indices.compactMap { deadline(of: $0) }.min()
    }

    /// A debounced change of a button's line: pressed when it becomes active, at the burst's first edge.
    public mutating func handle(_ change: DebouncedChange) throws(GestureDecoderError) -> [ButtonGesture] {
        guard let index = byLine[change.line] else { throw .unknownButton("on line \(change.line)") }
        return try edge(index, pressed: change.active, at: change.timestamp)
    }

    public mutating func press(_ button: String, at timestamp: Timestamp) throws(GestureDecoderError) -> [ButtonGesture] {
        guard let index = byName[button] else { throw .unknownButton(button) }
        return try edge(index, pressed: true, at: timestamp)
    }

    public mutating func release(_ button: String, at timestamp: Timestamp) throws(GestureDecoderError) -> [ButtonGesture] {
        guard let index = byName[button] else { throw .unknownButton(button) }
        return try edge(index, pressed: false, at: timestamp)
    }

    /// Reports, in time order, every gesture decided by time up to and including `time`: closed click
    /// windows, holds reaching the threshold, hold repeats.
    public mutating func advance(to time: Timestamp) -> [ButtonGesture] {
        now = max(now, time)
        var fired: [ButtonGesture] = []
        for index in phases.indices { fired += due(index, until: now) }
        // Stable: simultaneous gestures keep the buttons' order.
        return fired.enumerated().sorted { ($0.element.timestamp, $0.offset) < ($1.element.timestamp, $1.offset) }
            .map(\.element)
    }

    // MARK: -

    private mutating func edge(_ index: Int, pressed: Bool, at timestamp: Timestamp) throws(GestureDecoderError) -> [ButtonGesture] {
        let name = buttons[index].name
        let timing = buttons[index].timing
        let isDown: Bool = switch phases[index] {
        case .down, .holding: true
        case .idle, .up: false
        }
        guard pressed != isDown else { throw .unexpectedEdge(button: name, pressed: pressed) }
        var fired = advance(to: timestamp)
        let time = max(timestamp, settled[index])
        settled[index] = time
        switch phases[index] {
        case .idle:
            phases[index] = .down(presses: 1, since: time)
        case .up(let clicks, _):
            phases[index] = .down(presses: clicks + 1, since: time)
        case .down(let presses, _):
            if presses >= timing.maxClicks {
                fired.append(ButtonGesture(button: name, gesture: .clicks(presses), timestamp: time))
                phases[index] = .idle
            } else {
                phases[index] = .up(clicks: presses, since: time)
            }
        case .holding(let presses, _):
            fired.append(ButtonGesture(button: name, gesture: .holdEnded(presses: presses), timestamp: time))
            phases[index] = .idle
        }
        return fired
    }

    private func deadline(of index: Int) -> Timestamp? {
        let timing = buttons[index].timing
        switch phases[index] {
        case .idle: return nil
        case .down(_, let since): return since + timing.holdThreshold
        case .up(_, let since): return since + timing.multiClickWindow
        case .holding(_, let next): return next
        }
    }

    private mutating func due(_ index: Int, until time: Timestamp) -> [ButtonGesture] {
        let name = buttons[index].name
        let timing = buttons[index].timing
        var fired: [ButtonGesture] = []
        while let deadline = deadline(of: index), deadline <= time {
            settled[index] = deadline
            switch phases[index] {
            case .idle:
                return fired
            case .up(let clicks, _):
                fired.append(ButtonGesture(button: name, gesture: .clicks(clicks), timestamp: deadline))
                phases[index] = .idle
            case .down(let presses, _):
                fired.append(ButtonGesture(button: name, gesture: .holdBegan(presses: presses), timestamp: deadline))
                phases[index] = .holding(presses: presses, nextRepeat: deadline + timing.repeatInterval)
            case .holding(let presses, _):
                fired.append(ButtonGesture(button: name, gesture: .holdRepeated(presses: presses), timestamp: deadline))
                phases[index] = .holding(presses: presses, nextRepeat: deadline + timing.repeatInterval)
            }
        }
        return fired
    }
}
