/// Monotonic time behind a protocol, so anything timed (debounce, gestures, simulated devices, timeouts)
/// can be driven by hand in a test.
public protocol MonotonicClock: AnyObject, Sendable {
    /// The current time.
    var now: Timestamp { get }
    /// Blocks the calling (control) thread until `deadline`. Never called on the render thread.
    func sleep(until deadline: Timestamp)
}

extension MonotonicClock {
    /// Blocks the calling thread for `duration`.
    public func sleep(for duration: Duration) { sleep(until: now + duration) }
}
