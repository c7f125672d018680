import HAL
import Synchronization
import Testing
@testable import Queue

/// Route changes fed by the real HAL jack detection (`JackDetector` -> `JackStateMachine`, debounced
/// GPIO lines with contact bounce on the simulated board, timed by a `ManualClock`).
/// Expected: shared/reference/core-audio-iphone-2008.md 1.14 and behaviours 1, 2, 4, 5 (one route change per
/// physical change; unplug: "old device unavailable", previous route headphones, current speaker; plug:
/// "new device available", previous speaker), core-audio-2013-2015.md 1.2 (input selection follows mic
/// detection, a preferred input can pin one).
@Suite("Session routes")
struct SessionRouteTests {
    typealias F = SessionFixture

    final class Performed: Sendable {
        private let items = Mutex<[SessionAction]>([])
        func append(_ action: SessionAction) { items.withLock { $0.append(action) } }
        func take() -> [SessionAction] { items.withLock { let all = $0; $0 = []; return all } }
    }

    static func ms(_ value: Int64) -> Duration { .milliseconds(value) }
    static let plugLine = GPIOLineID(chip: "gpiochip0", offset: 6)
    static let micLine = GPIOLineID(chip: "gpiochip0", offset: 7)

    /// The simulated board's jack: switch to ground on GPIO6 (active low, pulled up), mic comparator on GPIO7,
    /// 20 ms debounce each, the headset decision 150 ms after the plug (HAL defaults).
    static func sensing(microphone: Bool) -> JackSensing {
        let chip = GPIOChipSelector.label("pinctrl-bcm2711")
        return JackSensing(
            plug: .gpio(chip: chip, line: 6, DebouncedLineConfig(debounce: ms(20), activeLow: true, bias: .pullUp)),
            microphone: microphone ? .gpio(chip: chip, line: 7, DebouncedLineConfig(debounce: ms(20), bias: .pullDown)) : nil)
    }

    /// Runs the clock forward a millisecond at a time, ticking the detector as its control loop would.
    static func run(_ gpio: SimulatedGPIO, _ detector: JackDetector, for duration: Duration) throws {
        let end = detector.clock.now + duration
        while detector.clock.now < end {
            gpio.advance(by: ms(1))
            try detector.tick()
        }
    }

    @Test func unpluggingBouncingHeadphonesGivesExactlyOneOldDeviceUnavailable() throws {
        let clock = ManualClock()
        let gpio = SimulatedGPIO(clock: clock, chips: [SimulatedGPIO.Chip(label: "pinctrl-bcm2711", lineCount: 58)])
        let performed = Performed()
        var coordinator = F.coordinator()
        try coordinator.register("player", category: .playback)
        _ = try coordinator.setActive("player", true)
        let manager = AudioSessionManager(coordinator) { performed.append($0) }
        let detector = try JackDetector(sensing: Self.sensing(microphone: false), gpio: gpio, clock: clock) {
            manager.jackChanged($0)
        }

        // Plugged in, the switch bouncing four times over 7 ms.
        gpio.press(Self.plugLine, bounce: [Self.ms(1), Self.ms(3), Self.ms(4), Self.ms(7)])
        try Self.run(gpio, detector, for: Self.ms(200))
        let plugged = performed.take()
        // Behaviour 2: "new device available", previous route speaker; the codec is re-routed first.
        #expect(plugged == [.setRoute(F.headphones),
                            .notify("player", .routeChanged(RouteChange(reason: .newDeviceAvailable, previousRoute: F.speaker)))])
        #expect(manager.coordinator.currentRoute == F.headphones)

        // Pulled, bouncing twice.
        gpio.letGo(Self.plugLine, bounce: [Self.ms(2), Self.ms(5)])
        try Self.run(gpio, detector, for: Self.ms(200))
        let pulled = performed.take()
        // Behaviours 1 and 5: exactly one route change, "old device unavailable", previous route headphones.
        #expect(F.routeChanges(pulled, to: "player") == [RouteChange(reason: .oldDeviceUnavailable, previousRoute: F.headphones)])
        #expect(pulled.first == .setRoute(F.speaker))
        #expect(manager.coordinator.currentRoute == F.speaker)
        #expect(pulled.count == 2)
        // The reference player policy pauses on exactly this change, and not on the plug-in.
        #expect(F.routeChanges(pulled, to: "player").first?.pulledHeadphones(current: F.speaker) == true)
        #expect(F.routeChanges(plugged, to: "player").first?.pulledHeadphones(current: F.headphones) == false)
    }

    @Test func aHeadsetBringsItsMicrophoneAndTheRecorderFollowsIt() throws {
        let clock = ManualClock()
        let gpio = SimulatedGPIO(clock: clock, chips: [SimulatedGPIO.Chip(label: "pinctrl-bcm2711", lineCount: 58)])
        let performed = Performed()
        var coordinator = F.coordinator()
        try coordinator.register("recorder", category: .record)
        _ = try coordinator.setActive("recorder", true)
        #expect(coordinator.currentRoute == AudioRoute(outputs: [.speaker], inputs: [.microphone]))
        let manager = AudioSessionManager(coordinator) { performed.append($0) }
        let detector = try JackDetector(sensing: Self.sensing(microphone: true), gpio: gpio, clock: clock) {
            manager.jackChanged($0)
        }
        // A headset: the plug switch, then the mic ring 30 ms later, bouncing once.
        let start = clock.now
        gpio.press(Self.plugLine, bounce: [Self.ms(1), Self.ms(3)])
        gpio.schedule(Self.micLine, level: true, at: start + Self.ms(30))
        gpio.schedule(Self.micLine, level: false, at: start + Self.ms(31))
        gpio.schedule(Self.micLine, level: true, at: start + Self.ms(33))
        try Self.run(gpio, detector, for: Self.ms(400))
        let plugged = performed.take()
        let before = AudioRoute(outputs: [.speaker], inputs: [.microphone])
        let after = AudioRoute(outputs: [.headphones], inputs: [.headsetMicrophone])
        // One change for the whole insertion (behaviour 5), the input now the headset's (behaviour 4).
        #expect(F.routeChanges(plugged, to: "recorder") == [RouteChange(reason: .newDeviceAvailable, previousRoute: before)])
        #expect(plugged.contains(.setRoute(after)))
        #expect(manager.coordinator.availableInputs == [.microphone, .line, .headsetMicrophone])

        // The microphone drops while the plug stays (a mic through an adapter): the input falls back.
        gpio.setLevel(Self.micLine, to: false)
        try Self.run(gpio, detector, for: Self.ms(100))
        let dropped = performed.take()
        #expect(F.routeChanges(dropped, to: "recorder") == [RouteChange(reason: .oldDeviceUnavailable, previousRoute: after)])
        #expect(manager.coordinator.currentRoute == AudioRoute(outputs: [.headphones], inputs: [.microphone]))
        #expect(manager.coordinator.availableInputs == [.microphone, .line])
        #expect(F.routeChanges(dropped, to: "recorder").first?.pulledHeadphones(current: manager.coordinator.currentRoute) == false,
                "the headphones are still in")
    }

    static func headsetEvent(_ state: JackState, from previous: JackState) -> JackEvent {
        JackEvent(timestamp: .zero, state: state, previous: previous)
    }

    @Test func aPreferredInputThatDisappearsFallsBackAndReturns() throws {
        var c = F.coordinator(jack: .headset)
        try c.register("recorder", category: .record)
        #expect(throws: SessionError.inputUnavailable(.headsetMicrophone)) {
            var other = F.coordinator()
            try other.register("r", category: .record)
            _ = try other.setPreferredInput("r", .headsetMicrophone)
        }
        _ = try c.setPreferredInput("recorder", .line)
        _ = try c.setActive("recorder", true)
        // The preference pins line in though a headset is in.
        #expect(c.currentRoute == AudioRoute(outputs: [.headphones], inputs: [.line]))
        let chosen = try c.setPreferredInput("recorder", .headsetMicrophone)
        #expect(F.routeChanges(chosen, to: "recorder") == [RouteChange(reason: .override, previousRoute: AudioRoute(outputs: [.headphones], inputs: [.line]))])
        // Pulled: one change, and the input falls back to the board's microphone.
        let pulled = c.jackChanged(Self.headsetEvent(.unplugged, from: .headset))
        #expect(F.routeChanges(pulled, to: "recorder") == [RouteChange(reason: .oldDeviceUnavailable,
                                                                       previousRoute: AudioRoute(outputs: [.headphones], inputs: [.headsetMicrophone]))])
        #expect(c.currentRoute == AudioRoute(outputs: [.speaker], inputs: [.microphone]))
        // Back in: the preference applies again.
        _ = c.jackChanged(Self.headsetEvent(.headset, from: .unplugged))
        #expect(c.currentRoute == AudioRoute(outputs: [.headphones], inputs: [.headsetMicrophone]))
    }

    @Test func speakerOverrideAndCategoryChangesAreTheirOwnReasons() throws {
        var c = F.coordinator(jack: .headphones)
        try c.register("player", category: .playback)
        try c.register("recorder", category: .record)
        _ = try c.setActive("player", true)
        let forced = try c.overrideOutputToSpeaker("player", true)
        #expect(forced.first == .setRoute(F.speaker))
        #expect(F.routeChanges(forced, to: "player") == [RouteChange(reason: .override, previousRoute: F.headphones)])
        // Unplugging with the speaker forced changes nothing audible, but it is still one physical change.
        let pulled = c.jackChanged(Self.headsetEvent(.unplugged, from: .headphones))
        #expect(F.routeChanges(pulled, to: "player") == [RouteChange(reason: .oldDeviceUnavailable, previousRoute: F.speaker)])
        #expect(!pulled.contains { if case .setRoute = $0 { true } else { false } })
        // The recorder's activation opens the capture path: the route gains an input.
        let recording = try c.setActive("recorder", true)
        #expect(F.routeChanges(recording, to: "recorder") == [RouteChange(reason: .categoryChange, previousRoute: F.speaker)])
        #expect(c.currentRoute == AudioRoute(outputs: [.speaker], inputs: [.microphone]))
    }

    @Test func wakingFromSleepReappliesTheCodecAndReportsAChangedRoute() throws {
        var c = F.coordinator()
        try c.register("player", category: .playback)
        // Same route: the codec is set up again, nobody is told.
        #expect(c.wokeFromSleep(jack: .unplugged) == [.applyHardware(F.initial), .setRoute(F.speaker)])
        // Headphones plugged while asleep.
        let woke = c.wokeFromSleep(jack: .headphones)
        #expect(woke == [.applyHardware(F.initial), .setRoute(F.headphones),
                         .notify("player", .routeChanged(RouteChange(reason: .wakeFromSleep, previousRoute: F.speaker)))])
    }

    @Test func aBoardWithoutASpeakerFallsBackToItsLineOut() throws {
        var c = SessionCoordinator(capabilities: HardwareCapabilities(output: F.codec), builtInInputs: [], mainOutput: .line,
                                   hardware: F.initial, jack: .headphones)
        try c.register("player", category: .playback)
        let pulled = c.jackChanged(Self.headsetEvent(.unplugged, from: .headphones))
        #expect(pulled.first == .setRoute(AudioRoute(outputs: [.line])))
        #expect(F.routeChanges(pulled, to: "player") == [RouteChange(reason: .oldDeviceUnavailable, previousRoute: F.headphones)])
    }

    @Test func aJackEventThatChangesNothingAvailableIsNoRouteChange() {
        var c = F.coordinator(jack: .headphones)
        #expect(c.jackChanged(Self.headsetEvent(.headphones, from: .headphones)) == [])
    }
}
