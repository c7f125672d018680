#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif

/// A pthread condition variable with its mutex, for control-thread waits (never the render thread).
/// `Synchronization` has `Mutex` and `Atomic` but nothing to wait on. Timed waits count on the monotonic
/// clock (the condition is made with `CLOCK_MONOTONIC`), so a wall-clock step does not stretch them.
public final class Condition: @unchecked Sendable {
    private let mutex = UnsafeMutablePointer<pthread_mutex_t>.allocate(capacity: 1)
    private let cond = UnsafeMutablePointer<pthread_cond_t>.allocate(capacity: 1)

    public init() {
        pthread_mutex_init(mutex, nil)
        var attributes = pthread_condattr_t()
        pthread_condattr_init(&attributes)
        pthread_condattr_setclock(&attributes, CLOCK_MONOTONIC)
        pthread_cond_init(cond, &attributes)
        pthread_condattr_destroy(&attributes)
    }

    deinit {
        pthread_cond_destroy(cond)
        pthread_mutex_destroy(mutex)
        cond.deallocate()
        mutex.deallocate()
    }

    /// Runs `body` under the mutex.
    public func locked<T, E: Error>(_ body: () throws(E) -> T) throws(E) -> T {
        pthread_mutex_lock(mutex)
        defer { pthread_mutex_unlock(mutex) }
        return try body()
    }

    /// Waits, under the mutex, until `ready` holds; `ready` is re-checked after every broadcast.
    public func wait(until ready: () -> Bool) {
        pthread_mutex_lock(mutex)
        while !ready() { pthread_cond_wait(cond, mutex) }
        pthread_mutex_unlock(mutex)
    }

    /// Changes state under the mutex and wakes every waiter.
    public func broadcast(after change: () -> Void = {}) {
        pthread_mutex_lock(mutex)
        change()
        pthread_cond_broadcast(cond)
        pthread_mutex_unlock(mutex)
    }

    /// Waits, under the mutex, until `ready` holds or the monotonic clock reaches `deadline`; returns whether
    /// `ready` held.
    @discardableResult
    public func wait(until ready: () -> Bool, deadline: Timestamp) -> Bool {
        var ts = timespec(tv_sec: Int(deadline.nanoseconds / 1_000_000_000),
                          tv_nsec: Int(deadline.nanoseconds % 1_000_000_000))
        pthread_mutex_lock(mutex)
        defer { pthread_mutex_unlock(mutex) }
        while !ready() {
            if pthread_cond_timedwait(cond, mutex, &ts) == ETIMEDOUT { return ready() }
        }
        return true
    }
}
