import CGPIOD
#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif

/// One requested line on the real backend. Released by `release()` or when the last reference goes.
final class LinuxGPIORequest: GPIOInputLine, GPIOOutputLine, GPIOEventSource, @unchecked Sendable {
    let id: GPIOLineID
    let name: String?
    private let chip: LinuxGPIOChip
    private let lock = Condition()
    private var request: OpaquePointer?            // guarded by `lock`; nil once released
    private var reader: GPIOEventReader?   // set once, before the request is shared
    private let buffer: UnsafeMutablePointer<appliance_gpio_edge_event>
    private var gaps = GPIOEdgeGapCheck()           // used on the reader thread only, under `lock`

    init(chip: LinuxGPIOChip, offset: Int, request: OpaquePointer) {
        self.chip = chip
        self.id = GPIOLineID(chip: chip.info.name, offset: offset)
        self.name = chip.lineInfo(offset)?.name
        self.request = request
        buffer = .allocate(capacity: gpioEventBatch)
    }

    deinit {
        release()
        buffer.deallocate()
    }

    /// Hands edge events to `reader`; fails if the request has no event descriptor.
    func deliverEvents(to reader: GPIOEventReader, handler: @escaping GPIOEdgeHandler) throws(GPIOError) {
        let (fd, error): (Int32, Errno) = lock.locked {
            guard let request else { return (-1, Errno(EBADF)) }
            let fd = appliance_gpio_get_fd(request)
            return (fd, Errno.current)
        }
        guard fd >= 0 else {
            throw .system(operation: "getting the event descriptor of line \(id.offset)", device: chip.info.path,
                          error)
        }
        guard reader.add(self, fd: fd, handler: handler) else {
            throw .system(operation: "starting the GPIO event thread", device: chip.info.path, .wouldBlock)
        }
        self.reader = reader
    }

    /// Reads queued events (called on the reader thread after poll said so), then the line's level again if
    /// the kernel dropped edges (see `GPIOEdgeGapCheck`). Returns the count, or -1.
    func readEvents(into events: UnsafeMutablePointer<GPIOEdgeEvent>) -> Int {
        lock.locked {
            guard let request else { return -1 }
            let count = Int(appliance_gpio_read_events(request, buffer, UInt32(gpioEventBatch)))
            guard count > 0 else { return count }
            for i in 0..<count {
                let raw = buffer[i]
                // libgpiod v1 has no sequence numbers: the shim gives 0, which the kernel never uses (v2 starts at 1).
                events[i] = GPIOEdgeEvent(line: GPIOLineID(chip: id.chip, offset: Int(raw.offset)),
                                          edge: raw.rising ? .rising : .falling,
                                          timestamp: Timestamp(nanoseconds: Int64(bitPattern: raw.timestamp_ns)),
                                          origin: .kernel(sequence: raw.line_seqno == 0 ? nil : raw.line_seqno))
            }
            return gaps.finish(events, count: count, line: id, level: {
                let value = appliance_gpio_get_value(request)
                return value < 0 ? nil : value == 1
            }, now: { SystemClock.shared.now })
        }
    }

    func value() throws(GPIOError) -> Bool {
        let outcome: (Int32, Errno)? = lock.locked {
            request.map { (appliance_gpio_get_value($0), Errno.current) }
        }
        guard let (result, error) = outcome else { throw .released(id) }
        guard result >= 0 else { throw .system(operation: "reading line \(id.offset)", device: chip.info.path, error) }
        return result == 1
    }

    func setValue(_ active: Bool) throws(GPIOError) {
        let outcome: (Int32, Errno)? = lock.locked {
            request.map { (appliance_gpio_set_value($0, active ? 1 : 0), Errno.current) }
        }
        guard let (result, error) = outcome else { throw .released(id) }
        guard result >= 0 else { throw .system(operation: "setting line \(id.offset)", device: chip.info.path, error) }
    }

    func release() {
        reader?.remove(self)   // first: afterwards the event thread no longer reads this request
        let request: OpaquePointer? = lock.locked {
            defer { self.request = nil }
            return self.request
        }
        if let request { appliance_gpio_release(request) }
    }
}
