#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif

/// Starts a detached POSIX thread running `body` (HAL keeps to Glibc; Foundation's Thread is not needed).
/// Returns false if the system refused a thread.
func startGPIOThread(_ body: @escaping @Sendable () -> Void) -> Bool {
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
