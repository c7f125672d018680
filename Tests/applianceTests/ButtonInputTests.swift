import Board
import HAL
import Queue
import Testing
@testable import appliance

/// The simulated board's buttons through the whole path (simulated GPIO with contact bounce ->
/// `DebouncedInputs` -> `RemoteControlDecoder` -> chords -> the control loop), on a `ManualClock`.
///
/// Timings: the board file's (the simulated board uses the defaults, Android's ViewConfiguration: multi-click
/// window 300 ms, hold 400 ms, repeat 50 ms; 20 ms debounce). Bounce: a tact switch's 2-5 ms of chatter at
/// each edge (Omron B3F datasheet: "Bounce: 5 ms max."; Ganssle, "A Guide to Debouncing": about 1.6 ms on
/// average) — here `ContactBounce.tactSwitch`, six toggles over 3.6 ms. Meanings: Apple's headset remote
/// (click play/pause, double next, triple previous) and EarPods volume keys, as `RemoteControlMapping` cites.
@Suite("Buttons")
final class ButtonInputTests {
    let clock = ManualClock(start: .zero + .seconds(10))
    var received: [ButtonAction] = []

    func make(_ config: BoardConfig = SimulatedBoard.config) throws -> (ButtonInput, ControlLoop) {
        let gpio = try BoardGPIO(config: config, simulated: true, timing: .manual(clock))
        let loop = try ControlLoop(clock: clock)
        let buttons = try ButtonInput(config: config, gpio: gpio, loop: loop) { [unowned self] in received.append($0) }
        return (buttons, loop)
    }

    /// Moves time on in 1 ms steps to `time`, ticking and running the loop's posted work, as the daemon does.
    func run(_ buttons: ButtonInput, _ loop: ControlLoop, until time: Timestamp) {
        while clock.now < time {
            buttons.gpio.simulated?.advance(by: .milliseconds(1))
            buttons.tick(now: clock.now)
            loop.turn(maximumWait: .zero)
        }
    }

    /// A finger on the button: down at each `down` offset, up at each `up`, with tact-switch bounce.
    func press(_ buttons: ButtonInput, line: Int, at times: [(down: Int, up: Int)], from start: Timestamp) throws {
        for (down, up) in times {
            try buttons.gpio.drive(line: line, active: true, polarity: .low, at: start + .milliseconds(down), bounce: .tactSwitch)
            try buttons.gpio.drive(line: line, active: false, polarity: .low, at: start + .milliseconds(up), bounce: .tactSwitch)
        }
    }

    func gesture(_ button: String, _ gesture: Gesture, _ time: Timestamp) -> ButtonGesture {
        ButtonGesture(button: button, gesture: gesture, timestamp: time)
    }

    /// A double click: releases at 90 and 250 ms; the window closes 300 ms after the second release's first
    /// edge, and the gesture carries that time.
    @Test func aBouncingDoubleClickOfTheRemoteIsNextTrack() throws {
        let (buttons, loop) = try make()
        let start = clock.now
        try press(buttons, line: 17, at: [(0, 90), (160, 250)], from: start)
        run(buttons, loop, until: start + .milliseconds(549))
        #expect(received.isEmpty)
        run(buttons, loop, until: start + .milliseconds(600))
        #expect(received == [.remote(.nextTrack, gesture("play", .doubleClick, start + .milliseconds(550)))])
        #expect(received.first?.applianceEvent.line == "EVENT button play double click -> nextTrack")
    }

    @Test func clickAndTripleClickArePlayPauseAndPrevious() throws {
        let (buttons, loop) = try make()
        let start = clock.now
        try press(buttons, line: 17, at: [(0, 80)], from: start)
        try press(buttons, line: 17, at: [(1000, 1080), (1200, 1280), (1400, 1480)], from: start)
        run(buttons, loop, until: start + .milliseconds(2000))
        #expect(received == [
            .remote(.togglePlayPause, gesture("play", .click, start + .milliseconds(380))),
            // Three presses: the most counted, so reported at the third release, without waiting for the window.
            .remote(.previousTrack, gesture("play", .tripleClick, start + .milliseconds(1480))),
        ])
    }

    /// Held 575 ms: the hold begins 400 ms after the press and ends at the release; the board says
    /// `hold: seek`, so a plain hold seeks forward.
    @Test func holdingTheRemoteSeeksWhileHeld() throws {
        let (buttons, loop) = try make()
        let start = clock.now
        try press(buttons, line: 17, at: [(0, 575)], from: start)
        run(buttons, loop, until: start + .seconds(1))
        #expect(received.compactMap(\.remoteEvent)
                == [.beginSeekingForward, .endSeekingForward])
        #expect(received.first == .remote(.beginSeekingForward, gesture("play", .holdBegan(presses: 1), start + .milliseconds(400))))
        // Repeats every 50 ms from 450 ms while held mean nothing for the remote: reported as gestures.
        #expect(received.filter { $0 == .gesture(ButtonGesture(button: "play", gesture: .holdRepeated(presses: 1), timestamp: $0.timestamp)) }.count == 3)
    }

    @Test func onARecorderBoardHoldingTheRemoteRecords() throws {
        var config = SimulatedBoard.config
        config.holdAction = .record
        let (buttons, loop) = try make(config)
        let start = clock.now
        try press(buttons, line: 17, at: [(0, 500)], from: start)
        run(buttons, loop, until: start + .seconds(1))
        #expect(received.first == .remote(.toggleRecord, gesture("play", .holdBegan(presses: 1), start + .milliseconds(400))))
    }

    /// A volume key clicks on release (one click is all it counts); the record button toggles recording.
    @Test func volumeKeysAndTheRecordButtonClickOnRelease() throws {
        let (buttons, loop) = try make()
        let start = clock.now
        try press(buttons, line: 23, at: [(0, 80)], from: start)
        try press(buttons, line: 24, at: [(200, 280)], from: start)
        try press(buttons, line: 25, at: [(400, 480)], from: start)
        run(buttons, loop, until: start + .seconds(1))
        #expect(received == [
            .remote(.volumeUp, gesture("volume-up", .click, start + .milliseconds(80))),
            .remote(.volumeDown, gesture("volume-down", .click, start + .milliseconds(280))),
            .remote(.toggleRecord, gesture("record", .click, start + .milliseconds(480))),
        ])
    }

    /// A glitch (3 ms low, shorter than the 20 ms debounce) is no press.
    @Test func aGlitchShorterThanTheDebounceIsNothing() throws {
        let (buttons, loop) = try make()
        let start = clock.now
        try buttons.gpio.drive(line: 17, active: true, polarity: .low, at: start, bounce: .none)
        try buttons.gpio.drive(line: 17, active: false, polarity: .low, at: start + .milliseconds(3), bounce: .none)
        run(buttons, loop, until: start + .seconds(1))
        #expect(received.isEmpty)
    }

    /// Shift held (line 16) while the remote clicks: a marker, not play/pause; the shift's own click is
    /// reported as a plain gesture, and a remote click after shift is let go is play/pause again.
    @Test func shiftPlusRemoteClickIsAMarker() throws {
        let (buttons, loop) = try make()
        let start = clock.now
        try press(buttons, line: 16, at: [(0, 300)], from: start)
        try press(buttons, line: 17, at: [(100, 180)], from: start)
        try press(buttons, line: 17, at: [(1000, 1080)], from: start)
        run(buttons, loop, until: start + .seconds(2))
        #expect(received == [
            .gesture(gesture("shift", .click, start + .milliseconds(300))),
            .chord(.marker, gesture("play", .click, start + .milliseconds(480))),
            .remote(.togglePlayPause, gesture("play", .click, start + .milliseconds(1380))),
        ])
    }

    /// The encoder on lines 6 (A) and 13 (B), turned through the Gray-code cycle (Buxton: 00, 10, 11, 01, 00
    /// forward) with chatter on every edge: one detent per cycle, the sign from which line leads.
    @Test func encoderDetentsComeWithTheirDirection() throws {
        let (buttons, loop) = try make()
        let start = clock.now
        try buttons.simulateTurn(encoder: "volume", detents: 2)
        run(buttons, loop, until: start + .milliseconds(100))
        try buttons.simulateTurn(encoder: "volume", detents: -1)
        run(buttons, loop, until: start + .milliseconds(200))
        // Each detent at the edge that brings the lines back to rest (4 ms an edge: 16, 32 ms; back: 116 ms).
        #expect(received == [.encoder(name: "volume", role: .volume, steps: 1, at: start + .milliseconds(16)),
                             .encoder(name: "volume", role: .volume, steps: 1, at: start + .milliseconds(32)),
                             .encoder(name: "volume", role: .volume, steps: -1, at: start + .milliseconds(116))])
    }

    /// `button NAME click|double|triple|hold` presses the line with realistic timings: the same decoder
    /// decodes each to its gesture.
    @Test func simulatedGesturesDecodeToTheirNames() throws {
        let (buttons, loop) = try make()
        for (gesture, event) in [(SimulatedGesture.click, RemoteControlEvent.togglePlayPause), (.double, .nextTrack),
                                 (.triple, .previousTrack), (.hold, .beginSeekingForward)] {
            received = []
            let decided = try buttons.simulate(button: "play", gesture: gesture)
            run(buttons, loop, until: decided)
            #expect(received.first?.remoteEvent == event, "\(gesture)")
        }
        #expect(throws: ButtonInputError.unknownButton("pause", known: ["play", "volume-up", "volume-down", "record", "shift"])) {
            try buttons.simulate(button: "pause", gesture: .click)
        }
    }

    /// The board's default timings are the decoder's (both Android's ViewConfiguration values).
    @Test func theBoardDefaultsAreTheDecodersDefaults() {
        let standard = GestureTiming.standard
        #expect(standard.multiClickWindow == .milliseconds(ButtonConfig.defaultMultiClickMilliseconds))
        #expect(standard.holdThreshold == .milliseconds(ButtonConfig.defaultHoldMilliseconds))
        #expect(standard.repeatInterval == .milliseconds(ButtonConfig.defaultRepeatMilliseconds))
    }
}

extension ButtonAction {
    var remoteEvent: RemoteControlEvent? {
        if case .remote(let event, _) = self { return event }
        return nil
    }

    var timestamp: Timestamp {
        switch self {
        case .remote(_, let gesture), .chord(_, let gesture), .gesture(let gesture): gesture.timestamp
        case .encoder(_, _, _, let time): time
        }
    }
}

/// `appliance buttons monitor --simulate`, run as a user would.
@Suite("appliance buttons monitor")
struct ButtonsMonitorCommandTests {
    /// A double click of the remote (`play`) and a click of volume-up, played on the simulated board in real time.
    /// The script presses 100 ms and clicks 150 ms apart (SimulatedPress): play down at 0 and 250 ms, up at
    /// 100 and 350 ms. Each transition is the clean edge and the tact switch's six chatter toggles: 7 edges,
    /// 28 for a double click. The double click is decided when the 300 ms window after the second release
    /// closes (Android's multi-press timeout): 650 ms; it means next track (the headset remote's double
    /// click). The volume key clicks on its release.
    @Test func theSimulatedGesturesPrintTheirEdgesAndEvents() throws {
        let result = try ApplianceBinary.run(["buttons", "monitor", "--simulate", "play double, volume-up click, volume -1"])
        #expect(result.status == 0, "\(result.stderr)")
        let lines = result.stdout.split(separator: "\n").map(String.init)
        #expect(lines.first?.hasPrefix("board 'simulated' (simulated): play GPIO17 (remote)") == true)
        #expect(lines.filter { $0.contains("edge     GPIO17 play") }.count == 28)
        #expect(lines.contains("+0.000 ms     edge     GPIO17 play active"))
        #expect(lines.contains("+100.000 ms   edge     GPIO17 play inactive"))
        #expect(lines.contains("+650.000 ms   gesture  play double click -> nextTrack"))
        #expect(lines.filter { $0.contains("edge     GPIO23 volume-up") }.count == 14)
        #expect(lines.contains { $0.hasSuffix("gesture  volume-up click -> volumeUp") })
        #expect(lines.filter { $0.hasSuffix("encoder  volume -1 (volume)") }.count == 1)
    }

    @Test func aBadScriptOrARealBoardIsRefusedClearly() throws {
        let bad = try ApplianceBinary.run(["buttons", "monitor", "--simulate", "play twice"])
        #expect(bad.status != 0)
        #expect(bad.stderr.contains("'twice' is not a gesture"), "\(bad.stderr)")
        let unknown = try ApplianceBinary.run(["buttons", "monitor", "--simulate", "pause click"])
        #expect(unknown.status != 0)
        #expect(unknown.stderr.contains("no button 'pause' on this board: it has play, volume-up, volume-down, record, shift"),
                "\(unknown.stderr)")
    }
}
