/// The kernel's `CLOCK_MONOTONIC`: the clock GPIO edge timestamps and ALSA's monotonic timestamps use.
public final class SystemClock: MonotonicClock {
    public static let shared = SystemClock()

    public init() {}

    public var now: Timestamp { Timestamp(nanoseconds: Syscalls.monotonicNanoseconds()) }

    public func sleep(until deadline: Timestamp) {
        Syscalls.sleepUntilMonotonic(nanoseconds: deadline.nanoseconds)
    }
}
