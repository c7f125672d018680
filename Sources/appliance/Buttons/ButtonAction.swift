import Board
import HAL
import Queue

/// What the board's buttons and encoders asked for, delivered to the daemon on the control loop.
enum ButtonAction: Hashable, Sendable, CustomStringConvertible {
    /// A gesture that means a remote-control event on this board (the remote's double click: next track).
    case remote(RemoteControlEvent, ButtonGesture)
    /// A gesture made while the shift button was held, that the chord table gives a second function.
    case chord(ChordAction, ButtonGesture)
    /// Encoder detents: positive clockwise, at the edge that completed them.
    case encoder(name: String, role: EncoderRole, steps: Int, at: Timestamp)
    /// A gesture that means nothing here (a custom button, a shifted gesture without a chord), for
    /// `buttons monitor` and `EVENT button` lines.
    case gesture(ButtonGesture)

    var description: String {
        switch self {
        case .remote(let event, let gesture): "\(gesture.button) \(gesture.gesture) -> \(event)"
        case .chord(let action, let gesture): "shift + \(gesture.button) \(gesture.gesture) -> \(action)"
        case .encoder(let name, let role, let steps, _): "\(name) \(steps > 0 ? "+" : "")\(steps) (\(role))"
        case .gesture(let gesture): "\(gesture.button) \(gesture.gesture)"
        }
    }
}

/// The second functions a shift button gives: a small fixed table, like squeezelite-esp32's shifted
/// actions (shifter_gpio). Shift + the remote's click puts a marker in the recording.
enum ChordAction: String, Hashable, Sendable, CustomStringConvertible {
    case marker

    var description: String { rawValue }

    /// The chord a shifted gesture of a button with `role` makes, if any.
    static func chord(role: ButtonRole, gesture: Gesture) -> ChordAction? {
        switch (role, gesture) {
        case (.remote, .click): .marker
        default: nil
        }
    }
}

extension ButtonAction {
    /// The `EVENT button ...` line a console with `events on` sees: `EVENT button play double click -> nextTrack`,
    /// `EVENT button volume +1 (volume)`.
    var applianceEvent: ApplianceEvent { ApplianceEvent(.button, description) }
}
