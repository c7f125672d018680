/// Which remote-control event each (button, gesture) means on a board: a table, built from the presets
/// below for the board's buttons, that the appliance consults for every decoded gesture. Gestures with
/// no entry mean nothing (a hold of a plain click button, say).
public struct RemoteControlMapping: Hashable, Sendable, CustomStringConvertible {
    public struct Key: Hashable, Sendable {
        public var button: String
        public var gesture: Gesture

        public init(button: String, gesture: Gesture) {
            self.button = button
            self.gesture = gesture
        }
    }

    public private(set) var table: [Key: RemoteControlEvent]

    public init(_ table: [Key: RemoteControlEvent] = [:]) {
        self.table = table
    }

    /// The event a gesture means, if any.
    public func event(for gesture: ButtonGesture) -> RemoteControlEvent? {
        table[Key(button: gesture.button, gesture: gesture.gesture)]
    }

    /// This table with `other`'s entries added (the other's win where both name the same key).
    public func merging(_ other: RemoteControlMapping) -> RemoteControlMapping {
        RemoteControlMapping(table.merging(other.table) { _, new in new })
    }

    private static func entries(_ button: String, _ rows: [(Gesture, RemoteControlEvent)]) -> RemoteControlMapping {
        RemoteControlMapping(Dictionary(uniqueKeysWithValues: rows.map { (Key(button: button, gesture: $0.0), $0.1) }))
    }

    /// A headset remote's centre button, as Apple's EarPods remote: click play/pause, double click next,
    /// triple click previous, press-then-press-and-hold seeks forward until let go, two presses then
    /// press-and-hold seeks backward (tapsmart.com "Guide: controlling music playback via headphones":
    /// "quickly click twice and hold on the second press, the song will fast-forward until you let go ...
    /// three times and held on the third press, then the song will rewind").
    public static func headsetRemote(button: String) -> RemoteControlMapping {
        entries(button, [
            (.click, .togglePlayPause),
            (.doubleClick, .nextTrack),
            (.tripleClick, .previousTrack),
            (.holdBegan(presses: 2), .beginSeekingForward),
            (.holdEnded(presses: 2), .endSeekingForward),
            (.holdBegan(presses: 3), .beginSeekingBackward),
            (.holdEnded(presses: 3), .endSeekingBackward),
        ])
    }

    /// A volume key: a click is one step, holding it steps once when the hold begins and on every repeat
    /// (the EarPods' +/- keys: "press and hold them and it will raise and lower the volume continuously",
    /// macmost.com "iOS EarPods Controls").
    public static func volumeKey(button: String, up: Bool) -> RemoteControlMapping {
        let event: RemoteControlEvent = up ? .volumeUp : .volumeDown
        return entries(button, [(.click, event), (.holdBegan(presses: 1), event), (.holdRepeated(presses: 1), event)])
    }

    /// A record button: a click toggles recording.
    public static func recordButton(_ button: String) -> RemoteControlMapping {
        entries(button, [(.click, .toggleRecord)])
    }

    public var description: String {
        table.map { "\($0.key.button) \($0.key.gesture) -> \($0.value)" }.sorted().joined(separator: "\n")
    }
}
