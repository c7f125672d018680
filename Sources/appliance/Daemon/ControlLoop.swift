#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif
import HAL
import Synchronization

/// The daemon's one control thread. Console lines, socket connections, signals, timers and work posted from
/// other threads (queue callbacks, GPIO and jack timers) all run here, one at a time and in order, so the
/// player, recorder and route state machines need no locks of their own.
///
/// Other threads only `post`; everything else (watch, timers, run) belongs to the loop's thread.
final class ControlLoop: @unchecked Sendable {
    typealias Work = @Sendable () -> Void

    let clock: any MonotonicClock
    private let wake: Pipe
    private let inbox = Mutex<[Work]>([])
    private let stopping = Atomic<Bool>(false)
    // The loop thread's own state.
    private var watches: [Int: (descriptor: Int32, handler: () -> Void)] = [:]
    private var timers: [Int: (deadline: () -> Timestamp?, polls: Bool, fire: (Timestamp) -> Void)] = [:]
    private var nextToken = 0

    init(clock: any MonotonicClock) throws(SystemError) {
        self.clock = clock
        wake = try Pipe(nonBlocking: true)
    }

    /// Runs `work` on the loop's thread after what is already queued. Safe from any thread.
    func post(_ work: @escaping Work) {
        inbox.withLock { $0.append(work) }
        wake.send([1])
    }

    /// Calls `handler` on the loop whenever `descriptor` is readable (or hung up); returns a token for
    /// `unwatch`.
    @discardableResult
    func watch(_ descriptor: Int32, _ handler: @escaping () -> Void) -> Int {
        nextToken += 1
        watches[nextToken] = (descriptor, handler)
        return nextToken
    }

    func unwatch(_ token: Int) { watches[token] = nil }

    /// A timer source: asked for its next deadline before each wait; `fire` runs once that time has come.
    /// `polls`: the timer only looks at something (a device's health) and nothing is lost when it runs late.
    @discardableResult
    func addTimer(deadline: @escaping () -> Timestamp?, polls: Bool = false,
                  fire: @escaping (Timestamp) -> Void) -> Int {
        nextToken += 1
        timers[nextToken] = (deadline, polls, fire)
        return nextToken
    }

    func removeTimer(_ token: Int) { timers[token] = nil }

    /// The earliest deadline among the timers that do more than poll: how far a caller moving a manual clock
    /// may jump before a timer is due (the soak's idle hours). A poll jumped over runs at the next turn.
    var nextTimerDeadline: Timestamp? { timers.values.filter { !$0.polls }.compactMap { $0.deadline() }.min() }

    /// Makes `run` return after the current turn. Safe from any thread (a signal handler thread included).
    func stop() {
        stopping.store(true, ordering: .releasing)
        wake.send([0])
    }

    var isStopping: Bool { stopping.load(ordering: .acquiring) }

    /// Turns until `stop()`.
    func run() {
        while !isStopping { turn(maximumWait: .seconds(1)) }
    }

    /// One turn: waits until a descriptor is readable, work is posted or the earliest timer is due (at most
    /// `maximumWait`), then runs posted work, ready descriptors' handlers and due timers.
    func turn(maximumWait: Duration) {
        let now = clock.now
        var wait = maximumWait
        for timer in timers.values {
            if let deadline = timer.deadline() { wait = min(wait, max(.zero, deadline - now)) }
        }
        let tokens = watches.keys.sorted()
        var entries = [pollfd(fd: wake.readDescriptor, events: Int16(POLLIN), revents: 0)]
        entries += tokens.map { pollfd(fd: watches[$0]!.descriptor, events: Int16(POLLIN), revents: 0) }
        let milliseconds = Int32(clamping: (wait.nanoseconds + 999_999) / 1_000_000)
        _ = try? Poll.wait(&entries, timeoutMilliseconds: milliseconds)
        if entries[0].revents != 0 { wake.drain() }
        for work in inbox.withLock({ queue -> [Work] in defer { queue.removeAll() }; return queue }) { work() }
        for (index, token) in tokens.enumerated() where entries[index + 1].revents != 0 {
            watches[token]?.handler()
        }
        let fired = clock.now
        for token in timers.keys.sorted() {
            guard let timer = timers[token], let deadline = timer.deadline(), deadline <= fired else { continue }
            timer.fire(fired)
        }
    }
}
