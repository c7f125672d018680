import HAL
import Testing
@testable import Queue

@Suite("Remote-control mapping")
struct RemoteControlMappingTests {
    static func gesture(_ button: String, _ gesture: Gesture) -> ButtonGesture {
        ButtonGesture(button: button, gesture: gesture, timestamp: .zero)
    }

    /// The EarPods centre button (tapsmart.com "controlling music playback via headphones": click
    /// play/pause, two clicks next, three previous, two-and-hold fast-forward until let go, three-and-hold
    /// rewind).
    @Test func theHeadsetRemoteMapsAsTheEarPodsRemote() {
        let mapping = RemoteControlMapping.headsetRemote(button: "remote")
        let expected: [(Gesture, RemoteControlEvent?)] = [
            (.click, .togglePlayPause), (.doubleClick, .nextTrack), (.tripleClick, .previousTrack),
            (.holdBegan(presses: 2), .beginSeekingForward), (.holdEnded(presses: 2), .endSeekingForward),
            (.holdBegan(presses: 3), .beginSeekingBackward), (.holdEnded(presses: 3), .endSeekingBackward),
            (.holdBegan(presses: 1), nil), (.holdRepeated(presses: 2), nil),
        ]
        for (gesture, event) in expected {
            #expect(mapping.event(for: Self.gesture("remote", gesture)) == event, "\(gesture)")
        }
        #expect(mapping.event(for: Self.gesture("other", .click)) == nil, "entries are per button")
    }

    /// EarPods +/- keys: one step per click, continuous while held (macmost.com "iOS EarPods Controls").
    @Test func boardTablesCombineButtonPresets() {
        let mapping = RemoteControlMapping.headsetRemote(button: "remote")
            .merging(.volumeKey(button: "volume-up", up: true))
            .merging(.volumeKey(button: "volume-down", up: false))
            .merging(.recordButton("record"))
        #expect(mapping.table.count == 7 + 3 + 3 + 1)
        #expect(mapping.event(for: Self.gesture("volume-up", .click)) == .volumeUp)
        #expect(mapping.event(for: Self.gesture("volume-up", .holdRepeated(presses: 1))) == .volumeUp)
        #expect(mapping.event(for: Self.gesture("volume-down", .holdBegan(presses: 1))) == .volumeDown)
        #expect(mapping.event(for: Self.gesture("volume-down", .holdEnded(presses: 1))) == nil)
        #expect(mapping.event(for: Self.gesture("record", .click)) == .toggleRecord)
        // A board file can override one entry.
        let custom = mapping.merging(RemoteControlMapping([.init(button: "record", gesture: .click): .stop]))
        #expect(custom.event(for: Self.gesture("record", .click)) == .stop)
    }

    @Test func everyEventTheIssueNamesExists() {
        // Issue 12 deliverable 7's list, in its order.
        #expect(RemoteControlEvent.allCases.map(\.rawValue) == [
            "togglePlayPause", "play", "pause", "stop", "nextTrack", "previousTrack", "beginSeekingForward",
            "endSeekingForward", "beginSeekingBackward", "endSeekingBackward", "toggleRecord", "volumeUp", "volumeDown",
        ])
    }
}
