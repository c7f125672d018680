import Codec8_24
import Foundation
import Testing
@testable import HAL

@Suite("Debouncer")
struct DebouncerTests {
    static let line = GPIOLineID(chip: "gpiochip0", offset: 17)

    static func ms(_ value: Double) -> Timestamp { Timestamp(nanoseconds: Int64(value * 1_000_000)) }

    /// Feeds alternating edges (starting with `first`) at `times` and settles once, long after.
    static func run(time: Duration, level: Bool, first: Bool, times: [Timestamp],
                    settleAt: Timestamp) -> [DebouncedChange] {
        var debouncer = Debouncer(line: line, time: time, level: level)
        var changes: [DebouncedChange] = []
        var raw = first
        for t in times {
            if let change = debouncer.edge(to: raw, at: t) { changes.append(change) }
            raw.toggle()
        }
        if let change = debouncer.settle(at: settleAt) { changes.append(change) }
        return changes
    }

    @Test(arguments: [
        // (debounce ms, edge times ms): odd counts end on the new level; all gaps shorter than the debounce.
        (5.0, [10.0]),
        (5.0, [10.0, 10.2, 10.9, 11.3, 14.0]),
        (20.0, [100.0, 101.0, 103.0, 106.0, 110.0, 115.0, 121.0]),
        (50.0, [0.5, 49.0, 98.0]),
        (30.0, [7.0, 7.001, 7.002, 7.003, 7.004, 7.005, 7.006, 7.007, 7.008, 7.009, 7.010]),
    ])
    func aBounceBurstGivesExactlyOneChange(debounceMs: Double, edgesMs: [Double]) throws {
        let time = Duration.microseconds(Int64(debounceMs * 1000))
        let times = edgesMs.map(Self.ms)
        let last = times.last!
        var debouncer = Debouncer(line: Self.line, time: time, level: false)
        var raw = true
        for t in times {
            let early = debouncer.edge(to: raw, at: t)
            #expect(early == nil)
            raw.toggle()
        }
        #expect(debouncer.deadline == last + time)
        // One nanosecond before the level has held for the debounce time: nothing yet.
        let tooSoon = debouncer.settle(at: last + time - .nanoseconds(1))
        #expect(tooSoon == nil)
        let settled = debouncer.settle(at: last + time)
        let change = try #require(settled)
        #expect(change == DebouncedChange(line: Self.line, active: true, timestamp: times[0], lastEdge: last))
        #expect(debouncer.level == true)
        #expect(debouncer.deadline == nil)
        let again = debouncer.settle(at: last + .seconds(10))
        #expect(again == nil)
    }

    @Test func aGlitchShorterThanTheDebounceIsIgnored() {
        let time = Duration.milliseconds(10)
        // High for 9.999 ms, then back: nothing reported, however long we wait.
        let glitch = Self.run(time: time, level: false, first: true,
                              times: [Self.ms(5), Self.ms(5) + .microseconds(9_999)], settleAt: Self.ms(1000))
        #expect(glitch.isEmpty)
        // A burst of glitches (even count: returns to the old level) likewise.
        let burst = Self.run(time: time, level: false, first: true,
                             times: [1, 2, 4, 7, 11, 16].map(Self.ms), settleAt: Self.ms(1000))
        #expect(burst.isEmpty)
    }

    @Test func aPulseAsLongAsTheDebounceIsReportedBothWays() {
        let time = Duration.milliseconds(10)
        let changes = Self.run(time: time, level: false, first: true, times: [Self.ms(5), Self.ms(15)],
                               settleAt: Self.ms(25))
        #expect(changes == [
            DebouncedChange(line: Self.line, active: true, timestamp: Self.ms(5), lastEdge: Self.ms(5)),
            DebouncedChange(line: Self.line, active: false, timestamp: Self.ms(15), lastEdge: Self.ms(15)),
        ])
    }

    @Test func pressAndReleaseWithBounceGiveTwoChangesWithTheirFirstEdges() {
        let time = Duration.milliseconds(20)
        // Press at 100 ms bouncing for 6 ms, held 300 ms, release at 400 ms bouncing for 3 ms.
        let press: [Double] = [100, 101, 102.5, 104, 106]
        let release: [Double] = [400, 401, 403]
        let changes = Self.run(time: time, level: false, first: true, times: (press + release).map(Self.ms),
                               settleAt: Self.ms(1000))
        #expect(changes == [
            DebouncedChange(line: Self.line, active: true, timestamp: Self.ms(100), lastEdge: Self.ms(106)),
            DebouncedChange(line: Self.line, active: false, timestamp: Self.ms(400), lastEdge: Self.ms(403)),
        ])
    }

    @Test func aRepeatedEdgeRestartsTheWait() throws {
        // Two rising edges in a row (a falling one was lost): the level must hold from the second.
        var debouncer = Debouncer(line: Self.line, time: .milliseconds(10), level: false)
        _ = debouncer.edge(to: true, at: Self.ms(0))
        _ = debouncer.edge(to: true, at: Self.ms(8))
        let tooSoon = debouncer.settle(at: Self.ms(12))
        #expect(tooSoon == nil)
        let settled = debouncer.settle(at: Self.ms(18))
        let change = try #require(settled)
        #expect(change.timestamp == Self.ms(0))
        #expect(change.lastEdge == Self.ms(8))
    }

    @Test func zeroDebounceReportsEveryEdge() {
        let changes = Self.run(time: .zero, level: true, first: false, times: [1, 2, 3].map(Self.ms),
                               settleAt: Self.ms(3))
        // Each edge reports the one before it; the final settle reports the last.
        #expect(changes.map(\.active) == [false, true, false])
        #expect(changes.map(\.timestamp) == [1, 2, 3].map(Self.ms))
    }

    /// Settling at random moments (as a timer thread would) gives the same changes as settling once at the
    /// end: only the time a change is seen depends on polling, never its content.
    @Test func settleTimingDoesNotChangeTheResult() {
        var random = NoiseGenerator(seed: 0x6770_696f)
        let time = Duration.milliseconds(15)
        // 400 edges with gaps from 0.1 ms to 40 ms: many bursts, glitches and clean changes.
        var t = Timestamp.zero
        var edges: [Timestamp] = []
        for _ in 0..<400 {
            t = t + .microseconds(Int64.random(in: 100...40_000, using: &random))
            edges.append(t)
        }
        let once = Self.run(time: time, level: false, first: true, times: edges, settleAt: t + .seconds(1))

        var debouncer = Debouncer(line: Self.line, time: time, level: false)
        var polled: [DebouncedChange] = []
        var raw = true
        var poll = Timestamp.zero
        for edge in edges {
            while poll < edge {
                if let change = debouncer.settle(at: poll) { polled.append(change) }
                poll = poll + .microseconds(Int64.random(in: 1...30_000, using: &random))
            }
            if let change = debouncer.edge(to: raw, at: edge) { polled.append(change) }
            raw.toggle()
        }
        if let change = debouncer.settle(at: t + .seconds(1)) { polled.append(change) }

        #expect(polled == once)
        #expect(once.count > 20)
        // Reported levels alternate, and each held at least the debounce time before the next edge.
        for (a, b) in zip(once, once.dropFirst()) {
            #expect(a.active != b.active)
            #expect(b.timestamp - a.lastEdge >= time)
        }
    }
}

@Suite("DebouncedInputs")
struct DebouncedInputsTests {
    final class Recorder: @unchecked Sendable {
        private let condition = Condition()
        private let arrived = DispatchSemaphore(value: 0)
        private var changes: [DebouncedChange] = []
        func append(_ change: DebouncedChange) {
            condition.locked { changes.append(change) }
            arrived.signal()
        }
        var all: [DebouncedChange] { condition.locked { changes } }
        /// Waits (up to `seconds` of wall time, a bound for a broken build, not a timing) for one change.
        func waitForChange(within seconds: Double) -> Bool { arrived.wait(timeout: .now() + seconds) == .success }
    }

    static func ms(_ value: Int64) -> Timestamp { Timestamp(nanoseconds: value * 1_000_000) }

    @Test func eachLineKeepsItsOwnDebounceTime() throws {
        let clock = ManualClock()
        let gpio = SimulatedGPIO(clock: clock, chips: [SimulatedGPIO.Chip(label: "gpio-sim", lineCount: 8)])
        let recorder = Recorder()
        let inputs = DebouncedInputs(clock: clock) { recorder.append($0) }
        let fast = try inputs.request(2, on: .label("gpio-sim"), from: gpio,
                                      DebouncedLineConfig(debounce: .milliseconds(5), activeLow: true, bias: .pullUp))
        let slow = try inputs.request(3, on: .label("gpio-sim"), from: gpio,
                                      DebouncedLineConfig(debounce: .milliseconds(50), activeLow: true, bias: .pullUp))
        #expect(inputs.level(of: fast.id) == false)
        #expect(inputs.level(of: slow.id) == false)

        // The same contact bounce on both: toggles 10 ms apart, ending pressed at 40 ms.
        clock.advance(to: Self.ms(100))
        let bounce: [Duration] = [10, 20, 30, 40].map { .milliseconds($0) }
        gpio.press(fast.id, bounce: bounce)
        gpio.press(slow.id, bounce: bounce)
        gpio.advance(by: .milliseconds(200))
        inputs.settle()

        let fastChanges = recorder.all.filter { $0.line == fast.id }
        let slowChanges = recorder.all.filter { $0.line == slow.id }
        // 5 ms: every 10 ms stretch counts, so the bounce shows as five changes.
        #expect(fastChanges.map(\.active) == [true, false, true, false, true])
        #expect(fastChanges.map(\.timestamp) == [100, 110, 120, 130, 140].map(Self.ms))
        // 50 ms: one press, stamped with the first edge.
        #expect(slowChanges == [DebouncedChange(line: slow.id, active: true, timestamp: Self.ms(100),
                                                lastEdge: Self.ms(140))])
        #expect(inputs.level(of: slow.id) == true)
        #expect(inputs.nextDeadline == nil)
    }

    @Test func aPendingLevelIsReportedAtItsDeadlineNotBefore() throws {
        let clock = ManualClock(start: Self.ms(1000))
        let gpio = SimulatedGPIO(clock: clock, chips: [SimulatedGPIO.Chip(label: "sim", lineCount: 4)])
        let recorder = Recorder()
        let inputs = DebouncedInputs(clock: clock) { recorder.append($0) }
        let button = try inputs.request(0, on: .name("gpiochip0"), from: gpio,
                                        DebouncedLineConfig(debounce: .milliseconds(30)))
        gpio.press(button.id, bounce: [.milliseconds(2), .milliseconds(4)])
        gpio.advance(by: .milliseconds(33))
        inputs.settle()
        #expect(recorder.all.isEmpty)
        #expect(inputs.nextDeadline == Self.ms(1034))
        gpio.advance(by: .milliseconds(1))
        inputs.settle()
        #expect(recorder.all == [DebouncedChange(line: button.id, active: true, timestamp: Self.ms(1000),
                                                 lastEdge: Self.ms(1004))])
    }

    @Test func edgesBeforeTheLineIsAddedAreReplayed() throws {
        let recorder = Recorder()
        let clock = ManualClock()
        let inputs = DebouncedInputs(clock: clock) { recorder.append($0) }
        let line = GPIOLineID(chip: "gpiochip1", offset: 4)
        inputs.handle(GPIOEdgeEvent(line: line, edge: .rising, timestamp: Self.ms(1)))
        inputs.add(line, debounce: .milliseconds(10), level: true)   // the level read after that edge
        inputs.settle(at: Self.ms(11))
        #expect(recorder.all.isEmpty)                                  // it was already high: no change
        inputs.handle(GPIOEdgeEvent(line: line, edge: .falling, timestamp: Self.ms(20)))
        inputs.settle(at: Self.ms(30))
        #expect(recorder.all.map(\.active) == [false])
    }

    /// The timer thread settles on its own while the test moves the manual clock.
    @Test func theTimerThreadReportsWithoutBeingPolled() throws {
        let clock = ManualClock()
        let gpio = SimulatedGPIO(clock: clock, chips: [SimulatedGPIO.Chip(label: "sim", lineCount: 4)])
        let recorder = Recorder()
        let inputs = DebouncedInputs(clock: clock) { recorder.append($0) }
        let button = try inputs.request(1, on: .label("sim"), from: gpio, DebouncedLineConfig(debounce: .milliseconds(20)))
        inputs.startTimer()
        defer { inputs.stopTimer(); clock.advance(by: .seconds(1)) }
        gpio.press(button.id, bounce: [.milliseconds(1), .milliseconds(3)])
        // Advance in small steps, as time passes; the thread wakes at its deadline.
        for _ in 0..<30 { gpio.advance(by: .milliseconds(1)) }
        #expect(recorder.waitForChange(within: 10))
        #expect(recorder.all == [DebouncedChange(line: button.id, active: true, timestamp: .zero,
                                                 lastEdge: Self.ms(3))])
    }
}
