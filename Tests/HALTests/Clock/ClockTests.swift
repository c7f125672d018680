import Foundation
import Testing
@testable import HAL

@Suite("Clocks")
struct ClockTests {
    @Test func manualClockMovesOnlyWhenTold() {
        let clock = ManualClock(start: Timestamp(nanoseconds: 5))
        #expect(clock.now.nanoseconds == 5)
        clock.advance(by: .milliseconds(30))
        #expect(clock.now.nanoseconds == 30_000_005)
        clock.advance(to: Timestamp(nanoseconds: 10))      // in the past: no change
        #expect(clock.now.nanoseconds == 30_000_005)
        #expect(clock.now - Timestamp(nanoseconds: 5) == .milliseconds(30))
    }

    @Test func manualSleepWakesWhenAnotherThreadAdvancesPastTheDeadline() async {
        let clock = ManualClock()
        let woke = Thread.detachNewThreadAndWait { clock.sleep(until: .zero + .seconds(2)) }
        clock.advance(by: .seconds(1))
        #expect(!woke.isFinished(within: 0.05))
        clock.advance(by: .seconds(1))
        #expect(woke.isFinished(within: 5))
    }

    @Test func systemClockIsMonotonicAndSleeps() {
        let clock = SystemClock()
        let start = clock.now
        clock.sleep(for: .milliseconds(2))
        #expect(clock.now - start >= .milliseconds(2))
    }

    @Test func durationNanoseconds() {
        #expect(Duration.milliseconds(1500).nanoseconds == 1_500_000_000)
        #expect(Duration.nanoseconds(-7).nanoseconds == -7)
    }
}

/// A detached thread and a way to ask whether it has finished (waits up to `seconds` of wall time).
private final class Finished: @unchecked Sendable {
    private let done = DispatchSemaphore(value: 0)
    func signal() { done.signal() }
    func isFinished(within seconds: Double) -> Bool { done.wait(timeout: .now() + seconds) == .success }
}

extension Thread {
    fileprivate static func detachNewThreadAndWait(_ body: @escaping @Sendable () -> Void) -> Finished {
        let finished = Finished()
        Thread.detachNewThread { body(); finished.signal() }
        return finished
    }
}

@Suite("Clocks, skipping sleeps")
struct SkippingClockTests {
    @Test func aSleepJumpsToItsDeadline() {
        let clock = ManualClock(start: Timestamp(nanoseconds: 100), skipsSleeps: true)
        clock.sleep(for: .milliseconds(2))
        #expect(clock.now.nanoseconds == 2_000_100)
        clock.sleep(until: Timestamp(nanoseconds: 50))   // already past: no change
        #expect(clock.now.nanoseconds == 2_000_100)
    }
}
