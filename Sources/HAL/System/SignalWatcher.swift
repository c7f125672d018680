#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif
import CSignalFD

/// The termination signals as readable events: SIGTERM (systemd's stop), SIGINT (^C) and SIGHUP (the terminal
/// went away) are blocked and read through a signalfd, so the daemon's control loop handles them between two
/// commands like any other input, instead of an asynchronous handler interrupting whatever runs.
///
/// A blocked signal only stays blocked in threads started after the block (a new thread inherits its
/// creator's mask; signal(7)), so `blockTerminationSignals()` must run first, before any thread starts.
public final class SignalWatcher {
    public enum Signal: Int32, Sendable, CaseIterable, CustomStringConvertible {
        case hangUp = 1      // SIGHUP
        case interrupt = 2   // SIGINT
        case terminate = 15  // SIGTERM

        public var description: String {
            switch self {
            case .hangUp: "SIGHUP"
            case .interrupt: "SIGINT"
            case .terminate: "SIGTERM"
            }
        }
    }

    private let descriptor: FileDescriptor

    /// Blocks the termination signals in the calling thread (and so in every thread it starts later), and
    /// restores their default action: an ignored signal is discarded even while blocked (signal(7)), and a
    /// parent may have started us with them ignored (nohup, some test runners).
    public static func blockTerminationSignals() throws(SystemError) {
        var set = terminationSet()
        let result = pthread_sigmask(SIG_BLOCK, &set, nil)
        guard result == 0 else { throw SystemError("block SIGTERM, SIGINT and SIGHUP", path: "signal mask", errno: Errno(result)) }
        for signal in Signal.allCases { _ = Glibc.signal(signal.rawValue, SIG_DFL) }
    }

    /// Unblocks them again in the calling thread (tests, and a child about to exec).
    public static func unblockTerminationSignals() {
        var set = terminationSet()
        _ = pthread_sigmask(SIG_UNBLOCK, &set, nil)
    }

    /// A signalfd for the termination signals; call `blockTerminationSignals()` first.
    public init() throws(SystemError) {
        var set = Self.terminationSet()
        let result = csignalfd_open(&set)
        guard result >= 0 else { throw SystemError("open a signalfd", path: "signalfd", errno: Errno(-result)) }
        descriptor = FileDescriptor(adopting: result, path: "signalfd")
    }

    /// The descriptor to poll (the control loop's `watch`).
    public var readDescriptor: Int32 { descriptor.rawValue }

    /// The next pending termination signal, nil when none is pending.
    public func next() -> Signal? {
        while true {
            let number = csignalfd_read(descriptor.rawValue)
            if number <= 0 { return nil }
            if let signal = Signal(rawValue: number) { return signal }
        }
    }

    private static func terminationSet() -> sigset_t {
        var set = sigset_t()
        sigemptyset(&set)
        for signal in Signal.allCases { sigaddset(&set, signal.rawValue) }
        return set
    }
}
