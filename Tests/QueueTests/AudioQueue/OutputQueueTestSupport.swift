import Codec8_24
import HAL
import Synchronization
@testable import Queue

/// A render host for tests: attaches sources like the engine would (prepare, then pull), and renders one
/// period at a time by calling the source directly, advancing the device timeline by hand. The codec plays
/// a frame `latency` frames after it was rendered.
final class TestRenderHost: RenderHost, @unchecked Sendable {
    let outputRate: Int
    let inputRate: Int? = nil
    let inputChannels: Int? = nil
    let maximumFrames: Int
    let timeline: DeviceTimeline
    let latency: Int
    private(set) var sources: [RenderSource] = []

    init(rate: Int = 48000, maximumFrames: Int = 256, latency: Int = 0) {
        outputRate = rate
        self.maximumFrames = maximumFrames
        self.latency = latency
        timeline = DeviceTimeline(sampleRate: rate)
    }

    func attach(_ source: RenderSource) throws {
        try source.prepare(engineRate: outputRate, maximumFrames: maximumFrames)
        sources.append(source)
    }

    func detach(_ source: RenderSource) { sources.removeAll { $0 === source } }
    func attach(_ sink: CaptureSink) throws { throw AudioQueueError(.system, "no capture here", hint: "tests") }
    func detach(_ sink: CaptureSink) {}

    /// Renders one period of `frames` from the first source and returns its interleaved samples.
    func renderPeriod(_ frames: Int? = nil) -> [Fixed824] {
        let frames = frames ?? maximumFrames
        let source = sources[0]
        var out = [Fixed824](repeating: Fixed824(raw: 0x5A5A), count: frames * source.renderChannels)
        let start = timeline.renderedFrames
        let time = RenderTime(sampleTime: start, hostTime: Timestamp(nanoseconds: start * 1_000_000_000 / Int64(outputRate)))
        _ = out.withUnsafeMutableBufferPointer { source.render(frames: frames, into: $0.baseAddress!, at: time) }
        timeline.didRender(frames: frames)
        let played = max(0, timeline.renderedFrames - Int64(latency))
        timeline.didPlay(through: played, at: Timestamp(nanoseconds: played * 1_000_000_000 / Int64(outputRate)))
        return out
    }

    func render(periods: Int, frames: Int? = nil) -> [Fixed824] {
        var all: [Fixed824] = []
        for _ in 0..<periods { all += renderPeriod(frames) }
        return all
    }
}

/// What a queue's callback and listeners saw, in order.
final class QueueLog: @unchecked Sendable {
    enum Entry: Equatable {
        case buffer(index: Int, AudioQueueBufferEvent)
        case running(Bool)
    }
    private let entries = Mutex<[Entry]>([])
    private let offThread = Atomic<Int>(0)

    func add(_ entry: Entry, onCallbackThread: Bool) {
        entries.withLock { $0.append(entry) }
        if !onCallbackThread { offThread.add(1, ordering: .relaxed) }
    }

    var all: [Entry] { entries.withLock { $0 } }
    var callsOffTheCallbackThread: Int { offThread.load(ordering: .relaxed) }
    func events(of index: Int) -> [AudioQueueBufferEvent] {
        all.compactMap { if case .buffer(index, let e) = $0 { e } else { nil } }
    }
    var runningChanges: [Bool] { all.compactMap { if case .running(let r) = $0 { r } else { nil } } }
}

enum QueueFixture {
    static let thread = try! AudioQueueCallbackThread(name: "aq-tests", pollInterval: .milliseconds(50))

    /// A queue on `host` whose callback and listener record into `log` (and do nothing else).
    static func queue(_ format: StreamFormat, host: TestRenderHost, log: QueueLog, buffers: Int = 16,
                      fadeMilliseconds: Double = 5) throws(AudioQueueError) -> OutputQueue {
        let queue = try OutputQueue(format: format, host: host, callbackThread: thread, maximumBuffers: buffers,
                                    fadeMilliseconds: fadeMilliseconds, clock: ManualClock()) { _, buffer, event in
            log.add(.buffer(index: buffer.index, event), onCallbackThread: thread.isCurrent)
        }
        queue.addRunningListener { _, running in log.add(.running(running), onCallbackThread: thread.isCurrent) }
        return queue
    }

    /// A buffer holding `samples` as interleaved 16-bit little-endian PCM.
    static func buffer(_ queue: OutputQueue, int16 samples: [Int16]) throws -> AudioQueueBuffer {
        let buffer = try queue.allocateBuffer(byteCapacity: max(2, samples.count * 2))
        fill(buffer, int16: samples)
        return buffer
    }

    static func fill(_ buffer: AudioQueueBuffer, int16 samples: [Int16]) {
        for (i, s) in samples.enumerated() { buffer.audioData.storeBytes(of: s.littleEndian, toByteOffset: 2 * i, as: Int16.self) }
        buffer.byteSize = samples.count * 2
    }

    /// A buffer holding `samples` as 32-bit little-endian float PCM.
    static func buffer(_ queue: OutputQueue, float samples: [Float]) throws -> AudioQueueBuffer {
        let buffer = try queue.allocateBuffer(byteCapacity: samples.count * 4)
        for (i, s) in samples.enumerated() {
            buffer.audioData.storeBytes(of: s.bitPattern.littleEndian, toByteOffset: 4 * i, as: UInt32.self)
        }
        buffer.byteSize = samples.count * 4
        return buffer
    }

    /// The largest |x[n+1] - x[n]| of one channel, in raw 8.24 units.
    static func largestStep(_ samples: [Fixed824], channels: Int = 1, channel: Int = 0) -> Int64 {
        var largest: Int64 = 0
        var previous: Int64?
        var i = channel
        while i < samples.count {
            let v = Int64(samples[i].raw)
            if let p = previous { largest = max(largest, abs(v - p)) }
            previous = v
            i += channels
        }
        return largest
    }
}
