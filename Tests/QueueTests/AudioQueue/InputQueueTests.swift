import Codec8_24
import Foundation
import HAL
import Synchronization
import Testing
@testable import Queue

/// What an input queue's callback received, in order; optionally enqueues each buffer again.
final class InputDeliveries: @unchecked Sendable {
    struct Delivery { var bytes: [UInt8]; var packets: Int; var startFrame: Int64; var onCallbackThread: Bool }
    private let log = Mutex<[Delivery]>([])
    private let changes = Mutex<[InputQueue.Change]>([])
    let reenqueue: Bool
    let thread: AudioQueueCallbackThread

    init(thread: AudioQueueCallbackThread, reenqueue: Bool = false) {
        self.thread = thread
        self.reenqueue = reenqueue
    }

    var callback: InputQueue.Callback {
        { [self] queue, recorded in
            let delivery = Delivery(bytes: Array(UnsafeRawBufferPointer(recorded.buffer.bytes)), packets: recorded.packetCount,
                                    startFrame: recorded.startFrame, onCallbackThread: thread.isCurrent)
            log.withLock { $0.append(delivery) }
            if reenqueue { try? queue.enqueue(recorded.buffer) }
        }
    }

    var listener: InputQueue.Listener {
        { [self] _, change in changes.withLock { $0.append(change) } }
    }

    var deliveries: [Delivery] { log.withLock { $0 } }
    var bytes: [UInt8] { deliveries.flatMap(\.bytes) }
    var notices: [InputQueue.Change] { changes.withLock { $0 } }
}

/// 16-bit little-endian samples from bytes.
func int16s(_ bytes: [UInt8]) -> [Int16] {
    stride(from: 0, to: bytes.count - 1, by: 2).map { Int16(bytes[$0]) | Int16(bytes[$0 + 1]) << 8 }
}

/// One input queue on a test host, with its callback thread and what it delivered; ends them when dropped.
final class InputFixture {
    let thread: AudioQueueCallbackThread
    let host: InputTestHost
    let deliveries: InputDeliveries
    let queue: InputQueue

    /// A queue recording `format` from `channels` captured at `rate`, with `buffers` buffers of `bufferFrames`
    /// frames (rounded up to whole packets) enqueued.
    init(_ name: String, format: StreamFormat, rate: Int, channels: Int, maximumFrames: Int = 256,
         buffers: Int, bufferFrames: Int, reenqueue: Bool = false) throws {
        thread = try AudioQueueCallbackThread(name: name)
        host = InputTestHost(rate: rate, channels: channels, maximumFrames: maximumFrames)
        deliveries = InputDeliveries(thread: thread, reenqueue: reenqueue)
        queue = try InputQueue(format: format, host: host, callbackThread: thread, maximumBuffers: max(16, buffers),
                               dither: false, callback: deliveries.callback)
        queue.addListener(deliveries.listener)
        let bytes = (bufferFrames + format.framesPerPacket - 1) / format.framesPerPacket * format.bytesPerPacket
        for _ in 0..<buffers { try queue.enqueue(try queue.allocateBuffer(byteCapacity: bytes)) }
    }

    deinit {
        queue.dispose()
        thread.end()
    }

    /// Waits until the callback thread has delivered everything reported so far.
    func settle() { queue.deliverCallbacks() }
}

@Suite("Input queue")
struct InputQueueTests {
    static func ramp(_ count: Int, channels: Int = 1) -> [Int16] {
        (0..<(count * channels)).map { Int16(truncatingIfNeeded: $0 &* 37 &- 20000) }
    }

    @Test func framesArriveInOrderInFilledBuffersOnTheCallbackThread() throws {
        let fixture = try InputFixture("input-order", format: .linearPCM(sampleRate: 8000, channels: 1, bits: 16), rate: 8000, channels: 1, maximumFrames: 64,
                                       buffers: 11, bufferFrames: 100)
        let (host, deliveries, queue) = (fixture.host, fixture.deliveries, fixture.queue)
        try queue.start()
        let values = Self.ramp(1000)
        host.capture(values.map { Fixed824(int16: $0) }, period: 64)
        fixture.settle()
        let got = deliveries.deliveries
        #expect(got.count == 10, "1000 frames fill ten 100-frame buffers")
        #expect(got.map(\.packets) == Array(repeating: 100, count: 10))
        #expect(got.map(\.startFrame) == stride(from: 0, to: 1000, by: 100).map(Int64.init))
        #expect(got.allSatisfy { $0.onCallbackThread })
        #expect(int16s(deliveries.bytes) == values, "the samples captured, in order, unchanged (16-bit in, 16-bit out)")
        #expect(queue.capturedFrames == 1000)
    }

    @Test func stopMidBufferDeliversThePartialBufferAndLosesNoFrame() throws {
        let fixture = try InputFixture("input-stop", format: .linearPCM(sampleRate: 16000, channels: 2, bits: 16), rate: 16000, channels: 2, maximumFrames: 128,
                                       buffers: 3, bufferFrames: 300, reenqueue: true)
        let (host, deliveries, queue) = (fixture.host, fixture.deliveries, fixture.queue)
        try queue.start()
        let values = Self.ramp(1234, channels: 2)
        let samples = values.map { Fixed824(int16: $0) }
        // Period by period, letting the callback thread return buffers as a running system would.
        for start in stride(from: 0, to: 1234, by: 128) {
            host.capture(Array(samples[(2 * start)..<(2 * min(1234, start + 128))]))
            fixture.settle()
        }
        try queue.stop()
        fixture.settle()
        let got = deliveries.deliveries
        #expect(got.map(\.packets) == [300, 300, 300, 300, 34], "four full buffers, then the 34 frames left at stop")
        #expect(got.map(\.packets).reduce(0, +) == 1234)
        #expect(int16s(deliveries.bytes) == values)
        #expect(queue.droppedFrames == 0)
        #expect(!queue.isRunning)
    }

    /// SampleRateConverter's contract: n input frames give ceil(n·L/M) once its delay is skipped and its tail
    /// drained; 48 kHz to 44.1 kHz is L/M = 147/160.
    @Test(arguments: [480, 4800, 10007])
    func fortyEightKilohertzCaptureGivesTheConvertersFrameCount(frames: Int) throws {
        let fixture = try InputFixture("input-src", format: .linearPCM(sampleRate: 44100, channels: 1, bits: 16), rate: 48000, channels: 2, maximumFrames: 480,
                                       buffers: 30, bufferFrames: 441)
        let (host, deliveries, queue) = (fixture.host, fixture.deliveries, fixture.queue)
        try queue.start()
        let sine = (0..<frames).flatMap { f -> [Fixed824] in
            let v = Fixed824(0.25 * sin(2 * Double.pi * 440 * Double(f) / 48000))
            return [v, v]
        }
        host.capture(sine)
        try queue.stop()
        fixture.settle()
        let total = deliveries.deliveries.map(\.packets).reduce(0, +)
        #expect(total == (frames * 147 + 159) / 160)
        #expect(queue.droppedFrames == 0)
    }

    /// Closed form: a full-scale sine reads 0 dBFS peak and 10·log10(1/2) = -3.0103 dBFS average; one at half
    /// scale 20·log10(1/2) = -6.0206 peak and -9.0309 average; silence reads the meter's floor.
    @Test func metersReadTheClosedFormLevelsPerChannel() throws {
        let fixture = try InputFixture("input-meter", format: .linearPCM(sampleRate: 48000, channels: 2, bits: 24), rate: 48000,
                                       channels: 2, buffers: 4, bufferFrames: 1024, reenqueue: true)
        let (host, queue) = (fixture.host, fixture.queue)
        #expect(queue.levels?.map(\.peak) == [LevelMeter.floor, LevelMeter.floor], "silent before anything is captured")
        try queue.start()
        // A sine at a quarter of the rate, phase 0: samples 0, 1, 0, -1 (peak exactly full scale).
        let cycle: [Double] = [0, 1, 0, -1]
        let samples = (0..<1024).flatMap { f in [Fixed824(cycle[f % 4]), Fixed824(0.5 * cycle[f % 4])] }
        host.capture(samples)
        let levels = try #require(queue.levels)
        #expect(levels.count == 2)
        #expect(abs(levels[0].peak - 0) < 1e-4)
        #expect(abs(levels[0].average - (-3.0103)) < 1e-3)
        #expect(abs(levels[1].peak - (-6.0206)) < 1e-3)
        #expect(abs(levels[1].average - (-9.0309)) < 1e-3)
        host.capture([Fixed824](repeating: .zero, count: 2 * 256))
        #expect(queue.levels?[0].average == LevelMeter.floor)
    }

    @Test func monoQueueFromStereoCaptureHasOneMeter() throws {
        let fixture = try InputFixture("input-mono", format: .muLaw(sampleRate: 8000, channels: 1), rate: 8000, channels: 2,
                                       buffers: 2, bufferFrames: 256)
        let queue = fixture.queue
        // Behaviour 37: one meter per channel of the queue's format.
        #expect(queue.levels?.count == 1)
    }

    @Test func anOverrunDropsAndCountsFramesWithoutBlocking() throws {
        let fixture = try InputFixture("input-overrun", format: .linearPCM(sampleRate: 8000, channels: 1, bits: 16), rate: 8000, channels: 1, maximumFrames: 128,
                                       buffers: 1, bufferFrames: 200)
        let (host, deliveries, queue) = (fixture.host, fixture.deliveries, fixture.queue)
        try queue.start()
        // One 200-frame buffer for 512 frames: 200 recorded, 312 dropped over the periods that found no buffer.
        host.capture([Fixed824](repeating: Fixed824(0.1), count: 512), period: 128)
        fixture.settle()
        #expect(deliveries.deliveries.map(\.packets) == [200])
        #expect(queue.droppedFrames == 312)
        #expect(queue.overruns == 3, "periods 2 (56 of its frames), 3 and 4 found no buffer")
        #expect(deliveries.notices.contains(.droppedFrames(312)))
        // The gap shows in the next buffer's start frame.
        let buffer = try queue.allocateBuffer(byteCapacity: 2 * 100)
        try queue.enqueue(buffer)
        host.capture([Fixed824](repeating: .zero, count: 100))
        fixture.settle()
        #expect(deliveries.deliveries.last?.startFrame == 512)
    }

    @Test func isRunningFollowsCaptureAndListenersHearEachChange() throws {
        let fixture = try InputFixture("input-running", format: .linearPCM(sampleRate: 8000, channels: 1, bits: 16), rate: 8000, channels: 1,
                                       buffers: 2, bufferFrames: 256, reenqueue: true)
        let (host, deliveries, queue) = (fixture.host, fixture.deliveries, fixture.queue)
        try queue.start()
        fixture.settle()
        #expect(!queue.isRunning, "running from the first captured frame on, as Core Audio's is-running property")
        host.capture([Fixed824](repeating: .zero, count: 64))
        fixture.settle()
        #expect(queue.isRunning)
        try queue.pause()
        #expect(queue.state == .paused)
        fixture.settle()
        try queue.start()
        host.capture([Fixed824](repeating: .zero, count: 64))
        fixture.settle()
        try queue.stop()
        fixture.settle()
        #expect(queue.state == .stopped)
        #expect(deliveries.notices == [.isRunning(true), .isRunning(false), .isRunning(true), .isRunning(false)])
    }

    @Test func pauseKeepsThePartialBufferAndFramesWhilePausedAreNotRecorded() throws {
        let fixture = try InputFixture("input-pause", format: .linearPCM(sampleRate: 8000, channels: 1, bits: 16), rate: 8000, channels: 1,
                                       buffers: 1, bufferFrames: 100)
        let (host, deliveries, queue) = (fixture.host, fixture.deliveries, fixture.queue)
        try queue.start()
        host.capture(Self.ramp(50).map { Fixed824(int16: $0) })
        try queue.pause()
        host.capture([Fixed824](repeating: Fixed824(0.5), count: 20))
        try queue.start()
        host.capture(Self.ramp(50).map { Fixed824(int16: $0 &+ 1) })
        fixture.settle()
        #expect(deliveries.deliveries.map(\.packets) == [100])
        #expect(int16s(deliveries.bytes) == Self.ramp(50) + Self.ramp(50).map { $0 &+ 1 })
    }

    @Test func resetDiscardsWhatWasNotDelivered() throws {
        let fixture = try InputFixture("input-reset", format: .linearPCM(sampleRate: 8000, channels: 1, bits: 16), rate: 8000, channels: 1,
                                       buffers: 1, bufferFrames: 100)
        let (host, deliveries, queue) = (fixture.host, fixture.deliveries, fixture.queue)
        try queue.start()
        host.capture([Fixed824](repeating: Fixed824(int16: 1111), count: 60))
        fixture.settle()
        try queue.reset()
        #expect(queue.state == .running, "reset keeps the transport state")
        host.capture([Fixed824](repeating: Fixed824(int16: 2222), count: 30))
        try queue.stop()
        fixture.settle()
        #expect(deliveries.deliveries.map(\.packets) == [30])
        #expect(int16s(deliveries.bytes) == Array(repeating: 2222, count: 30))
    }

    @Test func startAtASampleTimeRecordsFromThatFrame() throws {
        let fixture = try InputFixture("input-at", format: .linearPCM(sampleRate: 8000, channels: 1, bits: 16), rate: 8000, channels: 1, maximumFrames: 64,
                                       buffers: 2, bufferFrames: 500)
        let (host, deliveries, queue) = (fixture.host, fixture.deliveries, fixture.queue)
        try queue.start(at: 100)
        let values = Self.ramp(300)
        host.capture(values.map { Fixed824(int16: $0) })
        try queue.stop()
        fixture.settle()
        #expect(int16s(deliveries.bytes) == Array(values[100...]))
        #expect(queue.currentTime.deviceFrame == 300, "the device timeline after the last captured frame")
        #expect(queue.currentTime.sampleTime == 200, "frames recorded, from sample time 100 on")
    }

    /// IMA4 packets are 64 frames (Apple IMA4: 34 bytes per channel): a buffer is filled in whole packets, and
    /// a stop pads the last partial packet with silence.
    @Test func imaFourBuffersFillInWholePackets() throws {
        let fixture = try InputFixture("input-ima4", format: .appleIMA4(sampleRate: 16000, channels: 2), rate: 16000, channels: 2,
                                       maximumFrames: 50, buffers: 2, bufferFrames: 150)
        let (host, deliveries, queue) = (fixture.host, fixture.deliveries, fixture.queue)
        try queue.start()
        host.capture([Fixed824](repeating: Fixed824(0.25), count: 2 * 200))
        fixture.settle()
        // 150 frames round up to 3 packets (192 frames) per buffer; 200 frames fill one and start the next.
        #expect(deliveries.deliveries.map(\.packets) == [3])
        try queue.stop()
        fixture.settle()
        #expect(deliveries.deliveries.map(\.packets) == [3, 1])
        #expect(deliveries.deliveries.map(\.bytes.count) == [3 * 68, 68])
        #expect(deliveries.deliveries.map(\.startFrame) == [0, 192])
    }

    @Test func callsThatDoNotFitGiveTypedErrors() throws {
        let fixture = try InputFixture("input-errors", format: .appleIMA4(sampleRate: 8000, channels: 1), rate: 8000, channels: 1,
                                       buffers: 0, bufferFrames: 64)
        let (host, thread, queue) = (fixture.host, fixture.thread, fixture.queue)
        let other = try InputQueue(format: .appleIMA4(sampleRate: 8000, channels: 1), host: host, callbackThread: thread) { _, _ in }
        defer { other.dispose() }

        func kind(_ body: () throws -> Void) -> AudioQueueError.Kind? {
            do { try body(); return nil } catch let error as AudioQueueError { return error.kind } catch { return nil }
        }
        let pauseError = kind { try queue.pause() }
        #expect(pauseError == .wrongState, "pause before start")
        #expect(kind { _ = try queue.allocateBuffer(byteCapacity: 33) } == .invalidBuffer, "less than one 34-byte IMA4 packet")
        let mine = try queue.allocateBuffer(byteCapacity: 34)
        #expect(kind { try other.enqueue(mine) } == .foreignBuffer)
        try queue.enqueue(mine)
        #expect(kind { try queue.enqueue(mine) } == .foreignBuffer, "already enqueued")
        queue.dispose()
        #expect(kind { try queue.start() } == .disposed)
        #expect(kind { try queue.enqueue(mine) } == .disposed)
        #expect(host.attachedSinks == 1, "the disposed queue left the engine; the other is still there")

        #expect(kind { _ = try InputQueue(format: .microsoftIMAADPCM(sampleRate: 8000, channels: 1), host: host, callbackThread: thread) { _, _ in } } == .formatUnsupported)
        let odd = StreamFormat.linearPCM(sampleRate: 12345, channels: 1, bits: 16)
        #expect(kind { _ = try InputQueue(format: odd, host: host, callbackThread: thread) { _, _ in } } == .formatUnsupported,
                "no converter from the hardware's 8 kHz to 12345 Hz")
        let surround = StreamFormat.linearPCM(sampleRate: 8000, channels: 6, bits: 16)
        #expect(kind { _ = try InputQueue(format: surround, host: host, callbackThread: thread) { _, _ in } } == .formatUnsupported)
        #expect(kind { _ = try InputQueue(format: .muLaw(sampleRate: 8000, channels: 1), host: host, callbackThread: thread,
                                          maximumBuffers: 0) { _, _ in } } == .invalidValue)
        let noInput = InputTestHost(rate: 8000, channels: nil)
        #expect(kind { _ = try InputQueue(format: .muLaw(sampleRate: 8000, channels: 1), host: noInput, callbackThread: thread) { _, _ in } } == .system)
    }
}

@Suite("Input queue under a running capture thread")
struct InputQueueConcurrencyTests {
    /// A capture thread feeds a counting signal without pause while the control thread starts, pauses and
    /// stops the queue over and over. Whatever the interleaving, every frame the queue took is either in a
    /// delivered buffer or counted as dropped (none lost, none twice), and the delivered samples count up.
    @Test func transportCallsRacingTheCaptureLoseAndRepeatNothing() throws {
        let fixture = try InputFixture("input-race", format: .linearPCM(sampleRate: 48000, channels: 1, bits: 24), rate: 48000,
                                       channels: 1, maximumFrames: 64, buffers: 8, bufferFrames: 256, reenqueue: true)
        let (host, deliveries, queue) = (fixture.host, fixture.deliveries, fixture.queue)
        let running = Atomic<Bool>(true)
        let finished = Atomic<Bool>(false)
        let periodsFed = Atomic<Int>(0)
        let feeder = Thread {
            var next: Int32 = 0
            var period = [Fixed824](repeating: .zero, count: 64)
            // The counting signal is 24-bit: stop before it wraps (a slow machine, such as qemu-user, feeds
            // freely for a long time while the control thread cycles), and the control thread stops waiting.
            while running.load(ordering: .relaxed) && next < (1 << 23) - 64 {
                for i in 0..<64 { period[i] = Fixed824(int24: next + Int32(i)) }
                next += 64
                host.capture(period)
                periodsFed.add(1, ordering: .releasing)
            }
            finished.store(true, ordering: .releasing)
        }
        feeder.start()
        /// Lets the capture thread feed `periods` more periods (a condition, not a guess at timing).
        func letCapture(_ periods: Int) {
            let target = periodsFed.load(ordering: .acquiring) + periods
            while periodsFed.load(ordering: .acquiring) < target && !finished.load(ordering: .acquiring) {
                Thread.sleep(forTimeInterval: 0.0001)
            }
        }
        for cycle in 0..<300 {
            try queue.start()
            letCapture(cycle % 4)
            if cycle % 3 == 1 { try queue.pause() }
            if cycle % 2 == 0 { try queue.stop() }
        }
        try queue.stop()
        running.store(false, ordering: .relaxed)
        while !finished.load(ordering: .acquiring) { Thread.sleep(forTimeInterval: 0.001) }
        fixture.settle()
        let bytes = deliveries.bytes
        let values = stride(from: 0, to: bytes.count, by: 3).map { i -> Int32 in
            let packed: Int32 = Int32(bytes[i]) | Int32(bytes[i + 1]) << 8 | Int32(bytes[i + 2]) << 16
            return (packed << 8) >> 8
        }
        #expect(zip(values, values.dropFirst()).allSatisfy { $0 < $1 }, "delivered in capture order, none twice")
        #expect(Int64(values.count) + queue.droppedFrames == queue.capturedFrames, "none lost")
        #expect(queue.capturedFrames > 0)
    }
}
