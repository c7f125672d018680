import HAL
import Synchronization

/// Where a recording's packets go: an `AudioFile` open for writing (a protocol, so a test can make the
/// disk fail).
public protocol RecordingDestination: AnyObject {
    var dataFormat: StreamFormat { get }
    /// Appends whole packets of `dataFormat`.
    func writePackets(_ bytes: UnsafeRawBufferPointer, packetCount: Int) throws
    /// Finishes the file (final sizes in the header) so it reads back.
    func close() throws
}

extension AudioFile: RecordingDestination {}

/// Why a recording ended badly: one error, saying what failed, how much was kept, and what to check.
public struct RecordingWriterError: Error, Sendable, CustomStringConvertible {
    public enum Kind: Sendable, Hashable {
        /// Writing packets failed (the recording stopped there; the file holds what came before).
        case write
        /// Finishing the file failed.
        case close
    }

    public let kind: Kind
    public let message: String
    public let hint: String
    /// Packets safely written before the failure.
    public let packetsWritten: Int64

    public var description: String { "\(message) (\(hint))" }
}

/// The recording writer thread (DESIGN.md data flow: input queue buffers -> writer thread -> AudioFile): it
/// is the input queue's callback thread, so every filled buffer is written to the file there, off the render
/// thread, and enqueued again right after. It times every write, so the queue's buffers can be sized from the
/// latency the disk really shows (`recommendedPlan`, see `RecordingBufferPlan` for how).
///
/// On a write error it stops the queue, drops what the queue still delivers, and `finish` closes the file
/// (AudioFile's crash-safe header then covers exactly what was written) and throws one `RecordingWriterError`.
public final class RecordingWriter: @unchecked Sendable {
    /// Write latencies so far.
    public struct Latency: Sendable, Hashable {
        /// The slowest write since the writer started.
        public var worst: Duration = .zero
        /// The slowest of the last `recentWindow` writes.
        public var recent: Duration = .zero
        public var writes = 0
    }

    /// Writes `recent` looks back over.
    public static let recentWindow = 16

    public let destination: RecordingDestination
    /// The thread that writes: give it to the input queue as its callback thread.
    public let thread: AudioQueueCallbackThread
    private let clock: MonotonicClock

    private struct State {
        var latency = Latency()
        var window: [Duration] = []
        var packetsWritten: Int64 = 0
        var framesWritten: Int64 = 0
        var error: RecordingWriterError?
        var finished = false
    }

    private let state = Mutex(State())

    /// Starts the writer thread, named `name`. `clock` times the writes.
    public init(destination: RecordingDestination, name: String = "recording writer",
                clock: MonotonicClock = SystemClock.shared) throws(AudioQueueError) {
        self.destination = destination
        self.clock = clock
        thread = try AudioQueueCallbackThread(name: name)
    }

    /// The callback to create the input queue with (on `thread`).
    public var callback: InputQueue.Callback {
        { [self] queue, recorded in write(recorded, from: queue) }
    }

    public var latency: Latency { state.withLock { $0.latency } }
    public var packetsWritten: Int64 { state.withLock { $0.packetsWritten } }
    /// The error that stopped the recording, if one did.
    public var error: RecordingWriterError? { state.withLock { $0.error } }

    /// The buffers to give a queue recording `format` in buffers of `bufferDuration` seconds, from the worst
    /// write latency measured so far (see `RecordingBufferPlan`).
    public func recommendedPlan(bufferDuration: Double, format: StreamFormat) -> RecordingBufferPlan {
        RecordingBufferPlan.covering(worstLatency: latency.worst, pollInterval: thread.pollInterval,
                                     bufferDuration: bufferDuration, format: format)
    }

    /// Allocates and enqueues `plan`'s buffers on `queue` and starts it. A plan with more buffers than the
    /// queue can hold (a slow disk asks for many) gets as many as it can, each larger, covering the same time
    /// in whole packets, rather than failing half enqueued.
    public func start(_ queue: InputQueue, plan: RecordingBufferPlan) throws(AudioQueueError) {
        let count = min(plan.bufferCount, queue.maximumBuffers)
        let packetBytes = max(1, queue.format.bytesPerPacket)
        let packets = (plan.bufferByteSize * plan.bufferCount + count * packetBytes - 1) / (count * packetBytes)
        for _ in 0..<count { try queue.enqueue(try queue.allocateBuffer(byteCapacity: packets * packetBytes)) }
        try queue.start()
    }

    /// Stops `queue` (every captured frame is delivered and written), disposes of it, closes the file and
    /// ends the thread. Throws the error that stopped the recording, or one from closing the file.
    public func finish(_ queue: InputQueue) throws(RecordingWriterError) {
        try? queue.stop()
        queue.deliverCallbacks()
        queue.dispose()
        thread.end()
        var failure = state.withLock { state -> RecordingWriterError? in
            state.finished = true
            return state.error
        }
        do {
            try destination.close()
        } catch {
            if failure == nil {
                failure = RecordingWriterError(kind: .close, message: "finishing the recording failed: \(error)",
                                               hint: "check the storage; AudioFile.repair recovers a file cut short",
                                               packetsWritten: packetsWritten)
            }
        }
        if let failure { throw failure }
    }

    /// Writer thread: writes one filled buffer and gives it back to the queue.
    private func write(_ recorded: InputQueue.RecordedBuffer, from queue: InputQueue) {
        guard state.withLock({ $0.error == nil && !$0.finished }) else { return }
        let started = clock.now
        do {
            try destination.writePackets(UnsafeRawBufferPointer(recorded.buffer.bytes), packetCount: recorded.packetCount)
        } catch {
            fail(error, queue: queue)
            return
        }
        let took = clock.now - started
        state.withLock { state in
            state.packetsWritten += Int64(recorded.packetCount)
            state.latency.writes += 1
            state.latency.worst = max(state.latency.worst, took)
            state.window.append(took)
            if state.window.count > Self.recentWindow { state.window.removeFirst() }
            state.latency.recent = state.window.max() ?? .zero
        }
        try? queue.enqueue(recorded.buffer)   // refused only once the queue is disposed
    }

    private func fail(_ error: any Error, queue: InputQueue) {
        let format = destination.dataFormat
        state.withLock { state in
            let seconds = Double(state.packetsWritten * Int64(format.framesPerPacket)) / format.sampleRate
            state.error = RecordingWriterError(
                kind: .write,
                message: "writing the recording failed after \(state.packetsWritten) packets (\(seconds) s) were "
                    + "written; the file keeps what reached the disk: \(error)",
                hint: "check free space and the storage device; the recording has stopped",
                packetsWritten: state.packetsWritten)
        }
        try? queue.stop()
    }
}
