/// Simulated time for twins driven from one thread: `sleep(until:)` jumps straight to the deadline, so a
/// retry delay costs no real time yet still shows on the clock (a test can check how long retries took).
final class SkippingClock: MonotonicClock, @unchecked Sendable {
    private let condition = Condition()
    private var time: Timestamp   // guarded by `condition`

    init(start: Timestamp = .zero) { time = start }

    var now: Timestamp { condition.locked { time } }

    func sleep(until deadline: Timestamp) {
        condition.locked { time = Swift.max(time, deadline) }
    }
}
