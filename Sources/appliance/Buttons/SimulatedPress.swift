import Board
import HAL

/// How a person's finger makes a gesture on a button, as press and release times from the start: what
/// `button NAME click|double|triple|hold` plays on the simulated board. The times fit the button's own
/// debounce and gesture timings: a click is 100 ms down and clicks 150 ms apart (a brisk double click),
/// unless the board's timings need shorter or longer; a hold lasts past the hold threshold and three repeats.
struct SimulatedPress: Hashable, Sendable {
    /// (press, release) offsets from the start.
    var presses: [(down: Duration, up: Duration)]
    /// When the decoder will have decided the gesture, from the start: the window after the last release
    /// (the release itself for a hold), plus the debounce.
    var decidedAfter: Duration

    static func == (lhs: SimulatedPress, rhs: SimulatedPress) -> Bool {
        lhs.presses.map(\.down) == rhs.presses.map(\.down) && lhs.presses.map(\.up) == rhs.presses.map(\.up)
            && lhs.decidedAfter == rhs.decidedAfter
    }

    func hash(into hasher: inout Hasher) {
        for press in presses {
            hasher.combine(press.down)
            hasher.combine(press.up)
        }
        hasher.combine(decidedAfter)
    }

    init(_ gesture: SimulatedGesture, button: ButtonConfig, bounce: ContactBounce = .tactSwitch) {
        let debounce = Duration.milliseconds(button.input.debounceMilliseconds)
        let window = Duration.milliseconds(button.multiClickMilliseconds)
        let hold = Duration.milliseconds(button.holdMilliseconds)
        let repeatInterval = Duration.milliseconds(button.repeatMilliseconds)
        // A level must outlast its chatter and the debounce time to be seen at all.
        let seen = debounce + bounce.duration + .milliseconds(5)
        func pick(_ preferred: Duration, above low: Duration, below high: Duration) -> Duration {
            low < preferred && preferred < high ? preferred : (low + high) / 2
        }
        let down = pick(.milliseconds(100), above: seen, below: hold)
        let gap = pick(.milliseconds(150), above: seen, below: window)
        let count: Int
        switch gesture {
        case .click: count = 1
        case .double: count = 2
        case .triple: count = 3
        case .hold:
            let held = hold + repeatInterval * 3 + repeatInterval / 2
            presses = [(.zero, held)]
            decidedAfter = held + debounce + bounce.duration
            return
        }
        presses = (0..<count).map { index in
            let start = (down + gap) * index
            return (start, start + down)
        }
        decidedAfter = presses[count - 1].up + window + debounce + bounce.duration
    }
}
