/// Watches the headphone jack and reports `JackEvent`s: plugged, pulled, headset or headphones.
///
/// Signals come from GPIO lines (debounced by `DebouncedInputs`, with the kernel's edge timestamps) or
/// from a codec's status register (polled every `pollInterval` and debounced the same way), or one of
/// each. `JackStateMachine` turns the debounced levels into states.
///
/// Driving it: edges arrive by themselves; pending decisions and polls happen when `tick()` runs at or
/// after `nextDeadline` — call it from a control loop (tests, with a `ManualClock`), or `startTimer()`
/// for threads that do it. `onEvent` runs one event at a time, in order, on whichever thread made the
/// change visible; keep it short.
public final class JackDetector: @unchecked Sendable {
    /// One of the jack's two signals.
    enum Signal: String {
        case plug
        case microphone
    }

    public let sensing: JackSensing
    public let clock: any MonotonicClock
    private let bus: (any RegisterBus)?
    private let delivery: SerialDelivery<JackEvent>
    private var inputs: DebouncedInputs?
    /// Runs `tick()` at pending decisions and polls; set once in `init`.
    private var timer: DeadlineThread?
    /// The requested GPIO lines, kept so their events keep coming.
    private var lines: [any GPIOInputLine] = []
    private var lineSignals: [GPIOLineID: Signal] = [:]
    private let condition = Condition()
    // Guarded by `condition`:
    private var machine: JackStateMachine
    private var polled: [Signal: (bits: JackStatusBits, debouncer: Debouncer, raw: Bool)] = [:]
    private var nextPoll: Timestamp?

    /// Requests the GPIO lines and reads the signals' current levels: the initial state is reported by
    /// `state`, not as an event. `gpio` and `bus` are needed only for the sources that use them.
    public init(sensing: JackSensing, gpio: (any GPIOController)? = nil, bus: (any RegisterBus)? = nil,
                clock: any MonotonicClock, onEvent: @escaping @Sendable (JackEvent) -> Void) throws(JackDetectorError) {
        self.sensing = sensing
        self.clock = clock
        self.bus = bus
        delivery = SerialDelivery(onEvent)
        machine = JackStateMachine(plugged: false, microphone: false, sensesMicrophone: sensing.microphone != nil,
                                   microphoneSettle: sensing.microphoneSettle, microphoneSettleLimit: sensing.microphoneSettleLimit)
        let inputs = DebouncedInputs(clock: clock) { [weak self] change in self?.debounced(change) }
        self.inputs = inputs

        var levels: [Signal: Bool] = [:]
        let signals: [(Signal, JackSignalSource?)] = [(.plug, sensing.plug), (.microphone, sensing.microphone)]
        for case let (signal, source?) in signals {
            switch source {
            case .gpio(let chip, let line, let config):
                guard let gpio else { throw .missingSource(signal: signal.rawValue, needs: "a GPIO line") }
                do {
                    let requested = try inputs.request(line, on: chip, from: gpio, config)
                    lines.append(requested)
                    condition.locked { lineSignals[requested.id] = signal }
                    levels[signal] = inputs.level(of: requested.id) ?? false
                } catch {
                    throw .gpio(signal: signal.rawValue, error)
                }
            case .codecStatus(let bits):
                let present = try readStatus(bits, signal: signal)
                levels[signal] = present
                condition.locked {
                    polled[signal] = (bits, Debouncer(line: Self.statusLine(signal), time: bits.debounce, level: present), present)
                }
            }
        }
        let now = clock.now
        condition.locked {
            machine = JackStateMachine(plugged: levels[.plug] ?? false, microphone: levels[.microphone] ?? false,
                                       sensesMicrophone: sensing.microphone != nil,
                                       microphoneSettle: sensing.microphoneSettle, microphoneSettleLimit: sensing.microphoneSettleLimit)
            if !polled.isEmpty { nextPoll = now + sensing.pollInterval }
        }
        timer = DeadlineThread(condition: condition, clock: clock, nextWake: { [weak self] in
            guard let self else { return .finish }
            return [machine.deadline, nextPoll].compactMap { $0 }.min().map { .at($0) } ?? .idle
        }, work: { [weak self] in try? self?.tick() })
    }

    deinit {
        stopTimer()
    }

    /// What is in the jack now (as last reported, or the initial state).
    public var state: JackState { condition.locked { machine.state } }

    /// The earliest time `tick()` has something to do: a pending headset decision or a status poll.
    /// (GPIO debouncing has its own deadlines, in `DebouncedInputs`; `startTimer()` runs both.)
    public var nextDeadline: Timestamp? {
        condition.locked { [machine.deadline, nextPoll].compactMap { $0 }.min() }
    }

    /// When a debounced GPIO line's pending level is next due (the same `tick()` settles it); nil when the
    /// lines are stable. A loop that ticks only at deadlines needs this besides `nextDeadline`.
    public var debounceDeadline: Timestamp? { inputs?.nextDeadline }

    /// Settles debounced GPIO levels, polls status registers that are due and decides a pending insertion,
    /// all as of the clock's current time.
    public func tick() throws(JackDetectorError) {
        let now = clock.now
        inputs?.settle(at: now)
        try pollIfDue(at: now)
        // The microphone's settled level, even if another thread has not yet delivered its change: a pending
        // insertion is decided on what the line says now, and waits while the line is still moving.
        let microphoneLine = condition.locked { lineSignals.first { $0.value == .microphone }?.key }
        let microphone = microphoneLine.flatMap { inputs?.level(of: $0) }
        let microphoneQuietAt = microphoneLine.flatMap { inputs?.quietAt($0) }
        condition.locked {
            if machine.deadline != nil {
                if let microphone { _ = machine.microphone(microphone, at: now) }
                machine.microphoneLine(quietAt: microphoneLine != nil ? microphoneQuietAt
                                                                     : polled[.microphone]?.debouncer.quietAt)
            }
            if let event = machine.settle(at: now) { delivery.post(event) }
        }
        delivery.drain()
    }

    // MARK: Signals

    /// A debounced line change; broadcast, since an insertion gives the timer thread a deadline.
    private func debounced(_ change: DebouncedChange) {
        condition.broadcast {
            guard let signal = lineSignals[change.line] else { return }
            apply(signal, present: change.active, at: change.timestamp)
        }
        delivery.drain()
    }

    /// Under the lock.
    private func apply(_ signal: Signal, present: Bool, at timestamp: Timestamp) {
        let event = switch signal {
        case .plug: machine.plug(present, at: timestamp)
        case .microphone: machine.microphone(present, at: timestamp)
        }
        if let event { delivery.post(event) }
    }

    private func pollIfDue(at now: Timestamp) throws(JackDetectorError) {
        let due: [(Signal, JackStatusBits)] = condition.locked {
            guard let nextPoll, now >= nextPoll else { return [] }
            self.nextPoll = now + sensing.pollInterval
            return polled.map { ($0.key, $0.value.bits) }.sorted { $0.0.rawValue > $1.0.rawValue }  // plug first
        }
        for (signal, bits) in due {
            let present = try readStatus(bits, signal: signal)
            condition.broadcast {
                guard var entry = polled[signal] else { return }
                // A polled level that differs from the last one is an edge at the poll's time.
                if present != entry.raw, let change = entry.debouncer.edge(to: present, at: now) {
                    apply(signal, present: change.active, at: change.timestamp)
                }
                entry.raw = present
                if let change = entry.debouncer.settle(at: now) {
                    apply(signal, present: change.active, at: change.timestamp)
                }
                polled[signal] = entry
            }
        }
        delivery.drain()
    }

    private func readStatus(_ bits: JackStatusBits, signal: Signal) throws(JackDetectorError) -> Bool {
        guard let bus else { throw .missingSource(signal: signal.rawValue, needs: "the codec's status register") }
        do {
            return bits.isPresent(in: try bus.read(bits.register))
        } catch {
            throw .statusRead(signal: signal.rawValue, error)
        }
    }

    /// Status signals are debounced like lines; this names them in a `DebouncedChange`.
    private static func statusLine(_ signal: Signal) -> GPIOLineID {
        GPIOLineID(chip: "codec-status", offset: signal == .plug ? 0 : 1)
    }

    // MARK: The timer thread

    /// Starts the threads that run GPIO debouncing, pending decisions and status polls at their
    /// deadlines. They end with `stopTimer()` or when this object is released. Poll failures are retried at
    /// the next poll.
    public func startTimer() {
        inputs?.startTimer()
        timer?.start()
    }

    public func stopTimer() {
        inputs?.stopTimer()
        timer?.stop()
    }
}
