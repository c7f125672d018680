import Codec8_24
import HAL
import Synchronization
import Testing
@testable import Queue

/// Callbacks and the three completion stages (core-audio-iphone-2008.md behaviour 27: once per buffer, on
/// the caller's thread, after the queue has finished with it; core-audio-2014-2017.md B.1.5: consumed, then
/// rendered, then played back with the device latency included).
@Suite(.serialized)
struct OutputQueueCompletionTests {
    static let mono16 = StreamFormat.linearPCM(sampleRate: 48000, channels: 1, bits: 16)

    @Test func threeStagesInOrderPerBufferOnTheCallbackThread() throws {
        let host = TestRenderHost(maximumFrames: 64, latency: 100)
        let log = QueueLog()
        let queue = try QueueFixture.queue(Self.mono16, host: host, log: log)
        defer { queue.dispose() }
        let sizes = [100, 37, 250]
        var buffers: [AudioQueueBuffer] = []
        for (n, size) in sizes.enumerated() {
            let b = try QueueFixture.buffer(queue, int16: (0..<size).map { Int16(1000 * (n + 1) + $0) })
            try queue.enqueue(b)
            buffers.append(b)
        }
        try queue.start()
        _ = host.render(periods: 4)               // 256 frames: the first two buffers are rendered
        queue.deliverCallbacks()
        // Rendered: the last frames are device frames 99 and 136 (the queue started at frame 0).
        #expect(log.events(of: 0).map(\.stage) == [.consumed, .rendered, .played])
        #expect(log.events(of: 0)[1].lastFrame == 99 && log.events(of: 0)[2].lastFrame == 99)
        #expect(log.events(of: 1)[1].lastFrame == 136)
        // Played: the codec has played 256 - 100 = 156 frames, past frames 99 and 136.
        #expect(log.events(of: 1).map(\.stage) == [.consumed, .rendered, .played])
        // Buffer 2 (frames 137 ... 386) is decoded (consumed: the render side decodes up to 512 frames ahead)
        // but not yet all rendered.
        #expect(log.events(of: 2).map(\.stage) == [.consumed])
        _ = host.render(periods: 3)               // 448 rendered, 348 played: buffer 2 rendered, not played
        queue.deliverCallbacks()
        #expect(log.events(of: 2).map(\.stage) == [.consumed, .rendered])
        #expect(log.events(of: 2)[1].lastFrame == 386)
        _ = host.render(periods: 1)               // 512 rendered, 412 played > 386
        queue.deliverCallbacks()
        #expect(log.events(of: 2).map(\.stage) == [.consumed, .rendered, .played])
        #expect(log.events(of: 2)[2].lastFrame == 386)
        // Each stage exactly once per buffer; every callback on the callback thread.
        for i in 0..<3 { #expect(log.events(of: i).count == 3) }
        #expect(log.callsOffTheCallbackThread == 0)
        #expect(log.runningChanges == [true])
    }

    @Test func playedWaitsForTheDeviceLatency() throws {
        // A buffer rendered in the first period but not yet out of the codec is not "played".
        let host = TestRenderHost(maximumFrames: 64, latency: 1000)
        let log = QueueLog()
        let queue = try QueueFixture.queue(Self.mono16, host: host, log: log)
        defer { queue.dispose() }
        try queue.enqueue(try QueueFixture.buffer(queue, int16: [Int16](repeating: 100, count: 10)))
        try queue.start()
        _ = host.render(periods: 16)              // 1024 rendered, 24 played: frame 9 played
        queue.deliverCallbacks()
        #expect(log.events(of: 0).map(\.stage) == [.consumed, .rendered, .played])
        let host2 = TestRenderHost(maximumFrames: 64, latency: 1000)
        let log2 = QueueLog()
        let queue2 = try QueueFixture.queue(Self.mono16, host: host2, log: log2)
        defer { queue2.dispose() }
        try queue2.enqueue(try QueueFixture.buffer(queue2, int16: [Int16](repeating: 100, count: 10)))
        try queue2.start()
        _ = host2.render(periods: 15)             // 960 rendered, 0 played
        queue2.deliverCallbacks()
        #expect(log2.events(of: 0).map(\.stage) == [.consumed, .rendered])
    }

    @Test func foreignAndDoubleEnqueueAreRefused() throws {
        // Behaviour 25: memory the queue did not allocate is rejected.
        let host = TestRenderHost()
        let log = QueueLog()
        let a = try QueueFixture.queue(Self.mono16, host: host, log: log)
        let b = try QueueFixture.queue(Self.mono16, host: host, log: log)
        defer { a.dispose(); b.dispose() }
        let fromB = try QueueFixture.buffer(b, int16: [1, 2, 3])
        do { try a.enqueue(fromB); Issue.record("foreign buffer accepted") } catch {
            #expect(error.kind == .foreignBuffer && !error.hint.isEmpty)
        }
        try b.enqueue(fromB)
        do { try b.enqueue(fromB); Issue.record("enqueued twice") } catch { #expect(error.kind == .invalidBuffer) }
        let odd = try b.allocateBuffer(byteCapacity: 8)
        odd.byteSize = 3                          // a partial 2-byte packet
        do { try b.enqueue(odd); Issue.record("partial packet accepted") } catch { #expect(error.kind == .invalidBuffer) }
    }

    @Test func formatsTheQueueCannotPlayAreRefusedAtCreation() throws {
        let host = TestRenderHost()
        let log = QueueLog()
        for format in [StreamFormat.microsoftIMAADPCM(sampleRate: 48000, channels: 1),
                       .linearPCM(sampleRate: 48000, channels: 3, bits: 16),
                       .linearPCM(sampleRate: 12345, channels: 2, bits: 16)] {
            do { _ = try QueueFixture.queue(format, host: host, log: log); Issue.record("\(format) accepted") } catch {
                #expect(error.kind == .formatUnsupported, "\(format)")
            }
        }
    }

    @Test func imaPacketsWithImpossibleHeadersAreRefused() throws {
        // Apple IMA4 packets: 2-byte header per channel, the step index in the low 7 bits of the second byte,
        // 0 ... 88 (the IMA step table's 89 entries).
        let host = TestRenderHost()
        let queue = try QueueFixture.queue(.appleIMA4(sampleRate: 48000, channels: 1), host: host, log: QueueLog())
        defer { queue.dispose() }
        let buffer = try queue.allocateBuffer(byteCapacity: 34)
        buffer.byteSize = 34
        buffer.audioData.storeBytes(of: UInt8(89), toByteOffset: 1, as: UInt8.self)
        do { try queue.enqueue(buffer); Issue.record("bad header accepted") } catch { #expect(error.kind == .invalidBuffer) }
        buffer.audioData.storeBytes(of: UInt8(88), toByteOffset: 1, as: UInt8.self)
        try queue.enqueue(buffer)
    }

    @Test func packetDescriptionsMustDescribeTheBytes() throws {
        let host = TestRenderHost()
        let queue = try QueueFixture.queue(.appleIMA4(sampleRate: 48000, channels: 1), host: host, log: QueueLog())
        defer { queue.dispose() }
        let buffer = try queue.allocateBuffer(byteCapacity: 68, packetDescriptionCapacity: 2)
        buffer.byteSize = 68
        buffer.packetDescriptions![0] = AudioStreamPacketDescription(startOffset: 0, dataByteSize: 34)
        buffer.packetDescriptions![1] = AudioStreamPacketDescription(startOffset: 30, dataByteSize: 34)
        buffer.packetDescriptionCount = 2
        do { try queue.enqueue(buffer); Issue.record("overlapping packets accepted") } catch { #expect(error.kind == .invalidBuffer) }
        buffer.packetDescriptions![1].startOffset = 34
        try queue.enqueue(buffer)
    }
}

extension OutputQueueCompletionTests {
    @Test func aCallbackMayCallTheQueue() throws {
        // Callbacks run outside the queue's lock: one that enqueues, reads state and asks for delivery works,
        // and the stages still come in order.
        let host = TestRenderHost(maximumFrames: 64)
        let log = QueueLog()
        let refills = Mutex(2)
        let queue = try OutputQueue(format: Self.mono16, host: host, callbackThread: QueueFixture.thread,
                                    clock: ManualClock()) { queue, buffer, event in
            log.add(.buffer(index: buffer.index, event), onCallbackThread: QueueFixture.thread.isCurrent)
            _ = queue.state
            queue.deliverCallbacks()
            if event.stage == .consumed, refills.withLock({ $0 -= 1; return $0 >= 0 }) { try? queue.enqueue(buffer) }
        }
        defer { queue.dispose() }
        try queue.enqueue(try QueueFixture.buffer(queue, int16: [Int16](repeating: 3, count: 600)))
        try queue.start()
        for _ in 0..<60 {
            _ = host.renderPeriod()
            queue.deliverCallbacks()
        }
        // The buffer played three times (enqueued, then twice again from its own callback).
        #expect(log.events(of: 0).map(\.stage) == [.consumed, .rendered, .played, .consumed, .rendered, .played,
                                                     .consumed, .rendered, .played])
    }
}
