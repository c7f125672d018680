import Testing
@testable import HAL

@Suite("SimulatedGPIO")
struct SimulatedGPIOTests {
    final class Events: @unchecked Sendable {
        private let condition = Condition()
        private var events: [GPIOEdgeEvent] = []
        func append(_ event: GPIOEdgeEvent) { condition.locked { events.append(event) } }
        var all: [GPIOEdgeEvent] { condition.locked { events } }
    }

    static func board(clock: ManualClock = ManualClock()) -> SimulatedGPIO {
        SimulatedGPIO(clock: clock, chips: [
            SimulatedGPIO.Chip(label: "pinctrl-bcm2711", lineCount: 58, lineNames: [17: "BUTTON_PLAY", 27: "AMP_EN"]),
            SimulatedGPIO.Chip(label: "gpio-sim.0-node0", lineCount: 8),
        ])
    }

    static func ms(_ value: Int64) -> Timestamp { Timestamp(nanoseconds: value * 1_000_000) }

    @Test func chipsAreFoundByLabelPathOrName() throws {
        let gpio = Self.board()
        #expect(try gpio.chips().map(\.label) == ["pinctrl-bcm2711", "gpio-sim.0-node0"])
        #expect(try gpio.chip(.label("gpio-sim.0-node0")).name == "gpiochip1")
        #expect(try gpio.chip(.path("/dev/gpiochip0")).label == "pinctrl-bcm2711")
        #expect(try gpio.chip(GPIOChipSelector("gpiochip1")).lineCount == 8)
        let line = try gpio.requestInput(.name("BUTTON_PLAY"), on: .label("pinctrl-bcm2711"))
        #expect(line.id == GPIOLineID(chip: "gpiochip0", offset: 17))
        #expect(line.name == "BUTTON_PLAY")
    }

    @Test func biasDecidesAnUnconnectedInput() throws {
        let gpio = Self.board()
        let up = try gpio.requestInput(0, on: .name("gpiochip1"), GPIOInputConfig(bias: .pullUp))
        let down = try gpio.requestInput(1, on: .name("gpiochip1"), GPIOInputConfig(bias: .pullDown))
        let upLow = try gpio.requestInput(2, on: .name("gpiochip1"), GPIOInputConfig(bias: .pullUp, activeLow: true))
        #expect(try up.value() == true)
        #expect(try down.value() == false)
        #expect(try upLow.value() == false)      // pulled high, active-low: inactive
        #expect(gpio.level(upLow.id) == true)
        // As-is keeps the pull the last request left (gpio-sim keeps it too).
        up.release()
        let asIs = try gpio.requestInput(0, on: .name("gpiochip1"), GPIOInputConfig(bias: .asIs))
        #expect(try asIs.value() == true)
        // An outside drive beats the pull.
        gpio.setLevel(asIs.id, to: false)
        #expect(try asIs.value() == false)
        gpio.setLevel(asIs.id, to: nil)
        #expect(try asIs.value() == true)
    }

    @Test func outputsDriveTheLineAndReadBack() throws {
        let gpio = Self.board()
        let amp = try gpio.requestOutput(.name("AMP_EN"), on: .label("pinctrl-bcm2711"),
                                         GPIOOutputConfig(initialValue: true))
        #expect(gpio.level(amp.id) == true)
        #expect(try amp.value() == true)
        try amp.setValue(false)
        #expect(gpio.level(amp.id) == false)
        #expect(try amp.value() == false)
        let led = try gpio.requestOutput(3, on: .label("gpio-sim.0-node0"),
                                         GPIOOutputConfig(initialValue: true, activeLow: true))
        #expect(gpio.level(led.id) == false)     // active-low: on is low
        try led.setValue(false)
        #expect(gpio.level(led.id) == true)
        // An input refuses a value, as the kernel does.
        let input = try gpio.requestInput(4, on: .label("gpio-sim.0-node0")) as! any GPIOOutputLine
        #expect(throws: GPIOError.system(operation: "setting line 4", device: "/dev/gpiochip1", .notPermitted)) {
            try input.setValue(true)
        }
    }

    @Test func aRequestedLineIsBusyUntilReleased() throws {
        let gpio = Self.board()
        let id = GPIOLineID(chip: "gpiochip1", offset: 5)
        let first = try gpio.requestInput(5, on: .name("gpiochip1"), GPIOInputConfig(consumer: "jackd"))
        #expect(gpio.consumer(of: id) == "jackd")
        #expect(throws: GPIOError.lineBusy(id, consumer: "jackd")) {
            try gpio.requestOutput(5, on: .name("gpiochip1"), GPIOOutputConfig())
        }
        first.release()
        first.release()                                   // twice is harmless
        #expect(throws: GPIOError.released(id)) { try first.value() }
        let second = try gpio.requestOutput(5, on: .name("gpiochip1"), GPIOOutputConfig())
        #expect(gpio.consumer(of: id) == "appliance")
        _ = second
    }

    @Test func aDroppedRequestFreesItsLine() throws {
        let gpio = Self.board()
        do { _ = try gpio.requestInput(6, on: .name("gpiochip1")) }
        let again = try gpio.requestInput(6, on: .name("gpiochip1"))
        #expect(again.id.offset == 6)
    }

    @Test func missingChipsAndLinesGiveTypedErrors() throws {
        let gpio = Self.board()
        let chips = try gpio.chips()
        #expect(throws: GPIOError.chipNotFound(.label("pinctrl-rp1"), available: chips)) {
            try gpio.requestInput(0, on: .label("pinctrl-rp1"))
        }
        #expect(throws: GPIOError.chipNotFound(.path("/dev/gpiochip7"), available: chips)) {
            try gpio.requestInput(0, on: .path("/dev/gpiochip7"))
        }
        #expect(throws: GPIOError.lineOutOfRange(chip: chips[1], offset: 8)) {
            try gpio.requestInput(8, on: .name("gpiochip1"))
        }
        #expect(throws: GPIOError.lineNotFound(chip: chips[0], name: "VOLUME_UP")) {
            try gpio.requestOutput(.name("VOLUME_UP"), on: .name("gpiochip0"), GPIOOutputConfig())
        }
        let message = GPIOError.chipNotFound(.label("pinctrl-rp1"), available: chips).description
        #expect(message == "GPIO chip label 'pinctrl-rp1' not found. Chips present: gpiochip0 [pinctrl-bcm2711] "
            + "(58 lines), gpiochip1 [gpio-sim.0-node0] (8 lines). Name the chip by its label in the board file; "
            + "numbers change between kernels.")
    }

    @Test func inaccessibleChipsAndChipsWithoutPullsFailLikeTheKernel() throws {
        let gpio = SimulatedGPIO(clock: ManualClock(), chips: [
            SimulatedGPIO.Chip(label: "old", lineCount: 4, supportsBias: false),
            SimulatedGPIO.Chip(label: "locked", lineCount: 4, accessible: false),
        ])
        #expect(try gpio.chips().map(\.label) == ["old"])
        #expect(throws: GPIOError.permissionDenied(path: "/dev/gpiochip1")) {
            try gpio.requestInput(0, on: .label("locked"))
        }
        #expect(throws: GPIOError.permissionDenied(path: "/dev/gpiochip1")) {
            try gpio.requestInput(0, on: .name("gpiochip1"))
        }
        let id = GPIOLineID(chip: "gpiochip0", offset: 1)
        #expect(throws: GPIOError.unsupportedBias(id, .pullUp)) {
            try gpio.requestInput(1, on: .label("old"), GPIOInputConfig(bias: .pullUp))
        }
        _ = try gpio.requestInput(1, on: .label("old"), GPIOInputConfig(bias: .asIs))
    }

    @Test func edgesCarryTheClocksTimeAndHonourActiveLowAndDetection() throws {
        let clock = ManualClock(start: Self.ms(500))
        let gpio = Self.board(clock: clock)
        let events = Events()
        let both = try gpio.requestInput(0, on: .name("gpiochip1"),
                                         GPIOInputConfig(bias: .pullUp, activeLow: true, edges: .both),
                                         onEdge: { events.append($0) })
        let rising = try gpio.requestInput(1, on: .name("gpiochip1"), GPIOInputConfig(bias: .pullDown, edges: .rising),
                                           onEdge: { events.append($0) })
        gpio.setLevel(both.id, to: false)            // pulled-up active-low line grounded: a logical rising edge
        clock.advance(by: .milliseconds(7))
        gpio.setLevel(both.id, to: false)            // no change: no event
        gpio.setLevel(both.id, to: true)
        gpio.setLevel(rising.id, to: true)
        clock.advance(by: .milliseconds(1))
        gpio.setLevel(rising.id, to: false)          // falling: not asked for
        gpio.schedule(rising.id, level: true, at: Self.ms(600))
        gpio.advance(to: Self.ms(700))
        #expect(clock.now == Self.ms(700))
        // Sequence numbers count each line's events from 1 (drivers/gpio/gpiolib-cdev.c `edge_irq_thread`:
        // line_seqno is incremented before the first event is put).
        #expect(events.all == [
            GPIOEdgeEvent(line: both.id, edge: .rising, timestamp: Self.ms(500), origin: .kernel(sequence: 1)),
            GPIOEdgeEvent(line: both.id, edge: .falling, timestamp: Self.ms(507), origin: .kernel(sequence: 2)),
            GPIOEdgeEvent(line: rising.id, edge: .rising, timestamp: Self.ms(507), origin: .kernel(sequence: 1)),
            GPIOEdgeEvent(line: rising.id, edge: .rising, timestamp: Self.ms(600), origin: .kernel(sequence: 2)),
        ])
        // Without a handler there are no events, and a released line sends none.
        both.release()
        gpio.setLevel(both.id, to: false)
        #expect(events.all.count == 4)
    }

    @Test func aBouncingPressIsABurstOfEdgesAtTheGivenOffsets() throws {
        let clock = ManualClock(start: Self.ms(10))
        let gpio = Self.board(clock: clock)
        let events = Events()
        let button = try gpio.requestInput(.name("BUTTON_PLAY"), on: .label("pinctrl-bcm2711"),
                                           GPIOInputConfig(bias: .pullUp, activeLow: true, edges: .both),
                                           onEdge: { events.append($0) })
        gpio.press(button.id, bounce: [.microseconds(300), .microseconds(700), .milliseconds(2), .milliseconds(3)])
        #expect(gpio.level(button.id) == false)      // pressed to ground at once
        gpio.advance(by: .milliseconds(50))
        #expect(try button.value() == true)
        gpio.letGo(button.id, bounce: [.milliseconds(1), .milliseconds(2)])
        gpio.advance(by: .milliseconds(50))
        #expect(try button.value() == false)
        let edges = events.all.map { ($0.edge == .rising, $0.timestamp.nanoseconds) }
        let expected: [(Bool, Int64)] = [
            (true, 10_000_000), (false, 10_300_000), (true, 10_700_000), (false, 12_000_000), (true, 13_000_000),
            (false, 60_000_000), (true, 61_000_000), (false, 62_000_000),
        ]
        #expect(edges.map(\.0) == expected.map(\.0))
        #expect(edges.map(\.1) == expected.map(\.1))
    }
}
