#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif

/// POSIX threads for HAL's own workers (GPIO events, deadline timers); Foundation's Thread is not needed.
public enum SystemThread {
    /// A thread's identity, to ask "am I that thread?".
    public struct ID: Equatable, @unchecked Sendable {
        let thread: pthread_t

        /// The calling thread.
        public static var current: ID { ID(thread: pthread_self()) }

        public static func == (a: ID, b: ID) -> Bool { pthread_equal(a.thread, b.thread) != 0 }
    }

    /// Starts a detached thread running `body`; false if the system refused a thread.
    public static func start(_ body: @escaping @Sendable () -> Void) -> Bool {
        final class Body {
            let run: @Sendable () -> Void
            init(_ run: @escaping @Sendable () -> Void) { self.run = run }
        }
        let context = Unmanaged.passRetained(Body(body)).toOpaque()
        var thread = pthread_t()
        let result = pthread_create(&thread, nil, { raw in
            let body = Unmanaged<Body>.fromOpaque(raw!).takeRetainedValue()
            body.run()
            return nil
        }, context)
        guard result == 0 else {
            Unmanaged<Body>.fromOpaque(context).release()
            return false
        }
        pthread_detach(thread)
        return true
    }
}
