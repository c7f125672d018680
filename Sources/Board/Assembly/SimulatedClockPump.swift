import HAL
import Synchronization

/// Brings a simulated GPIO chip's `ManualClock` up to a real clock, so the simulated board keeps real
/// time in the running daemon while tests stay fully manual (they never make a pump).
///
/// `pump()` advances the chip to the source clock's time, applying scheduled line changes (a simulated
/// press and its bounce) at their own times on the way: edge timestamps, and so debouncing and gesture
/// timing, do not depend on how often it runs, only how soon a change is seen. The control loop calls it
/// at the start of each turn (and at `nextDeadline`, which is set while scheduled changes are due).
public final class SimulatedClockPump: Sendable {
    public let gpio: SimulatedGPIO
    public let source: any MonotonicClock
    /// How often to pump while scheduled changes are pending: a press's bounce is a few milliseconds, a
    /// gesture hundreds; 5 ms makes the changes visible within a debounce time.
    public let interval: Duration
    /// The latest scheduled change not yet reached.
    private let pendingUntil = Mutex<Timestamp?>(nil)

    public init(gpio: SimulatedGPIO, source: any MonotonicClock = SystemClock.shared,
                interval: Duration = .milliseconds(5)) {
        self.gpio = gpio
        self.source = source
        self.interval = interval
        gpio.advance(to: source.now)
    }

    /// Says that line changes are scheduled up to `time`: the pump keeps a deadline until then.
    public func expectChanges(until time: Timestamp) {
        pendingUntil.withLock { $0 = max($0 ?? time, time) }
    }

    /// When the loop should pump next: soon while scheduled changes are pending, else never (edges of a
    /// simulated line only come from calls that say so with `expectChanges`).
    public var nextDeadline: Timestamp? {
        guard let until = pendingUntil.withLock({ $0 }) else { return nil }
        return min(until, gpio.clock.now + interval)
    }

    /// Advances the simulated chip to the source clock's time, delivering every change scheduled until then.
    public func pump() {
        let now = source.now
        gpio.advance(to: now)
        pendingUntil.withLock { pending in
            if let until = pending, until <= now { pending = nil }
        }
    }
}
