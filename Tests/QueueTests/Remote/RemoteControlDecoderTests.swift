import HAL
import Synchronization
import Testing
@testable import Queue

/// The whole path on the simulated board: GPIO edges with contact bounce -> HAL `DebouncedInputs` ->
/// `RemoteControlDecoder` -> events, timed by a `ManualClock`.
@Suite("Remote-control decoder")
struct RemoteControlDecoderTests {
    final class Received: Sendable {
        private let items = Mutex<[(ButtonGesture, RemoteControlEvent?)]>([])
        func append(_ gesture: ButtonGesture, _ event: RemoteControlEvent?) { items.withLock { $0.append((gesture, event)) } }
        var events: [RemoteControlEvent?] { items.withLock { $0.map(\.1) } }
        var gestures: [ButtonGesture] { items.withLock { $0.map(\.0) } }
    }

    static func ms(_ value: Int64) -> Duration { .milliseconds(value) }
    static let line = GPIOLineID(chip: "gpiochip0", offset: 17)

    @Test func aBouncingDoublePressAndHoldSeeksForwardFromTheFirstEdges() throws {
        let clock = ManualClock()
        let gpio = SimulatedGPIO(clock: clock, chips: [SimulatedGPIO.Chip(label: "pinctrl-bcm2711", lineCount: 58)])
        let received = Received()
        let debounce = Self.ms(20)   // ButtonConfig.defaultDebounceMilliseconds
        let remote = try RemoteControlDecoder(
            buttons: [RemoteButton(name: "remote", line: Self.line)], mapping: .headsetRemote(button: "remote"),
            edgeDelay: debounce, clock: clock) { received.append($0, $1) }
        let inputs = DebouncedInputs(clock: clock) { remote.handle($0) }
        let requested = try inputs.request(17, on: .label("pinctrl-bcm2711"), from: gpio,
                                           DebouncedLineConfig(debounce: debounce, activeLow: true, bias: .pullUp))
        defer { _ = requested }   // keeps the line's events coming
        func run(until offset: Duration, from start: Timestamp) {
            // Tick every millisecond, as a control loop would.
            while clock.now < start + offset {
                gpio.advance(by: Self.ms(1))
                inputs.settle()
                remote.tick()
            }
        }
        let start = clock.now
        gpio.press(Self.line, bounce: [Self.ms(1), Self.ms(3)])
        run(until: Self.ms(100), from: start)
        gpio.letGo(Self.line, bounce: [Self.ms(2), Self.ms(4)])      // released at 100 ms
        run(until: Self.ms(250), from: start)
        gpio.press(Self.line, bounce: [Self.ms(1), Self.ms(2)])      // second press at 250 ms, held
        run(until: Self.ms(250 + 400 + 25), from: start)
        // Hold began 400 ms (Android's long-press timeout) after the second press's first edge.
        #expect(received.gestures == [ButtonGesture(button: "remote", gesture: .holdBegan(presses: 2), timestamp: start + Self.ms(650))])
        #expect(received.events == [.beginSeekingForward])
        gpio.letGo(Self.line)
        run(until: Self.ms(1000), from: start)
        // Let go at 675 ms (first edge): no repeat was due before it (the first would be at 700 ms).
        #expect(received.gestures == [
            ButtonGesture(button: "remote", gesture: .holdBegan(presses: 2), timestamp: start + Self.ms(650)),
            ButtonGesture(button: "remote", gesture: .holdEnded(presses: 2), timestamp: start + Self.ms(675)),
        ])
        #expect(received.events == [.beginSeekingForward, .endSeekingForward])
        #expect(remote.rejectedEdges == 0)
    }
}
