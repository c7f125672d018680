import Board
import HAL
import Queue
import Synchronization

/// Which gestures are chords: a button's press sequence that began while the shift button was down counts
/// as shifted until its gesture ends (a click, or the end of a hold), whenever the shift button is let go.
final class ShiftChords: Sendable {
    let shift: String?
    private let roles: [String: ButtonRole]
    private let state = Mutex<(shiftDown: Bool, shifted: Set<String>)>((false, []))

    init(config: BoardConfig) {
        shift = config.shift
        roles = Dictionary(config.buttons.map { ($0.name, $0.role) }, uniquingKeysWith: { first, _ in first })
    }

    /// A debounced change of the button `name` (any thread, in order).
    func note(button name: String, pressed: Bool) {
        state.withLock { state in
            if name == shift {
                state.shiftDown = pressed
            } else if pressed, state.shiftDown {
                state.shifted.insert(name)
            }
        }
    }

    /// What a decoded gesture means, chords first.
    func action(for gesture: ButtonGesture, event: RemoteControlEvent?) -> ButtonAction {
        guard gesture.button != shift else { return .gesture(gesture) }
        let shifted = state.withLock { state in
            let shifted = state.shifted.contains(gesture.button)
            if shifted, gesture.gesture.endsSequence { state.shifted.remove(gesture.button) }
            return shifted
        }
        if shifted {
            guard let role = roles[gesture.button], let chord = ChordAction.chord(role: role, gesture: gesture.gesture) else {
                return .gesture(gesture)
            }
            return .chord(chord, gesture)
        }
        return event.map { .remote($0, gesture) } ?? .gesture(gesture)
    }
}

extension Gesture {
    /// Whether the button is back to idle after this gesture.
    var endsSequence: Bool {
        switch self {
        case .click, .doubleClick, .tripleClick, .holdEnded: true
        case .holdBegan, .holdRepeated: false
        }
    }
}
