import HAL
import Testing
@testable import Queue

/// Expected timings come from the decoder's stated rules and Android's published defaults
/// (AOSP ViewConfiguration.java: DEFAULT_MULTI_PRESS_TIMEOUT 300 ms measured from the up event to the next
/// down event, DEFAULT_LONG_PRESS_TIMEOUT 400 ms, DEFAULT_KEY_REPEAT_DELAY_MS 50 ms).
@Suite("Gesture decoder")
struct GestureDecoderTests {
    static func ms(_ value: Int64) -> Duration { .milliseconds(value) }
    static func at(_ ms: Int64, plusNanoseconds ns: Int64 = 0) -> Timestamp {
        Timestamp(nanoseconds: ms * 1_000_000 + ns)
    }
    static let window: Int64 = 300   // ViewConfiguration DEFAULT_MULTI_PRESS_TIMEOUT
    static let hold: Int64 = 400     // ViewConfiguration DEFAULT_LONG_PRESS_TIMEOUT (Android 12+)
    static let repeatEvery: Int64 = 50  // ViewConfiguration DEFAULT_KEY_REPEAT_DELAY_MS

    static func remote() throws -> GestureDecoder {
        try GestureDecoder(buttons: [RemoteButton(name: "remote"), RemoteButton(name: "up", timing: .singleClick)])
    }

    static func gesture(_ button: String, _ gesture: Gesture, _ time: Timestamp) -> ButtonGesture {
        ButtonGesture(button: button, gesture: gesture, timestamp: time)
    }

    @Test func theDefaultsAreAndroidsPublishedTimings() {
        let timing = GestureTiming.standard
        #expect(timing.multiClickWindow == Self.ms(Self.window))
        #expect(timing.holdThreshold == Self.ms(Self.hold))
        #expect(timing.repeatInterval == Self.ms(Self.repeatEvery))
        #expect(timing.maxClicks == 3)
    }

    @Test func aClickIsReportedWhenTheWindowClosesAndNotANanosecondBefore() throws {
        var decoder = try Self.remote()
        #expect(try decoder.press("remote", at: Self.at(0)).isEmpty)
        #expect(try decoder.release("remote", at: Self.at(100)).isEmpty)
        #expect(decoder.deadline == Self.at(100 + Self.window))
        #expect(decoder.advance(to: Self.at(100 + Self.window, plusNanoseconds: -1)).isEmpty)
        #expect(decoder.advance(to: Self.at(100 + Self.window)) == [Self.gesture("remote", .click, Self.at(400))])
        #expect(decoder.deadline == nil)
    }

    @Test func aSecondPressOneNanosecondInsideTheWindowMakesADoubleClick() throws {
        var decoder = try Self.remote()
        _ = try decoder.press("remote", at: Self.at(0))
        _ = try decoder.release("remote", at: Self.at(80))
        let second = Self.at(80 + Self.window, plusNanoseconds: -1)
        #expect(try decoder.press("remote", at: second).isEmpty)
        #expect(try decoder.release("remote", at: second + Self.ms(80)).isEmpty)
        let closes = second + Self.ms(80) + Self.ms(Self.window)
        #expect(decoder.advance(to: closes) == [Self.gesture("remote", .doubleClick, closes)])
    }

    @Test func aSecondPressExactlyAtTheWindowsEndStartsANewSequence() throws {
        var decoder = try Self.remote()
        _ = try decoder.press("remote", at: Self.at(0))
        _ = try decoder.release("remote", at: Self.at(80))
        // The window closed at release + 300 ms: the first click is reported by the press itself.
        let second = Self.at(80 + Self.window)
        #expect(try decoder.press("remote", at: second) == [Self.gesture("remote", .click, second)])
        _ = try decoder.release("remote", at: second + Self.ms(50))
        #expect(decoder.advance(to: Self.at(10_000)) == [Self.gesture("remote", .click, second + Self.ms(50 + Self.window))])
    }

    @Test func theThirdReleaseReportsATripleClickAtOnce() throws {
        var decoder = try Self.remote()
        for (press, release) in [(Int64(0), Int64(60)), (200, 260)] {
            _ = try decoder.press("remote", at: Self.at(press))
            _ = try decoder.release("remote", at: Self.at(release))
        }
        _ = try decoder.press("remote", at: Self.at(400))
        #expect(try decoder.release("remote", at: Self.at(460)) == [Self.gesture("remote", .tripleClick, Self.at(460))])
        #expect(decoder.deadline == nil)
    }

    @Test func aPressReleasedOneNanosecondBeforeTheThresholdIsAClick() throws {
        var decoder = try Self.remote()
        _ = try decoder.press("remote", at: Self.at(0))
        let release = Self.at(Self.hold, plusNanoseconds: -1)
        #expect(try decoder.release("remote", at: release).isEmpty)
        #expect(decoder.advance(to: Self.at(5000)) == [Self.gesture("remote", .click, release + Self.ms(Self.window))])
    }

    @Test func aPressHeldToTheThresholdIsAHoldEvenWhenTheReleaseComesFirst() throws {
        var decoder = try Self.remote()
        _ = try decoder.press("remote", at: Self.at(0))
        #expect(decoder.advance(to: Self.at(Self.hold, plusNanoseconds: -1)).isEmpty)
        // No tick at 400 ms: the release's timestamp still decides the hold first.
        #expect(try decoder.release("remote", at: Self.at(Self.hold)) == [
            Self.gesture("remote", .holdBegan(presses: 1), Self.at(Self.hold)),
            Self.gesture("remote", .holdEnded(presses: 1), Self.at(Self.hold)),
        ])
        #expect(decoder.advance(to: Self.at(5000)).isEmpty, "a hold counts no click")
    }

    @Test func holdRepeatsFollowTheIntervalToTheNanosecond() throws {
        var decoder = try Self.remote()
        _ = try decoder.press("remote", at: Self.at(0))
        #expect(decoder.advance(to: Self.at(Self.hold)) == [Self.gesture("remote", .holdBegan(presses: 1), Self.at(400))])
        #expect(decoder.advance(to: Self.at(Self.hold + Self.repeatEvery, plusNanoseconds: -1)).isEmpty)
        #expect(decoder.advance(to: Self.at(Self.hold + Self.repeatEvery)) == [
            Self.gesture("remote", .holdRepeated(presses: 1), Self.at(450))])
        // A late tick reports every repeat it passed, each at its own time.
        #expect(decoder.advance(to: Self.at(610)) == [500, 550, 600].map {
            Self.gesture("remote", .holdRepeated(presses: 1), Self.at($0)) })
        #expect(try decoder.release("remote", at: Self.at(620)) == [Self.gesture("remote", .holdEnded(presses: 1), Self.at(620))])
        #expect(decoder.deadline == nil)
    }

    @Test func aHoldAfterOneOrTwoClicksCarriesItsPressCount() throws {
        var decoder = try Self.remote()
        _ = try decoder.press("remote", at: Self.at(0))
        _ = try decoder.release("remote", at: Self.at(60))
        _ = try decoder.press("remote", at: Self.at(200))
        #expect(decoder.advance(to: Self.at(200 + Self.hold)) == [Self.gesture("remote", .holdBegan(presses: 2), Self.at(600))])
        #expect(try decoder.release("remote", at: Self.at(900)).last == Self.gesture("remote", .holdEnded(presses: 2), Self.at(900)))

        for (press, release) in [(Int64(2000), Int64(2060)), (2200, 2260)] {
            _ = try decoder.press("remote", at: Self.at(press))
            _ = try decoder.release("remote", at: Self.at(release))
        }
        _ = try decoder.press("remote", at: Self.at(2400))
        #expect(decoder.advance(to: Self.at(2800)) == [Self.gesture("remote", .holdBegan(presses: 3), Self.at(2800))])
    }

    @Test func aSingleClickButtonReportsOnReleaseWithoutWaiting() throws {
        var decoder = try Self.remote()
        _ = try decoder.press("up", at: Self.at(0))
        #expect(try decoder.release("up", at: Self.at(70)) == [Self.gesture("up", .click, Self.at(70))])
        // The next press right away is another click, not a double.
        _ = try decoder.press("up", at: Self.at(80))
        #expect(try decoder.release("up", at: Self.at(150)) == [Self.gesture("up", .click, Self.at(150))])
    }

    @Test func buttonsAreIndependentAndReportedInTimeOrder() throws {
        var decoder = try Self.remote()
        _ = try decoder.press("remote", at: Self.at(0))           // held: hold begins at 400
        _ = try decoder.press("up", at: Self.at(100))
        #expect(try decoder.release("up", at: Self.at(150)) == [Self.gesture("up", .click, Self.at(150))])
        _ = try decoder.press("up", at: Self.at(300))             // held too: hold begins at 700
        #expect(decoder.isPressed("remote") && decoder.isPressed("up"))
        #expect(decoder.advance(to: Self.at(760)) == [
            Self.gesture("remote", .holdBegan(presses: 1), Self.at(400)),
            Self.gesture("remote", .holdRepeated(presses: 1), Self.at(450)),
            Self.gesture("remote", .holdRepeated(presses: 1), Self.at(500)),
            Self.gesture("remote", .holdRepeated(presses: 1), Self.at(550)),
            Self.gesture("remote", .holdRepeated(presses: 1), Self.at(600)),
            Self.gesture("remote", .holdRepeated(presses: 1), Self.at(650)),
            Self.gesture("remote", .holdRepeated(presses: 1), Self.at(700)),
            Self.gesture("up", .holdBegan(presses: 1), Self.at(700)),
            Self.gesture("remote", .holdRepeated(presses: 1), Self.at(750)),
            Self.gesture("up", .holdRepeated(presses: 1), Self.at(750)),
        ])
        // Letting go of one leaves the other holding.
        #expect(try decoder.release("up", at: Self.at(770)) == [Self.gesture("up", .holdEnded(presses: 1), Self.at(770))])
        #expect(decoder.isPressed("remote") && !decoder.isPressed("up"))
        #expect(decoder.deadline == Self.at(800))
    }

    /// Debounced edges arrive late; they count at their own time unless the button already reported
    /// something later.
    @Test func aLateEdgeCountsAtItsTimeUnlessItsButtonMovedOn() throws {
        var decoder = try Self.remote()
        _ = try decoder.press("remote", at: Self.at(0))
        _ = try decoder.release("remote", at: Self.at(100))
        #expect(decoder.advance(to: Self.at(260)).isEmpty)
        _ = try decoder.press("remote", at: Self.at(240))        // reported after the tick at 260
        #expect(try decoder.release("remote", at: Self.at(300)).isEmpty)
        #expect(decoder.advance(to: Self.at(600)) == [Self.gesture("remote", .doubleClick, Self.at(600))])

        _ = try decoder.press("remote", at: Self.at(1000))
        #expect(decoder.advance(to: Self.at(1450)).count == 2)  // hold began at 1400, repeat at 1450
        // A release whose first edge was at 1380 but reported after the hold began ends the hold then.
        #expect(try decoder.release("remote", at: Self.at(1380)) == [Self.gesture("remote", .holdEnded(presses: 1), Self.at(1450))])
    }

    @Test func wrongEdgesAndConfigurationsAreTypedErrors() throws {
        var decoder = try Self.remote()
        #expect(throws: GestureDecoderError.unknownButton("menu")) { try decoder.press("menu", at: Self.at(0)) }
        #expect(throws: GestureDecoderError.unexpectedEdge(button: "remote", pressed: false)) {
            try decoder.release("remote", at: Self.at(0))
        }
        _ = try decoder.press("remote", at: Self.at(0))
        #expect(throws: GestureDecoderError.unexpectedEdge(button: "remote", pressed: true)) {
            try decoder.press("remote", at: Self.at(10))
        }
        #expect(decoder.isPressed("remote"), "a refused edge leaves the state as it was")
        #expect(throws: GestureDecoderError.duplicateButton("a")) {
            try GestureDecoder(buttons: [RemoteButton(name: "a"), RemoteButton(name: "a")])
        }
        #expect(throws: GestureDecoderError.self) {
            try GestureDecoder(buttons: [RemoteButton(name: "a", timing: GestureTiming(maxClicks: 4))])
        }
        #expect(throws: GestureDecoderError.self) {
            try GestureDecoder(buttons: [RemoteButton(name: "a", timing: GestureTiming(repeatInterval: .zero))])
        }
        #expect(GestureDecoderError.unknownButton("menu").description.contains("board file"))
    }
}
