#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif

/// A pthread condition variable with its mutex, for control-thread waits (never the render thread).
/// `Synchronization` has `Mutex` and `Atomic` but nothing to wait on.
final class Condition: @unchecked Sendable {
    private let mutex = UnsafeMutablePointer<pthread_mutex_t>.allocate(capacity: 1)
    private let cond = UnsafeMutablePointer<pthread_cond_t>.allocate(capacity: 1)

    init() {
        pthread_mutex_init(mutex, nil)
        pthread_cond_init(cond, nil)
    }

    deinit {
        pthread_cond_destroy(cond)
        pthread_mutex_destroy(mutex)
        cond.deallocate()
        mutex.deallocate()
    }

    /// Runs `body` under the mutex.
    func locked<T, E: Error>(_ body: () throws(E) -> T) throws(E) -> T {
        pthread_mutex_lock(mutex)
        defer { pthread_mutex_unlock(mutex) }
        return try body()
    }

    /// Waits, under the mutex, until `ready` holds; `ready` is re-checked after every broadcast.
    func wait(until ready: () -> Bool) {
        pthread_mutex_lock(mutex)
        while !ready() { pthread_cond_wait(cond, mutex) }
        pthread_mutex_unlock(mutex)
    }

    /// Changes state under the mutex and wakes every waiter.
    func broadcast(after change: () -> Void = {}) {
        pthread_mutex_lock(mutex)
        change()
        pthread_cond_broadcast(cond)
        pthread_mutex_unlock(mutex)
    }
}
