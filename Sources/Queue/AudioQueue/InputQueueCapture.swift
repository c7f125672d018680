import Codec8_24
import HAL
import Synchronization

/// The render side of an input queue: the `CaptureSink` the engine feeds each captured period. It converts
/// the period (`InputFormatConverter`), meters it, and fills the queue's empty buffers with whole packets;
/// a full buffer goes back to the callback thread as a report. Buffer indices cross in through `empties`
/// and out through `reports` (both `SPSCRing`s); no object crosses.
///
/// Ownership of the capture state is a small gate (`mode`): the render thread enters a period only by
/// swapping `on` for `busy`, and the control thread takes the state over (to begin, hold, finish or discard)
/// by swapping `on` or `off` for `held`, retrying while a period is in progress (a few microseconds). So the
/// render thread never waits, and stop can drain the last frames synchronously on the control thread even
/// when no further period comes. A period that arrives while the control thread holds the state is not
/// recorded: that happens only inside start, pause, stop and reset, whose own moment it is.
final class InputQueueCapture: CaptureSink, @unchecked Sendable {
    /// What the render side tells the callback thread.
    enum Report: BitwiseCopyable {
        /// The first frame after a start was captured at this device sample time.
        case started(sampleTime: Int64)
        /// A buffer is filled (or holds the last frames before a stop).
        case filled(Filled)
    }

    struct Filled: BitwiseCopyable {
        var index: Int32
        var byteSize: Int32
        var packets: Int32
        /// The recording's frame number (queue format) of the buffer's first frame.
        var startFrame: Int64
        /// When the period holding the buffer's first frame was captured (monotonic nanoseconds).
        var hostNanoseconds: Int64
    }

    private enum Mode: UInt8 { case off, on, busy, held }

    let format: StreamFormat
    let maximumBuffers: Int
    let dither: Bool
    let meteringEnabled: Bool
    /// Empty buffers, in the order they were enqueued (control -> render).
    let empties: SPSCRing<Int32>
    /// Started and filled reports (render -> callback thread).
    let reports: SPSCRing<Report>
    /// Each buffer's memory and capacity by index, written before its first enqueue.
    private let memory: UnsafeMutablePointer<UnsafeMutableRawPointer?>
    private let capacities: UnsafeMutablePointer<Int>
    private let mode = Atomic<UInt8>(Mode.off.rawValue)

    // Capture state: touched only by whoever holds the gate.
    private var converter: InputFormatConverter?
    private var meter: LevelMeter?
    private var current = -1
    private var filledBytes = 0
    private var filledPackets = 0
    private var bufferStartFrame: Int64 = 0
    private var bufferHostNanoseconds: Int64 = 0
    /// Frames (queue format) put into buffers or dropped since creation: the next frame's number.
    private var recordedFrames: Int64 = 0
    private var startAt: Int64?
    private var startReported = true

    // Published to any thread.
    let levels: AudioQueueLevels
    private let recorded = Atomic<Int64>(0)
    private let captured = Atomic<Int64>(0)
    private let dropped = Atomic<Int64>(0)
    private let overrunCount = Atomic<Int>(0)
    private let lastSampleTime = Atomic<Int64>(0)
    private let lastHostNanoseconds = Atomic<Int64>(0)

    /// `format` has one or two channels (the widest meter a queue publishes).
    init(format: StreamFormat, maximumBuffers: Int, dither: Bool, metering: Bool) {
        self.format = format
        self.maximumBuffers = maximumBuffers
        self.dither = dither
        meteringEnabled = metering
        empties = SPSCRing(minimumCapacity: maximumBuffers)
        // Every buffer filled at most once before the callback thread polls, plus started reports.
        reports = SPSCRing(minimumCapacity: maximumBuffers + 16)
        memory = .allocate(capacity: maximumBuffers)
        memory.initialize(repeating: nil, count: maximumBuffers)
        capacities = .allocate(capacity: maximumBuffers)
        capacities.initialize(repeating: 0, count: maximumBuffers)
        levels = AudioQueueLevels(channels: format.channelsPerFrame)
    }

    deinit {
        memory.deallocate()
        capacities.deallocate()
    }

    // MARK: - Published counters

    /// Frames the engine captured into this queue while it was running (hardware rate).
    var capturedFrames: Int64 { captured.load(ordering: .relaxed) }
    /// Frames (queue format) dropped because no empty buffer was enqueued.
    var droppedFrames: Int64 { dropped.load(ordering: .relaxed) }
    /// Periods in which frames were dropped.
    var overruns: Int { overrunCount.load(ordering: .relaxed) }
    /// Frames of the queue's format recorded (or dropped) so far.
    var recordedFrameCount: Int64 { recorded.load(ordering: .relaxed) }
    /// The device sample time and monotonic time just after the last captured frame.
    var lastCapture: RenderTime {
        RenderTime(sampleTime: lastSampleTime.load(ordering: .relaxed),
                   hostTime: Timestamp(nanoseconds: lastHostNanoseconds.load(ordering: .relaxed)))
    }

    // MARK: - Control thread

    /// Builds the conversion chain and meter for the engine's capture format (`RenderHost.attach`).
    func prepare(engineRate: Int, channels: Int, maximumFrames: Int) throws {
        let converter = try InputFormatConverter(format: format, hardwareRate: engineRate, hardwareChannels: channels,
                                                 maximumFrames: maximumFrames, dither: dither)
        hold { _ in
            self.converter = converter
            // Per-period readings (average is the period's own power, as Core Audio's per-buffer meters).
            self.meter = !meteringEnabled ? nil : LevelMeter(channels: levels.channels, sampleRate: Double(engineRate),
                                    blockFrames: maximumFrames, averageTime: 0)
            return nil
        }
    }

    /// Records buffer `index`'s memory, before it is first enqueued. No need to hold the render side (so a
    /// buffer allocated while recording costs it no period): it reads the slot only after popping the index
    /// from `empties`, whose releasing push comes after these writes.
    func register(index: Int, memory bytes: UnsafeMutableRawPointer, capacity: Int) {
        memory[index] = bytes
        capacities[index] = capacity
    }

    /// Starts (or resumes) capturing from the next period, or from device sample time `at`.
    func begin(at sampleTime: Int64?) {
        hold { _ in
            startAt = sampleTime
            startReported = false
            return .on
        }
    }

    /// Stops capturing and keeps everything (pause).
    func holdPosition() {
        hold { _ in .off }
    }

    /// Stops capturing and delivers every frame captured so far: the converter's tail, a last packet padded
    /// with silence (IMA4), and the partly filled buffer. Then a later start begins a new stream.
    func finish() {
        hold { _ in
            guard let converter else { return .off }
            while !converter.drainTail() { emitPending(hostNanoseconds: lastHostNanoseconds.load(ordering: .relaxed)) }
            emitPending(hostNanoseconds: lastHostNanoseconds.load(ordering: .relaxed))
            if current >= 0 && filledPackets > 0 { deliver() }
            recorded.store(recordedFrames, ordering: .relaxed)
            converter.reset()
            meter?.reset()
            return .off
        }
    }

    /// Throws away what was captured and not yet delivered (the partial buffer stays enqueued, empty).
    func discardCaptured() {
        hold { previous in
            _ = converter?.discard()
            converter?.reset()
            filledBytes = 0
            filledPackets = 0
            return previous
        }
    }

    /// Takes the capture state from the render thread, runs `body` with the mode it was in, and leaves the
    /// mode `body` returns (nil: as it was).
    private func hold(_ body: (Mode) -> Mode?) {
        var previous = Mode.off
        while true {
            if swap(.on, for: .held) {
                previous = .on
                break
            }
            if swap(.off, for: .held) {
                previous = .off
                break
            }
            // A period is being captured right now: it ends within microseconds.
            SystemClock.shared.sleep(for: .microseconds(20))
        }
        let next = body(previous) ?? previous
        mode.store(next.rawValue, ordering: .releasing)
    }

    /// Whether `mode` was `expected` and is now `desired`; a success sees everything the last holder wrote
    /// before its releasing `store`.
    private func swap(_ expected: Mode, for desired: Mode) -> Bool {
        mode.compareExchange(expected: expected.rawValue, desired: desired.rawValue, ordering: .acquiringAndReleasing).exchanged
    }

    // MARK: - Render thread

    func capture(frames: Int, from samples: UnsafePointer<Fixed824>, channels: Int, at time: RenderTime) {
        guard swap(.on, for: .busy) else { return }
        defer { mode.store(Mode.on.rawValue, ordering: .releasing) }
        guard let converter, channels == converter.hardwareChannels, frames > 0 else { return }
        var frames = frames
        var samples = samples
        var sampleTime = time.sampleTime
        var host = time.hostTime.nanoseconds
        let rate = Int64(converter.hardwareRate)
        if let at = startAt {
            // A start at a device sample time: nothing before it is recorded.
            guard sampleTime &+ Int64(frames) > at else { return }
            if sampleTime < at {
                let skip = Int(at &- sampleTime)
                samples += skip &* channels
                frames &-= skip
                host &+= Int64(skip) &* 1_000_000_000 / rate
                sampleTime = at
            }
            startAt = nil
        }
        if !startReported {
            startReported = reports.push(.started(sampleTime: sampleTime))
        }
        captured.add(Int64(frames), ordering: .relaxed)
        lastSampleTime.store(sampleTime &+ Int64(frames), ordering: .relaxed)
        lastHostNanoseconds.store(host &+ Int64(frames) &* 1_000_000_000 / rate, ordering: .relaxed)
        var offset = 0
        while offset < frames {
            let count = min(frames &- offset, converter.maximumFrames)
            let period = converter.accept(samples + offset &* channels, frames: count)
            meter?.measure(period)
            emitPending(hostNanoseconds: host &+ Int64(offset) &* 1_000_000_000 / rate)
            offset &+= count
        }
        if let meter { levels.publish(meter) }
        recorded.store(recordedFrames, ordering: .relaxed)
    }

    /// Encodes pending packets into buffers, taking empty ones as needed; drops them when none is enqueued.
    private func emitPending(hostNanoseconds: Int64) {
        guard let converter else { return }
        let bytesPerPacket = converter.bytesPerPacket
        while converter.pendingPackets > 0 {
            if current < 0 {
                guard let index = empties.pop() else {
                    let lost = converter.discard()
                    dropped.add(Int64(lost), ordering: .relaxed)
                    overrunCount.add(1, ordering: .relaxed)
                    recordedFrames &+= Int64(lost)
                    return
                }
                current = Int(index)
                filledBytes = 0
                filledPackets = 0
            }
            if filledPackets == 0 {
                bufferStartFrame = recordedFrames
                bufferHostNanoseconds = hostNanoseconds
            }
            let room = (capacities[current] &- filledBytes) / bytesPerPacket
            let packets = converter.encode(into: memory[current]! + filledBytes, maximumPackets: room)
            filledBytes &+= packets &* bytesPerPacket
            filledPackets &+= packets
            recordedFrames &+= Int64(packets &* converter.framesPerPacket)
            if capacities[current] &- filledBytes < bytesPerPacket { deliver() }
        }
    }

    /// Hands the current buffer to the callback thread.
    private func deliver() {
        let filled = Filled(index: Int32(current), byteSize: Int32(filledBytes), packets: Int32(filledPackets),
                            startFrame: bufferStartFrame, hostNanoseconds: bufferHostNanoseconds)
        if !reports.push(.filled(filled)) {
            // Cannot happen with the ring sized for every buffer; counted as lost rather than trapping.
            dropped.add(Int64(filledPackets &* format.framesPerPacket), ordering: .relaxed)
        }
        current = -1
        filledBytes = 0
        filledPackets = 0
    }
}
