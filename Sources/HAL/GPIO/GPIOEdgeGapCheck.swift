/// Notices edges the kernel dropped from one request's event queue and adds the line's level, read again,
/// so that nothing downstream (a debouncer) keeps a level the line no longer has.
///
/// The kernel's queue is bounded (drivers/gpio/gpiolib-cdev.c): with the v2 uAPI it holds
/// `event_buffer_size` events, 16 per requested line by default (`linereq_create`), and when full
/// `linereq_put_event` drops the oldest to queue the newest; every edge still advances the line's sequence
/// number (`edge_irq_thread`), so a jump in `line_seqno` counts what was lost. The v1 uAPI holds 16 events
/// (`struct lineevent_state`) and `lineevent_irq_thread` drops the newest when full, without any sequence
/// number: the last event read can then be several edges stale, and the only sign is a read that took a
/// full queue.
///
/// Rule, per batch read: after a sequence gap (v2), the level is read again and always delivered as a
/// `.reread(lost:)` event after the batch, so the loss is reported; after a batch as large as the kernel's
/// queue without sequence numbers (v1), the level is read again and delivered as `.reread(lost: nil)` only
/// if it disagrees with the batch's last edge. Used by the real request and the simulated twin alike.
struct GPIOEdgeGapCheck: Hashable, Sendable {
    /// How many events the kernel queues for this request before it drops some.
    let queueCapacity: Int
    /// The last line sequence number seen (0: none yet; the kernel's first is 1).
    private var lastSequence: UInt64 = 0

    init(queueCapacity: Int = gpioKernelEventQueue) {
        self.queueCapacity = queueCapacity
    }

    /// Checks the `count` events just read into `events` and, when edges were lost, appends the re-read level
    /// (at `events[count]`: the buffer has room for one more than a batch). `level` reads the line's logical
    /// level now (nil if it cannot); `now` is the time of that read. Returns the new count.
    mutating func finish(_ events: UnsafeMutablePointer<GPIOEdgeEvent>, count: Int, line: GPIOLineID,
                         level: () -> Bool?, now: () -> Timestamp) -> Int {
        guard count > 0 else { return count }
        var lost = 0
        var sequenced = false
        for index in 0..<count {
            guard case .kernel(let sequence?) = events[index].origin else { continue }
            sequenced = true
            // The uAPI's line_seqno is a __u32: it wraps, so the step is taken modulo 2^32.
            let step = UInt32(truncatingIfNeeded: sequence &- lastSequence)
            if step > 1 { lost += Int(step) - 1 }
            lastSequence = sequence
        }
        let last = events[count - 1].edge.level
        let origin: GPIOEdgeOrigin
        if sequenced {
            guard lost > 0 else { return count }
            origin = .reread(lost: lost)
        } else {
            guard count >= queueCapacity else { return count }
            origin = .reread(lost: nil)
        }
        guard let active = level() else { return count }
        if case .reread(nil) = origin, active == last { return count }
        events[count] = GPIOEdgeEvent(line: line, edge: active ? .rising : .falling, timestamp: now(), origin: origin)
        return count + 1
    }
}

/// The kernel's event queue per line request of one line: 16 (v2: `linereq_create`'s default of
/// 16 * num_lines; v1: the fixed `DECLARE_KFIFO(events, struct gpioevent_data, 16)`).
let gpioKernelEventQueue = 16
