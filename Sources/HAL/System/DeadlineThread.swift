/// A thread that sleeps until its owner's next deadline, runs the owner's work, and repeats; while the owner
/// has no deadline it waits without waking, on the owner's condition (the owner broadcasts when it gets one).
///
/// The owner keeps its state under `condition`; `nextWake` runs under that lock and `work` without it. Both
/// reach the owner weakly: once the owner is gone the thread ends at its next wake-up.
final class DeadlineThread: @unchecked Sendable {
    /// What the owner wants next.
    enum Wake {
        /// Nothing pending: wait for a broadcast.
        case idle
        /// Run the work at this time.
        case at(Timestamp)
        /// The owner is gone: end the thread.
        case finish
    }

    private let condition: Condition
    private let clock: any MonotonicClock
    private let nextWake: @Sendable () -> Wake
    private let work: @Sendable () -> Void
    // Guarded by `condition`:
    private var running = false
    private var stopping = false

    /// `nextWake` answers, under the lock, when to run `work` next.
    init(condition: Condition, clock: any MonotonicClock, nextWake: @escaping @Sendable () -> Wake,
         work: @escaping @Sendable () -> Void) {
        self.condition = condition
        self.clock = clock
        self.nextWake = nextWake
        self.work = work
    }

    /// Starts the thread unless it runs already.
    func start() {
        let start: Bool = condition.locked {
            stopping = false
            if running { return false }
            running = true
            return true
        }
        guard start else { return }
        if !SystemThread.start({ [self] in loop() }) {
            condition.broadcast { running = false }
        }
    }

    /// Asks the thread to end; it does so at its next wake-up.
    func stop() {
        condition.broadcast { stopping = true }
    }

    private func loop() {
        while true {
            var wake: Timestamp?
            var ownerGone = false
            condition.wait {
                if stopping { return true }
                switch nextWake() {
                case .idle: return false
                case .at(let time): wake = time
                case .finish: ownerGone = true
                }
                return true
            }
            let stop: Bool = condition.locked {
                guard stopping || ownerGone else { return false }
                running = false
                stopping = false
                return true
            }
            if stop { return }
            if let wake { clock.sleep(until: wake) }
            work()
        }
    }
}
