import Testing
@testable import HAL

/// Edges the kernel drops when a line's event queue is full, on the simulated twin (which queues and drops
/// like drivers/gpio/gpiolib-cdev.c) and through `GPIOEdgeGapCheck`, which the real request uses too.
///
/// Expected values come from the kernel: the queue holds 16 events for a one-line request (v2:
/// `linereq_create` sets event_buffer_size to num_lines * 16; v1: `DECLARE_KFIFO(events, struct
/// gpioevent_data, 16)` in `struct lineevent_state`); when it is full, v2's `linereq_put_event` skips the
/// oldest and queues the new event, v1's `lineevent_irq_thread` loses the new one (kfifo_in returns 0);
/// v2's `edge_irq_thread` numbers each line's events from 1 (`line->line_seqno++` before the event is put).
@Suite("GPIO event queue overflow")
struct EventQueueOverflowTests {
    typealias Events = SimulatedGPIOTests.Events

    final class Changes: @unchecked Sendable {
        private let condition = Condition()
        private var changes: [DebouncedChange] = []
        func append(_ change: DebouncedChange) { condition.locked { changes.append(change) } }
        var all: [DebouncedChange] { condition.locked { changes } }
    }

    static func ms(_ value: Int64) -> Timestamp { Timestamp(nanoseconds: value * 1_000_000) }

    static func board(_ clock: ManualClock, _ api: SimulatedGPIO.EventAPI) -> SimulatedGPIO {
        SimulatedGPIO(clock: clock, chips: [SimulatedGPIO.Chip(label: "sim", lineCount: 4)], eventAPI: api)
    }

    /// `count` edges 1 ms apart on a line that starts low: odd edges rise, even edges fall.
    static func toggle(_ gpio: SimulatedGPIO, _ line: GPIOLineID, count: Int) {
        for edge in 1...count {
            gpio.advance(by: .milliseconds(1))
            gpio.setLevel(line, to: edge % 2 == 1)
        }
    }

    @Test func aV2QueueKeepsTheNewest16AndTheGapIsReportedWithTheLevelReadAgain() throws {
        let clock = ManualClock()
        let gpio = Self.board(clock, .v2)
        let events = Events()
        let line = try gpio.requestInput(0, on: .label("sim"), GPIOInputConfig(bias: .pullDown, edges: .both),
                                         onEdge: { events.append($0) })
        gpio.stallReader()
        Self.toggle(gpio, line.id, count: 40)        // ends low
        #expect(gpio.queuedEvents(line.id) == 16)
        #expect(events.all.isEmpty)
        gpio.resumeReader()
        // Edges 25...40 survive (the oldest 24 were skipped), then the level read at the resume.
        let kept = (25...40).map { edge in
            GPIOEdgeEvent(line: line.id, edge: edge % 2 == 1 ? .rising : .falling, timestamp: Self.ms(Int64(edge)),
                          origin: .kernel(sequence: UInt64(edge)))
        }
        let reread = GPIOEdgeEvent(line: line.id, edge: .falling, timestamp: Self.ms(40), origin: .reread(lost: 24))
        #expect(events.all == kept + [reread])
        // After the resume the reader keeps up again: no gap, no re-read.
        gpio.advance(by: .milliseconds(5))
        gpio.setLevel(line.id, to: true)
        #expect(events.all.last == GPIOEdgeEvent(line: line.id, edge: .rising, timestamp: Self.ms(45),
                                                 origin: .kernel(sequence: 41)))
    }

    @Test func aFullV1QueueLosesTheNewestEdgesAndTheLevelIsReadAgainWhenItDisagrees() throws {
        let clock = ManualClock()
        let gpio = Self.board(clock, .v1)
        let events = Events()
        let line = try gpio.requestInput(0, on: .label("sim"), GPIOInputConfig(bias: .pullDown, edges: .both),
                                         onEdge: { events.append($0) })
        gpio.stallReader()
        Self.toggle(gpio, line.id, count: 41)        // ends high; the queue keeps edges 1...16, the last falling
        #expect(gpio.queuedEvents(line.id) == 16)
        gpio.resumeReader()
        let kept = (1...16).map { edge in
            GPIOEdgeEvent(line: line.id, edge: edge % 2 == 1 ? .rising : .falling, timestamp: Self.ms(Int64(edge)))
        }
        // No sequence numbers in v1: how many were lost is unknown.
        let reread = GPIOEdgeEvent(line: line.id, edge: .rising, timestamp: Self.ms(41), origin: .reread(lost: nil))
        #expect(events.all == kept + [reread])

        // A full queue whose last edge agrees with the level says nothing (it cannot tell a loss).
        gpio.stallReader()
        Self.toggle(gpio, line.id, count: 17)        // from high: edges 2...17 queue (16, none lost); ends high
        gpio.resumeReader()
        #expect(events.all.count == 17 + 16)
        #expect(events.all.last?.origin == .kernel(sequence: nil))
    }

    /// The defect: after lost edges the debounced level stayed at the last delivered edge's level although
    /// the line had moved on. With the level read again it follows the line.
    @Test(arguments: [SimulatedGPIO.EventAPI.v1, .v2])
    func theDebouncedLevelFollowsTheLineAfterLostEdges(api: SimulatedGPIO.EventAPI) throws {
        let clock = ManualClock()
        let gpio = Self.board(clock, api)
        let changes = Changes()
        let inputs = DebouncedInputs(clock: clock) { changes.append($0) }
        let button = try inputs.request(0, on: .label("sim"), from: gpio,
                                        DebouncedLineConfig(debounce: .milliseconds(20), bias: .pullDown))
        gpio.stallReader()
        Self.toggle(gpio, button.id, count: 41)      // a burst that ends high (active) at 41 ms
        gpio.advance(by: .milliseconds(100))         // the reader wakes late
        gpio.resumeReader()
        gpio.advance(by: .milliseconds(20))
        inputs.settle()
        #expect(inputs.level(of: button.id) == true, "the line is high; the debounced level must say so")
        #expect(changes.all.map(\.active) == [true])
    }

    /// The check itself, as `LinuxGPIORequest.readEvents` runs it: a sequence gap whose last delivered edge
    /// disagrees with the line's level.
    @Test func aSequenceGapAppendsTheLevelReadAgainWithTheLostCount() {
        let line = GPIOLineID(chip: "gpiochip0", offset: 3)
        var check = GPIOEdgeGapCheck()
        let events = UnsafeMutablePointer<GPIOEdgeEvent>.allocate(capacity: gpioEventSlots)
        defer { events.deallocate() }
        events.initialize(repeating: GPIOEdgeEvent(line: line, edge: .rising, timestamp: .zero), count: gpioEventSlots)
        defer { events.deinitialize(count: gpioEventSlots) }
        func batch(_ sequences: [UInt64], level: Bool, at now: Timestamp) -> [GPIOEdgeEvent] {
            for (index, sequence) in sequences.enumerated() {
                events[index] = GPIOEdgeEvent(line: line, edge: sequence % 2 == 1 ? .rising : .falling,
                                              timestamp: Self.ms(Int64(sequence)), origin: .kernel(sequence: sequence))
            }
            let count = check.finish(events, count: sequences.count, line: line, level: { level }, now: { now })
            return (0..<count).map { events[$0] }
        }
        #expect(batch([1, 2, 3], level: true, at: Self.ms(3)).count == 3, "no gap: nothing read again")
        // 4...19 lost; 20 says falling but the line is high.
        let after = batch([20], level: true, at: Self.ms(25))
        #expect(after.last == GPIOEdgeEvent(line: line, edge: .rising, timestamp: Self.ms(25), origin: .reread(lost: 16)))
        #expect(after.count == 2)
        // line_seqno is a __u32 (include/uapi/linux/gpio.h, struct gpio_v2_line_event): across the wrap,
        // 0xFFFFFFFF then 1 lost one edge (0).
        var wrapping = GPIOEdgeGapCheck()
        events[0] = GPIOEdgeEvent(line: line, edge: .rising, timestamp: .zero, origin: .kernel(sequence: 0xFFFF_FFFE))
        events[1] = GPIOEdgeEvent(line: line, edge: .falling, timestamp: .zero, origin: .kernel(sequence: 0xFFFF_FFFF))
        _ = wrapping.finish(events, count: 2, line: line, level: { false }, now: { .zero })
        events[0] = GPIOEdgeEvent(line: line, edge: .rising, timestamp: .zero, origin: .kernel(sequence: 1))
        #expect(wrapping.finish(events, count: 1, line: line, level: { true }, now: { .zero }) == 2)
        #expect(events[1].origin == .reread(lost: 1))
    }
}
