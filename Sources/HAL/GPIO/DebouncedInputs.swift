/// How one debounced input is requested and filtered.
public struct DebouncedLineConfig: Hashable, Sendable {
    /// How long a level must hold before it counts: 5 ms for clean switches, 20–50 ms for cheap buttons.
    public var debounce: Duration
    /// A button to ground reads active when low.
    public var activeLow: Bool
    public var bias: GPIOBias
    public var consumer: String

    public init(debounce: Duration = .milliseconds(20), activeLow: Bool = false, bias: GPIOBias = .asIs,
                consumer: String = GPIOInputConfig.defaultConsumer) {
        self.debounce = debounce
        self.activeLow = activeLow
        self.bias = bias
        self.consumer = consumer
    }
}

/// Debounces any number of input lines, each with its own debounce time, and reports level changes in order.
///
/// Edges come in through `handle` (from a GPIO backend's edge handler, on its event thread). A pending level
/// is reported when an edge shows it had already held long enough, or when `settle` runs at or after its
/// deadline: either call `settle()` yourself when `nextDeadline` passes (a control loop; tests with a
/// `ManualClock`), or `startTimer()` for a thread that does it.
///
/// `onChange` runs on whichever thread made the change visible (the event thread, the timer thread, or the
/// caller of `settle`), one call at a time and in order; a call into this object from `onChange` is fine (it
/// is queued and delivered after the current one). Keep `onChange` short: hand the change to a queue.
public final class DebouncedInputs: @unchecked Sendable {
    public let clock: any MonotonicClock
    private let delivery: SerialDelivery<DebouncedChange>
    private let condition = Condition()
    /// Set once at the end of `init`.
    private var timer: DeadlineThread?
    // Guarded by `condition`:
    private var debouncers: [GPIOLineID: Debouncer] = [:]
    private var early: [GPIOLineID: [GPIOEdgeEvent]] = [:]   // edges of a line requested but not yet added

    public init(clock: any MonotonicClock, onChange: @escaping @Sendable (DebouncedChange) -> Void) {
        self.clock = clock
        delivery = SerialDelivery(onChange)
        timer = DeadlineThread(condition: condition, clock: clock, nextWake: { [weak self] in
            guard let self else { return .finish }
            return timerWake().map { .at($0) } ?? .idle
        }, work: { [weak self] in self?.settle() })
    }

    deinit {
        timer?.stop()
    }

    /// Requests `line` with edge events on both edges, reads its level, and debounces it from now on.
    /// The returned line must be kept (releasing it stops its events); remove it here with `remove`.
    public func request(_ line: GPIOLineSelector, on chip: GPIOChipSelector, from gpio: any GPIOController,
                        _ config: DebouncedLineConfig) throws(GPIOError) -> any GPIOInputLine {
        let input = GPIOInputConfig(bias: config.bias, activeLow: config.activeLow, edges: .both,
                                    consumer: config.consumer)
        let requested = try gpio.requestInput(line, on: chip, input) { [weak self] in self?.handle($0) }
        let level = try requested.value()
        add(requested.id, debounce: config.debounce, level: level)
        return requested
    }

    /// Starts debouncing a line whose current logical level is `level`. Edges that arrived for it before
    /// (between its request and now) are replayed.
    public func add(_ line: GPIOLineID, debounce: Duration, level: Bool) {
        condition.broadcast {
            var debouncer = Debouncer(line: line, time: debounce, level: level)
            for event in early.removeValue(forKey: line) ?? [] {
                if let change = debouncer.edge(to: event.edge.level, at: event.timestamp) { delivery.post(change) }
            }
            debouncers[line] = debouncer
        }
        drain()
    }

    public func remove(_ line: GPIOLineID) {
        condition.broadcast {
            debouncers[line] = nil
            early[line] = nil
        }
    }

    /// The debounced level of a line, or nil if it is not debounced here.
    public func level(of line: GPIOLineID) -> Bool? {
        condition.locked { debouncers[line]?.level }
    }

    /// When a line will have had no edge for its debounce time (see `Debouncer.quietAt`), or nil when it
    /// is not debounced here.
    public func quietAt(_ line: GPIOLineID) -> Timestamp? {
        condition.locked { debouncers[line]?.quietAt }
    }

    /// The earliest time a pending level will be reported, or nil when every line is stable.
    public var nextDeadline: Timestamp? {
        condition.locked { debouncers.values.compactMap(\.deadline).min() }
    }

    /// Takes in one raw edge (any thread).
    public func handle(_ event: GPIOEdgeEvent) {
        condition.broadcast {
            guard var debouncer = debouncers[event.line] else {
                // Requested but not yet added: keep a few edges to replay (a burst is all that matters).
                var kept = early[event.line] ?? []
                if kept.count >= 64 { kept.removeFirst() }
                kept.append(event)
                early[event.line] = kept
                return
            }
            if let change = debouncer.edge(to: event.edge.level, at: event.timestamp) { delivery.post(change) }
            // A zero debounce time reports at once.
            if let change = debouncer.settle(at: event.timestamp) { delivery.post(change) }
            debouncers[event.line] = debouncer
        }
        drain()
    }

    /// Reports every pending level that has held long enough by the clock's current time.
    public func settle() { settle(at: clock.now) }

    /// Reports every pending level that has held long enough by `now`, in the order of their first edges.
    public func settle(at now: Timestamp) {
        condition.locked {
            var changes: [DebouncedChange] = []
            for (line, var debouncer) in debouncers where debouncer.deadline.map({ $0 <= now }) ?? false {
                if let change = debouncer.settle(at: now) { changes.append(change) }
                debouncers[line] = debouncer
            }
            delivery.post(changes.sorted { ($0.timestamp, $0.line.chip, $0.line.offset)
                                                        < ($1.timestamp, $1.line.chip, $1.line.offset) })
        }
        drain()
    }

    private func drain() { delivery.drain() }

    // MARK: the timer thread

    /// Starts a thread that settles pending levels at their deadlines on `clock`. It sleeps on the clock
    /// while a level is pending (at most the shortest debounce time at a stretch, so a newer, earlier
    /// deadline is never overslept) and waits without waking while every line is stable. It ends with
    /// `stopTimer()`, or once this object is released.
    public func startTimer() { timer?.start() }

    /// Asks the timer thread to end; it does so at its next wake-up.
    public func stopTimer() { timer?.stop() }

    /// When the timer thread should settle next (under the lock); nil while every line is stable.
    private func timerWake() -> Timestamp? {
        let pending = debouncers.values.filter { $0.deadline != nil }
        guard let earliest = pending.compactMap(\.deadline).min() else { return nil }
        let step = pending.map(\.time).min() ?? .zero
        return step > .zero ? min(earliest, clock.now + step) : earliest
    }
}
