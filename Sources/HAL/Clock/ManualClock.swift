/// A clock that moves only when told to: the simulated twins and every timing test run on it, so a test of
/// a 30 ms debounce takes no 30 ms and gives the same answer every time.
///
/// `sleep(until:)` blocks until another thread advances the clock past the deadline (as a real sleep would
/// wait for real time); single-threaded code advances the clock itself instead of sleeping.
public final class ManualClock: MonotonicClock, @unchecked Sendable {
    private let condition = Condition()
    private var time: Timestamp   // guarded by `condition`

    public init(start: Timestamp = .zero) { time = start }

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
        condition.wait { time >= deadline }
    }
}
