#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif

/// Something whose descriptor becomes readable when edge events are queued: a line request (or, in tests,
/// a pipe standing in for one).
protocol GPIOEventSource: AnyObject {
    /// Reads the queued events into `events` (initialized memory for `gpioEventSlots` events: assign, don't
    /// initialize) on the reader thread once poll says so: up to `gpioEventBatch` from the kernel, plus the
    /// level read again if the kernel dropped edges (`GPIOEdgeGapCheck`). Returns the count, or -1 if the
    /// source is finished.
    func readEvents(into events: UnsafeMutablePointer<GPIOEdgeEvent>) -> Int
}

/// Events read per wake-up (the kernel queues 16 per line by default).
let gpioEventBatch = 16
/// Room for one batch and the level read again after a gap.
let gpioEventSlots = gpioEventBatch + 1

/// The thread that reads edge events off the kernel, away from the control path and never near audio.
///
/// Threading: one thread per `LinuxGPIO`, started with the first edge-detecting request and ended when the
/// last one is released. It sleeps in `poll()` over every request's event descriptor plus the read end of a
/// wake-up pipe; registering or unregistering a request writes a byte to the pipe so the thread picks up the
/// new set. It reads up to 16 events per wake-up and calls each request's handler in kernel order.
/// `remove` returns only once the thread no longer uses the request (called from a handler on the thread
/// itself, it returns at once and the remaining events of that batch are dropped), so a released request's
/// handler never runs again and its descriptor can be closed.
final class GPIOEventReader: @unchecked Sendable {
    /// A source of events: the request that owns the descriptor.
    struct Entry {
        let fd: Int32
        /// Weak, so a request nobody releases still goes away; its deinit unregisters it.
        weak var source: (any GPIOEventSource)?
        let key: ObjectIdentifier
        let handler: GPIOEdgeHandler
    }

    private let condition = Condition()
    // Guarded by `condition`:
    private var entries: [ObjectIdentifier: Entry] = [:]
    private var generation = 0          // bumped by every change of `entries`
    private var acknowledged = 0        // the generation the thread has taken in
    private var running = false
    private var thread: pthread_t?
    // The wake-up pipe: [read, write], both non-blocking and close-on-exec.
    private let wake: (read: Int32, write: Int32)

    init() {
        var fds: [Int32] = [-1, -1]
        if pipe(&fds) == 0 {
            for fd in fds {
                _ = fcntl(fd, F_SETFL, fcntl(fd, F_GETFL) | O_NONBLOCK)
                _ = fcntl(fd, F_SETFD, FD_CLOEXEC)
            }
        }
        wake = (fds[0], fds[1])
    }

    deinit {
        close(wake.read)
        close(wake.write)
    }

    /// Starts delivering `source`'s events to `handler`. Returns false if no thread could be started.
    func add(_ source: any GPIOEventSource, fd: Int32, handler: @escaping GPIOEdgeHandler) -> Bool {
        condition.locked {
            entries[ObjectIdentifier(source)] = Entry(fd: fd, source: source, key: ObjectIdentifier(source), handler: handler)
            generation += 1
            if running {
                poke()
                return true
            }
            running = startGPIOThread { [self] in loop() }
            if !running { entries[ObjectIdentifier(source)] = nil }
            return running
        }
    }

    /// Stops delivering `source`'s events; on return the thread no longer touches it.
    func remove(_ source: any GPIOEventSource) {
        var target = 0
        var wait = false
        condition.broadcast {
            guard entries.removeValue(forKey: ObjectIdentifier(source)) != nil else { return }
            generation += 1
            target = generation
            let onReaderThread = thread.map { pthread_equal($0, pthread_self()) != 0 } ?? false
            wait = running && !onReaderThread
            poke()
        }
        if wait { condition.wait { acknowledged >= target || !running } }
    }

    /// Whether the thread is running (for tests: it ends with the last source).
    var isRunning: Bool { condition.locked { running } }

    private func poke() {
        var byte: UInt8 = 1
        _ = write(wake.write, &byte, 1)
    }

    private func isRegistered(_ entry: Entry) -> Bool {
        condition.locked { entries[entry.key] != nil }
    }

    private func loop() {
        // Initialized once, so sources can assign into it (an event holds a String: assigning into raw memory
        // would release garbage).
        let events = UnsafeMutablePointer<GPIOEdgeEvent>.allocate(capacity: gpioEventSlots)
        events.initialize(repeating: GPIOEdgeEvent(line: GPIOLineID(chip: "", offset: 0), edge: .rising, timestamp: .zero),
                          count: gpioEventSlots)
        defer {
            events.deinitialize(count: gpioEventSlots)
            events.deallocate()
        }
        var pollfds: [pollfd] = []
        var current: [Entry] = []
        while true {
            // Take in the current set (acknowledging removals), or end when nothing is left to watch.
            let keepGoing: Bool = condition.locked {
                acknowledged = generation
                if thread == nil { thread = pthread_self() }
                if entries.isEmpty {
                    running = false
                    thread = nil
                    return false
                }
                current = Array(entries.values)
                return true
            }
            condition.broadcast()
            guard keepGoing else { return }

            pollfds.removeAll(keepingCapacity: true)
            pollfds.append(pollfd(fd: wake.read, events: Int16(POLLIN), revents: 0))
            for entry in current { pollfds.append(pollfd(fd: entry.fd, events: Int16(POLLIN), revents: 0)) }
            let ready = poll(&pollfds, nfds_t(pollfds.count), -1)
            if ready < 0 { continue }   // EINTR: look again
            if pollfds[0].revents != 0 { drainWakePipe() }
            for index in current.indices {
                let revents = Int32(pollfds[index + 1].revents)
                guard revents != 0 else { continue }
                let entry = current[index]
                guard isRegistered(entry), let source = entry.source else { continue }
                if revents & Int32(POLLIN) != 0 {
                    let count = source.readEvents(into: events)
                    for i in 0..<max(count, 0) {
                        guard isRegistered(entry) else { break }
                        entry.handler(events[i])
                    }
                    if count < 0 { drop(entry) }
                } else {
                    drop(entry)  // POLLERR/POLLHUP/POLLNVAL: the chip went away; stop spinning on it
                }
            }
        }
    }

    private func drop(_ entry: Entry) {
        condition.locked {
            entries[entry.key] = nil
            generation += 1
        }
    }

    private func drainWakePipe() {
        var buffer = [UInt8](repeating: 0, count: 64)
        while read(wake.read, &buffer, buffer.count) > 0 {}
    }
}
