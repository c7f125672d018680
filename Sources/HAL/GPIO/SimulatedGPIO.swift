/// GPIO lines without hardware: chips and lines whose levels a test (or the console) sets, on a `ManualClock`.
///
/// It behaves like a gpio-sim chip under the real backend: each line has a pull (pull-down until a request
/// asks otherwise, as gpio-sim starts), an optional external drive (a button, a jack switch) that overrides
/// the pull, and at most one request. Inputs read the logical level (active-low applied); edge events carry
/// the clock's time; outputs drive the line and read back. Missing chips and lines, busy lines, inaccessible
/// chips and chips without pull support fail with the same `GPIOError`s as `LinuxGPIO`.
///
/// Edge events go through a kernel-like queue per request, bounded at 16 like the kernel's, with line sequence
/// numbers as libgpiod v2 gives them (or none, `.v1`). While the reader runs (the default) each event is
/// read as soon as it is queued; `stallReader()` stops it, as a busy event thread would be stopped, so edges
/// pile up and overflow the way the kernel's do (v2 drops the oldest, v1 the newest); `resumeReader()` reads
/// the queues in batches through the same `GPIOEdgeGapCheck` as `LinuxGPIO`.
///
/// Threading: edge handlers run synchronously on the thread that changes a level (`setLevel`, `press`,
/// `advance`) or resumes the reader, after the simulator's lock is let go, in time order.
public final class SimulatedGPIO: GPIOController, @unchecked Sendable {
    /// Which kernel uAPI the simulated libgpiod speaks: how a full event queue drops edges, and whether
    /// events carry sequence numbers.
    public enum EventAPI: Sendable {
        /// libgpiod v2 (GPIO uAPI v2): `linereq_put_event` drops the oldest queued event; `line_seqno` counts
        /// every edge from 1 (`edge_irq_thread`).
        case v2
        /// libgpiod v1 (uAPI v1): `lineevent_irq_thread` drops the new event when the queue is full; no
        /// sequence numbers.
        case v1
    }

    /// One simulated chip, named `gpiochipN` and found at `/dev/gpiochipN` by its position.
    public struct Chip: Sendable {
        public var label: String
        public var lineCount: Int
        public var lineNames: [Int: String]
        /// False models a kernel before 5.5 or a controller without pulls: bias requests fail.
        public var supportsBias: Bool
        /// False models a /dev/gpiochipN the user may not open (EACCES).
        public var accessible: Bool

        public init(label: String, lineCount: Int, lineNames: [Int: String] = [:], supportsBias: Bool = true,
                    accessible: Bool = true) {
            self.label = label
            self.lineCount = lineCount
            self.lineNames = lineNames
            self.supportsBias = supportsBias
            self.accessible = accessible
        }
    }

    /// A requested line's state, as the kernel would hold it.
    struct Holder {
        let request: ObjectIdentifier
        let consumer: String
        let activeLow: Bool
        let edges: GPIOEdgeDetection
        let handler: GPIOEdgeHandler?
        /// For an output: the physical level it drives.
        var drive: Bool?
        /// The logical level last reported (for edge detection).
        var lastLogical: Bool
        /// The kernel's queue of events not yet read, and the line's last sequence number.
        var queue: [GPIOEdgeEvent] = []
        var sequence: UInt64 = 0
        var gaps = GPIOEdgeGapCheck()
    }

    struct Line {
        var pull = false            // gpio-sim pulls down until told otherwise
        var external: Bool?         // something outside drives the pin; nil: unconnected
        var holder: Holder?

        var physical: Bool { holder?.drive ?? external ?? pull }
    }

    struct Change {
        let time: Timestamp
        let order: Int
        let line: GPIOLineID
        let level: Bool?
    }

    public let clock: ManualClock
    public let eventAPI: EventAPI
    private let specs: [Chip]
    private let infos: [GPIOChipInfo]
    private let condition = Condition()
    // Guarded by `condition`:
    private var lines: [GPIOLineID: Line] = [:]
    private var scheduled: [Change] = []
    private var order = 0
    private var stalled = false

    public init(clock: ManualClock, chips: [Chip], eventAPI: EventAPI = .v2) {
        self.clock = clock
        self.eventAPI = eventAPI
        specs = chips
        infos = chips.enumerated().map { index, chip in
            GPIOChipInfo(path: "/dev/gpiochip\(index)", name: "gpiochip\(index)", label: chip.label,
                         lineCount: chip.lineCount)
        }
    }

    // MARK: GPIOController

    public func chips() throws(GPIOError) -> [GPIOChipInfo] {
        infos.indices.filter { specs[$0].accessible }.map { infos[$0] }
    }

    public func requestInput(_ line: GPIOLineSelector, on chip: GPIOChipSelector, _ config: GPIOInputConfig,
                             onEdge: GPIOEdgeHandler?) throws(GPIOError) -> any GPIOInputLine {
        let (index, offset) = try resolve(line, on: chip)
        let id = GPIOLineID(chip: infos[index].name, offset: offset)
        if config.bias != .asIs && !specs[index].supportsBias { throw .unsupportedBias(id, config.bias) }
        let request = SimulatedGPIORequest(simulator: self, id: id, name: specs[index].lineNames[offset])
        let edges = onEdge == nil ? GPIOEdgeDetection.none : config.edges
        try condition.locked { () -> Result<Void, GPIOError> in
            var state = lines[id] ?? Line()
            if let holder = state.holder { return .failure(.lineBusy(id, consumer: holder.consumer)) }
            switch config.bias {
            case .pullUp: state.pull = true
            case .pullDown: state.pull = false
            case .asIs, .disabled: break      // gpio-sim keeps its last pull
            }
            state.holder = Holder(request: ObjectIdentifier(request), consumer: config.consumer,
                                  activeLow: config.activeLow, edges: edges, handler: onEdge, drive: nil,
                                  lastLogical: state.physical != config.activeLow)
            lines[id] = state
            return .success(())
        }.get()
        return request
    }

    public func requestOutput(_ line: GPIOLineSelector, on chip: GPIOChipSelector,
                              _ config: GPIOOutputConfig) throws(GPIOError) -> any GPIOOutputLine {
        let (index, offset) = try resolve(line, on: chip)
        let id = GPIOLineID(chip: infos[index].name, offset: offset)
        let request = SimulatedGPIORequest(simulator: self, id: id, name: specs[index].lineNames[offset])
        try condition.locked { () -> Result<Void, GPIOError> in
            var state = lines[id] ?? Line()
            if let holder = state.holder { return .failure(.lineBusy(id, consumer: holder.consumer)) }
            state.holder = Holder(request: ObjectIdentifier(request), consumer: config.consumer,
                                  activeLow: config.activeLow, edges: .none, handler: nil,
                                  drive: config.initialValue != config.activeLow, lastLogical: config.initialValue)
            lines[id] = state
            return .success(())
        }.get()
        return request
    }

    /// The chip index and line offset a request means, checked the way the kernel checks them.
    private func resolve(_ line: GPIOLineSelector, on selector: GPIOChipSelector) throws(GPIOError) -> (Int, Int) {
        guard let index = infos.firstIndex(where: selector.matches) else {
            if case .label = selector, let denied = specs.indices.first(where: { !specs[$0].accessible }) {
                throw .permissionDenied(path: infos[denied].path)   // it may be the one we cannot open
            }
            throw .chipNotFound(selector, available: try chips())
        }
        guard specs[index].accessible else { throw .permissionDenied(path: infos[index].path) }
        switch line {
        case .offset(let offset):
            guard offset >= 0, offset < infos[index].lineCount else {
                throw .lineOutOfRange(chip: infos[index], offset: offset)
            }
            return (index, offset)
        case .name(let name):
            guard let offset = specs[index].lineNames.filter({ $0.value == name }).keys.min() else {
                throw .lineNotFound(chip: infos[index], name: name)
            }
            return (index, offset)
        }
    }

    // MARK: the world outside the pins

    /// Drives the pin from outside (`true` high, `false` low) or disconnects it (`nil`: the pull decides),
    /// now. An input with edge detection gets an event if its logical level changes.
    public func setLevel(_ line: GPIOLineID, to level: Bool?) {
        deliver(condition.locked { change(line, level: level) })
    }

    /// The pin's physical level: what an output drives, else the outside drive, else the pull.
    public func level(_ line: GPIOLineID) -> Bool {
        condition.locked { lines[line]?.physical ?? false }
    }

    /// The consumer name holding the line, or nil when it is free.
    public func consumer(of line: GPIOLineID) -> String? {
        condition.locked { lines[line]?.holder?.consumer }
    }

    /// Presses a button on the line: the pin goes to its active level now, then bounces, toggling at each of
    /// `bounce` (offsets from now, increasing, an even number so the contact ends closed). "Active" follows
    /// the request's active-low; an unrequested line is active-high.
    public func press(_ line: GPIOLineID, bounce: [Duration] = []) { move(line, toActive: true, bounce: bounce) }

    /// Lets go of the button: the pin goes inactive now, bouncing at the `bounce` offsets like `press`.
    public func letGo(_ line: GPIOLineID, bounce: [Duration] = []) { move(line, toActive: false, bounce: bounce) }

    /// Sets the outside drive at a future time; it happens when `advance` reaches it.
    public func schedule(_ line: GPIOLineID, level: Bool?, at time: Timestamp) {
        condition.locked { enqueue(line, level: level, at: time) }
    }

    /// Moves the clock forward by `duration`, applying scheduled changes at their times.
    public func advance(by duration: Duration) { advance(to: clock.now + duration) }

    /// Moves the clock forward to `deadline`, stopping at each scheduled change to apply it and deliver its
    /// event with that time.
    public func advance(to deadline: Timestamp) {
        while true {
            let next: Change? = condition.locked {
                guard let first = scheduled.indices.min(by: { (scheduled[$0].time, scheduled[$0].order)
                                                                < (scheduled[$1].time, scheduled[$1].order) }),
                      scheduled[first].time <= deadline else { return nil }
                return scheduled.remove(at: first)
            }
            guard let next else { break }
            clock.advance(to: next.time)
            deliver(condition.locked { change(next.line, level: next.level) })
        }
        clock.advance(to: deadline)
    }

    private func move(_ line: GPIOLineID, toActive active: Bool, bounce: [Duration]) {
        precondition(bounce.count % 2 == 0, "an even number of bounce toggles ends on the pressed level")
        let now = clock.now
        let events: [(GPIOEdgeHandler, GPIOEdgeEvent)] = condition.locked {
            let activeLow = lines[line]?.holder?.activeLow ?? false
            let high = active != activeLow
            var level = high
            for offset in bounce {
                precondition(offset > .zero, "bounce offsets lie after the press")
                level.toggle()
                enqueue(line, level: level, at: now + offset)
            }
            return change(line, level: high)
        }
        deliver(events)
    }

    /// Stops reading events, as a busy event thread would: edges queue in the kernel's bounded queue.
    public func stallReader() { condition.locked { stalled = true } }

    /// Reads every queue in batches of 16, as the event thread does once it runs again, and keeps reading
    /// each new event at once from then on.
    public func resumeReader() {
        deliver(condition.locked {
            stalled = false
            var events: [(GPIOEdgeHandler, GPIOEdgeEvent)] = []
            for line in lines.keys.sorted(by: { ($0.chip, $0.offset) < ($1.chip, $1.offset) }) {
                while lines[line]?.holder?.queue.isEmpty == false { events += readBatch(line) }
            }
            return events
        })
    }

    /// How many events wait in the line's kernel queue.
    public func queuedEvents(_ line: GPIOLineID) -> Int {
        condition.locked { lines[line]?.holder?.queue.count ?? 0 }
    }

    private func enqueue(_ line: GPIOLineID, level: Bool?, at time: Timestamp) {
        order += 1
        scheduled.append(Change(time: time, order: order, line: line, level: level))
    }

    /// Sets the outside drive and queues the edge event it causes, if any (under the lock).
    private func apply(_ line: GPIOLineID, level: Bool?) {
        var state = lines[line] ?? Line()
        state.external = level
        lines[line] = state
        guard var holder = state.holder, holder.drive == nil else { return }
        let logical = state.physical != holder.activeLow
        guard logical != holder.lastLogical else { return }
        holder.lastLogical = logical
        defer {
            state.holder = holder
            lines[line] = state
        }
        let edge: GPIOEdge = logical ? .rising : .falling
        guard holder.handler != nil, holder.edges.includes(edge) else { return }
        var sequence: UInt64?
        if eventAPI == .v2 {
            holder.sequence += 1
            sequence = holder.sequence
        }
        let event = GPIOEdgeEvent(line: line, edge: edge, timestamp: clock.now, origin: .kernel(sequence: sequence))
        if holder.queue.count < holder.gaps.queueCapacity {
            holder.queue.append(event)
        } else if eventAPI == .v2 {
            holder.queue.removeFirst()       // linereq_put_event: kfifo_skip, then kfifo_in
            holder.queue.append(event)
        }                                    // v1: kfifo_in fails and the new event is lost
    }

    /// Sets the outside drive and returns the events the reader takes at once (none while it is stalled).
    private func change(_ line: GPIOLineID, level: Bool?) -> [(GPIOEdgeHandler, GPIOEdgeEvent)] {
        apply(line, level: level)
        return stalled ? [] : readBatch(line)
    }

    /// Reads up to a batch of the line's queued events, as `LinuxGPIORequest.readEvents` does (under the lock).
    private func readBatch(_ line: GPIOLineID) -> [(GPIOEdgeHandler, GPIOEdgeEvent)] {
        guard var state = lines[line], var holder = state.holder, let handler = holder.handler else { return [] }
        let taken = Array(holder.queue.prefix(gpioEventBatch))
        holder.queue.removeFirst(taken.count)
        // Initialized throughout, as the reader thread's buffer is: the gap check assigns into the next slot.
        let events = UnsafeMutablePointer<GPIOEdgeEvent>.allocate(capacity: gpioEventSlots)
        events.initialize(repeating: GPIOEdgeEvent(line: line, edge: .rising, timestamp: .zero), count: gpioEventSlots)
        defer {
            events.deinitialize(count: gpioEventSlots)
            events.deallocate()
        }
        for (index, event) in taken.enumerated() { events[index] = event }
        let logical = state.physical != holder.activeLow
        let now = clock.now
        let count = holder.gaps.finish(events, count: taken.count, line: line, level: { logical }, now: { now })
        state.holder = holder
        lines[line] = state
        return (0..<count).map { (handler, events[$0]) }
    }

    private func deliver(_ events: [(GPIOEdgeHandler, GPIOEdgeEvent)]) {
        for (handler, event) in events { handler(event) }
    }

    // MARK: used by requests

    func value(of line: GPIOLineID, for request: ObjectIdentifier) throws(GPIOError) -> Bool {
        try condition.locked { () -> Result<Bool, GPIOError> in
            guard let state = lines[line], let holder = state.holder, holder.request == request else {
                return .failure(.released(line))
            }
            return .success(state.physical != holder.activeLow)
        }.get()
    }

    func setValue(_ active: Bool, of line: GPIOLineID, for request: ObjectIdentifier) throws(GPIOError) {
        try condition.locked { () -> Result<Void, GPIOError> in
            guard var state = lines[line], var holder = state.holder, holder.request == request else {
                return .failure(.released(line))
            }
            // Like the kernel: setting an input's value is refused.
            guard holder.drive != nil else {
                return .failure(.system(operation: "setting line \(line.offset)", device: "/dev/\(line.chip)",
                                        .notPermitted))
            }
            holder.drive = active != holder.activeLow
            holder.lastLogical = active
            state.holder = holder
            lines[line] = state
            return .success(())
        }.get()
    }

    func free(_ line: GPIOLineID, for request: ObjectIdentifier) {
        condition.locked {
            guard var state = lines[line], state.holder?.request == request else { return }
            state.holder = nil
            lines[line] = state
        }
    }
}

extension GPIOEdgeDetection {
    /// Whether a request with this detection reports `edge`.
    func includes(_ edge: GPIOEdge) -> Bool {
        switch self {
        case .none: false
        case .rising: edge == .rising
        case .falling: edge == .falling
        case .both: true
        }
    }
}

/// A line requested from `SimulatedGPIO`.
final class SimulatedGPIORequest: GPIOInputLine, GPIOOutputLine, @unchecked Sendable {
    let id: GPIOLineID
    let name: String?
    private let simulator: SimulatedGPIO

    init(simulator: SimulatedGPIO, id: GPIOLineID, name: String?) {
        self.simulator = simulator
        self.id = id
        self.name = name
    }

    deinit { simulator.free(id, for: ObjectIdentifier(self)) }

    func value() throws(GPIOError) -> Bool { try simulator.value(of: id, for: ObjectIdentifier(self)) }

    func setValue(_ active: Bool) throws(GPIOError) {
        try simulator.setValue(active, of: id, for: ObjectIdentifier(self))
    }

    func release() { simulator.free(id, for: ObjectIdentifier(self)) }
}
