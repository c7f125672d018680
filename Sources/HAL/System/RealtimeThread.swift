#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif

/// The scheduling a render thread actually got.
public enum ThreadScheduling: Equatable, Sendable, CustomStringConvertible {
    /// SCHED_FIFO at this priority, as asked.
    case fifo(priority: Int32)
    /// The default time-sharing policy: SCHED_FIFO was not asked for, or was refused with `refusal`
    /// (EPERM without CAP_SYS_NICE or an RLIMIT_RTPRIO high enough; the unit's LimitRTPRIO= grants it).
    case standard(refusal: SystemError?)

    public var isRealtime: Bool {
        if case .fifo = self { return true }
        return false
    }

    public var description: String {
        switch self {
        case let .fifo(priority): "SCHED_FIFO priority \(priority)"
        case .standard(nil): "the default policy"
        case let .standard(refusal?): "the default policy (SCHED_FIFO refused: \(refusal.reason))"
        }
    }
}

/// A joinable POSIX thread for a render loop: a small explicit stack (with `mlockall(MCL_FUTURE)` every
/// stack page is pinned, so the default 8 MiB stack would cost 8 MiB of RAM per thread) and SCHED_FIFO when
/// the system permits it. When it does not (EPERM), the thread starts with the default policy instead and
/// `scheduling` says so; the caller reports that once, on its own (control) thread.
public final class RealtimeThread: @unchecked Sendable {
    /// A render loop needs little stack: its buffers are preallocated on the heap.
    public static let defaultStackBytes = 256 * 1024

    /// What the thread got.
    public let scheduling: ThreadScheduling
    private let thread: pthread_t
    /// Control thread only.
    private var joined = false

    /// Starts `body` on a new thread with a stack of `stackBytes`,
    /// at SCHED_FIFO `fifoPriority` (1...99) when permitted, or the default policy when `fifoPriority` is nil
    /// or refused. Throws when no thread could be started at all.
    public init(stackBytes: Int = RealtimeThread.defaultStackBytes, fifoPriority: Int32?,
                body: @escaping @Sendable () -> Void) throws(SystemError) {
        final class Start {
            let body: @Sendable () -> Void
            init(_ body: @escaping @Sendable () -> Void) { self.body = body }
        }
        let context = Unmanaged.passRetained(Start(body)).toOpaque()
        let entry: @convention(c) (UnsafeMutableRawPointer?) -> UnsafeMutableRawPointer? = { raw in
            let start = Unmanaged<Start>.fromOpaque(raw!).takeRetainedValue()
            start.body()
            return nil
        }
        let stack = max(stackBytes, Int(PTHREAD_STACK_MIN))
        var refusal: SystemError?
        if let fifoPriority {
            switch Self.create(stack: stack, fifoPriority: fifoPriority, entry: entry, context: context) {
            case let .success(thread):
                self.thread = thread
                scheduling = .fifo(priority: fifoPriority)
                return
            case let .failure(error) where error.errno == .notPermitted:
                refusal = error
            case let .failure(error):
                Unmanaged<Start>.fromOpaque(context).release()
                throw error
            }
        }
        switch Self.create(stack: stack, fifoPriority: nil, entry: entry, context: context) {
        case let .success(thread):
            self.thread = thread
            scheduling = .standard(refusal: refusal)
        case let .failure(error):
            Unmanaged<Start>.fromOpaque(context).release()
            throw error
        }
    }

    /// A thread that was never joined is detached, so its resources go when it ends.
    deinit {
        if !joined { pthread_detach(thread) }
    }

    /// Waits for the thread's body to return (control thread; the body must be told to end first).
    public func join() {
        guard !joined else { return }
        joined = true
        pthread_join(thread, nil)
    }

    private static func create(stack: Int, fifoPriority: Int32?,
                               entry: @convention(c) (UnsafeMutableRawPointer?) -> UnsafeMutableRawPointer?,
                               context: UnsafeMutableRawPointer) -> Result<pthread_t, SystemError> {
        var attributes = pthread_attr_t()
        pthread_attr_init(&attributes)
        defer { pthread_attr_destroy(&attributes) }
        var result = pthread_attr_setstacksize(&attributes, stack)
        guard result == 0 else { return .failure(SystemError("set a thread stack of \(stack) bytes", path: "pthread", errno: Errno(result))) }
        if let fifoPriority {
            var parameters = sched_param()
            parameters.sched_priority = fifoPriority
            result = pthread_attr_setinheritsched(&attributes, Int32(PTHREAD_EXPLICIT_SCHED))
            if result == 0 { result = pthread_attr_setschedpolicy(&attributes, Int32(SCHED_FIFO)) }
            if result == 0 { result = pthread_attr_setschedparam(&attributes, &parameters) }
            guard result == 0 else {
                return .failure(SystemError("ask for SCHED_FIFO priority \(fifoPriority)", path: "pthread", errno: Errno(result)))
            }
        }
        var thread = pthread_t()
        result = pthread_create(&thread, &attributes, entry, context)
        guard result == 0 else {
            let what = fifoPriority.map { "start a SCHED_FIFO priority \($0) thread" } ?? "start a thread"
            return .failure(SystemError(what, path: "pthread", errno: Errno(result)))
        }
        return .success(thread)
    }
}
