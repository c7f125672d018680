#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif

extension SignalWatcher {
    /// Ignores SIGPIPE for the whole process, so writing to a reader that went away (`appliance run | head`)
    /// fails with EPIPE, which the caller handles, instead of killing the process mid-recording (pipe(7)).
    /// A signal's disposition is process-wide; call it at start-up, with the termination signals' block.
    public static func ignoreBrokenPipe() {
        _ = Glibc.signal(SIGPIPE, SIG_IGN)
    }
}
