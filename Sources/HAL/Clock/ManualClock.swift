/// A clock that moves only when told to: the simulated twins and every timing test run on it, so a test of
/// a 30 ms debounce takes no 30 ms and gives the same answer every time.
///
/// Two ways to sleep: by default `sleep(until:)` blocks until another thread advances the clock past the
/// deadline, as a real sleep waits for real time. With `skipsSleeps`, a sleep jumps the clock straight to its
/// deadline instead: for twins driven from one thread, where a retry delay should cost no real time yet still
/// show on the clock (a test can check how long the retries took).
public final class ManualClock: MonotonicClock, @unchecked Sendable {
    private let condition = Condition()
    private var time: Timestamp   // guarded by `condition`
    public let skipsSleeps: Bool

    public init(start: Timestamp = .zero, skipsSleeps: Bool = false) {
        time = start
        self.skipsSleeps = skipsSleeps
    }

    public var now: Timestamp { condition.locked { time } }

    /// Moves time forward by `duration` (never backwards) and wakes sleepers whose deadline passed.
    public func advance(by duration: Duration) {
        precondition(duration >= .zero, "a monotonic clock does not go backwards")
        condition.broadcast { time = time + duration }
    }

    /// Moves time forward to `deadline` if it lies ahead.
    public func advance(to deadline: Timestamp) {
        condition.broadcast { time = Swift.max(time, deadline) }
    }

    public func sleep(until deadline: Timestamp) {
        if skipsSleeps {
            advance(to: deadline)
        } else {
            condition.wait { time >= deadline }
        }
    }
}
