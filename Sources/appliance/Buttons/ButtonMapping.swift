import Board
import HAL
import Queue

/// The board file's buttons as the gesture decoder and the remote-control table see them.
struct ButtonMapping {
    let buttons: [RemoteButton]
    let mapping: RemoteControlMapping
    /// The longest debounce time: how far the decoder stays behind the clock.
    let edgeDelay: Duration

    /// `lines` gives each button's line ID on the board's chip.
    init(config: BoardConfig, lineID: (Int) throws(BoardDeviceError) -> GPIOLineID) throws(BoardDeviceError) {
        var buttons: [RemoteButton] = []
        var mapping = RemoteControlMapping()
        for button in config.buttons {
            buttons.append(RemoteButton(name: button.name, line: try lineID(button.input.line),
                                        timing: Self.timing(button, shift: button.name == config.shift)))
            mapping = mapping.merging(Self.mapping(button, holdAction: config.holdAction))
        }
        self.buttons = buttons
        self.mapping = mapping
        edgeDelay = .milliseconds(config.buttons.map(\.input.debounceMilliseconds).max() ?? 0)
    }

    /// The board's timings; buttons that only click (volume keys, record, shift) report the click on
    /// release instead of waiting for a second one.
    static func timing(_ button: ButtonConfig, shift: Bool) -> GestureTiming {
        let clicksOnly = shift || [.volumeUp, .volumeDown, .record].contains(button.role)
        return GestureTiming(multiClickWindow: .milliseconds(button.multiClickMilliseconds),
                             holdThreshold: .milliseconds(button.holdMilliseconds),
                             repeatInterval: .milliseconds(button.repeatMilliseconds), maxClicks: clicksOnly ? 1 : 3)
    }

    /// Each role's table: the remote is a headset remote whose plain hold seeks forward (or toggles
    /// recording, on a board that says `hold: record`); volume keys step and repeat; record toggles.
    static func mapping(_ button: ButtonConfig, holdAction: HoldAction) -> RemoteControlMapping {
        let name = button.name
        switch button.role {
        case .remote:
            let hold: [RemoteControlMapping.Key: RemoteControlEvent] = switch holdAction {
            case .seek: [.init(button: name, gesture: .holdBegan(presses: 1)): .beginSeekingForward,
                         .init(button: name, gesture: .holdEnded(presses: 1)): .endSeekingForward]
            case .record: [.init(button: name, gesture: .holdBegan(presses: 1)): .toggleRecord]
            }
            return RemoteControlMapping.headsetRemote(button: name).merging(RemoteControlMapping(hold))
        case .volumeUp: return .volumeKey(button: name, up: true)
        case .volumeDown: return .volumeKey(button: name, up: false)
        case .record: return .recordButton(name)
        case .custom: return RemoteControlMapping()
        }
    }
}
