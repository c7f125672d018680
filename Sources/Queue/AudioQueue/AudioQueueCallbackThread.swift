import HAL

/// The thread an audio queue delivers its callbacks on (Core Audio's "thread context" for a queue's
/// callback, core-audio-iphone-2008.md 1.5): one serial thread, created and named by the caller and handed
/// to the queues it serves. Callbacks and listener calls run here one at a time, in the order they were
/// posted, never on the render thread and never under a queue's lock (so a callback may call the queue).
///
/// The render thread may not signal anyone (a wake-up is a system call), so the queues it serves are also
/// polled from here every `pollInterval`: each poll collects what the render side reported (buffers
/// consumed and rendered, transport changes) and what the device timeline says has played.
public final class AudioQueueCallbackThread: @unchecked Sendable {
    public let name: String
    public let pollInterval: Duration
    private let condition = Condition()
    // Guarded by `condition`:
    private var work: [@Sendable () -> Void] = []
    private var services: [WeakService] = []
    private var ending = false
    private var finished = false
    private var thread: SystemThread.ID?

    private struct WeakService { weak var service: AudioQueueService? }

    /// Starts the thread. `pollInterval` bounds how late a completion is delivered after the render side
    /// reported it (a few ms: well under a period of a typical queue buffer).
    public init(name: String, pollInterval: Duration = .milliseconds(5)) throws(AudioQueueError) {
        guard pollInterval > .zero else {
            throw AudioQueueError(.invalidValue, "a callback thread's poll interval must be positive, not \(pollInterval)",
                                  hint: "a few milliseconds is usual")
        }
        self.name = name
        self.pollInterval = pollInterval
        let started = SystemThread.start { [self] in run() }
        guard started else {
            throw AudioQueueError(.system, "the system refused a thread for callbacks '\(name)'",
                                  hint: "check the process's thread limit (ulimit -u) and memory")
        }
        condition.wait { thread != nil }
    }

    /// Whether the calling thread is this one.
    public var isCurrent: Bool { condition.locked { thread } == SystemThread.ID.current }

    /// Runs `body` on the thread, after what was posted before it.
    public func async(_ body: @escaping @Sendable () -> Void) {
        condition.broadcast { work.append(body) }
    }

    /// Runs `body` on the thread after what was posted before it and waits for it; runs it at once when
    /// called from the thread itself. After `end()`, runs it on the caller's thread.
    public func sync<T: Sendable>(_ body: @escaping @Sendable () -> T) -> T {
        if isCurrent { return body() }
        let result = SyncResult<T>()
        let accepted: Bool = condition.locked {
            guard !ending else { return false }
            work.append { [condition] in
                let value = body()
                condition.broadcast { result.value = value }
            }
            return true
        }
        guard accepted else { return body() }
        condition.broadcast()
        condition.wait { result.value != nil }
        return result.value!
    }

    /// Ends the thread once what was posted has run. Queues still using it deliver nothing more.
    public func end() {
        condition.broadcast { ending = true }
        guard !isCurrent else { return }
        condition.wait { finished }
    }

    /// A queue registers to be polled.
    func add(_ service: AudioQueueService) {
        condition.broadcast { services.append(WeakService(service: service)) }
    }

    func remove(_ service: AudioQueueService) {
        condition.locked { services.removeAll { $0.service == nil || $0.service === service } }
    }

    private func run() {
        condition.broadcast { thread = SystemThread.ID.current }
        while true {
            var batch: [@Sendable () -> Void] = []
            var polled: [AudioQueueService] = []
            var end = false
            if condition.locked({ services.isEmpty }) {
                condition.wait { !work.isEmpty || ending || !services.isEmpty }
            } else {
                condition.wait(until: { !work.isEmpty || ending }, deadline: SystemClock.shared.now + pollInterval)
            }
            condition.locked {
                swap(&batch, &work)
                services.removeAll { $0.service == nil }
                polled = services.compactMap(\.service)
                end = ending && batch.isEmpty
            }
            for body in batch { body() }
            if end { break }
            for service in polled { service.poll() }
        }
        condition.broadcast { finished = true }
    }
}

/// A queue served by a callback thread: polled there for what its render side reported.
protocol AudioQueueService: AnyObject, Sendable {
    /// Callback thread: collect render-side reports and deliver the callbacks they call for.
    func poll()
}

/// The value a `sync` call waits for (written and read under the thread's condition).
private final class SyncResult<T>: @unchecked Sendable { var value: T? }
