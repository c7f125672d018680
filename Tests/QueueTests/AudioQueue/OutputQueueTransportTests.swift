import Codec8_24
import HAL
import Testing
@testable import Queue

/// The output queue's transport heard at its output: prime-then-start, pause and resume, stop immediately,
/// reset, stop after what is enqueued, underruns. Fades are linear over N = 5 ms = 240 frames at 48 kHz
/// (`GainRamp.frames(milliseconds:sampleRate:)`); on a full-scale DC signal (1.0 = 2^24 in 8.24) a linear fade
/// of N frames moves 2^24 / N per frame (closed form), so no step may exceed that plus rounding (2 LSB).
@Suite(.serialized)
struct OutputQueueTransportTests {
    static let mono16 = StreamFormat.linearPCM(sampleRate: 48000, channels: 1, bits: 16)
    static let monoFloat = StreamFormat.linearPCM(sampleRate: 48000, channels: 1, bits: 32, isFloat: true)
    static let stereoFloat = StreamFormat.linearPCM(sampleRate: 48000, channels: 2, bits: 32, isFloat: true)
    static let fadeFrames = 240
    static let fadeStep = Int64(1 << 24) / 240 + 2

    @Test func primeThenStartHasAudioInTheFirstPeriod() throws {
        // Behaviour 28: after prime, start yields first audio within one IO period (here: its first frame).
        let host = TestRenderHost(maximumFrames: 128)
        let log = QueueLog()
        let queue = try QueueFixture.queue(Self.mono16, host: host, log: log)
        defer { queue.dispose() }
        let samples = (0..<1000).map { Int16(truncatingIfNeeded: 7 * $0 + 1) }
        try queue.enqueue(try QueueFixture.buffer(queue, int16: Array(samples[..<300])))
        try queue.enqueue(try QueueFixture.buffer(queue, int16: Array(samples[300...])))
        let silent = host.renderPeriod()
        #expect(silent.allSatisfy { $0 == .zero }, "a queue that is not started is silent")
        try queue.prime()
        #expect(queue.state == .primed)
        _ = host.renderPeriod()                   // the render side decodes ahead while silent
        queue.deliverCallbacks()
        #expect(log.events(of: 0).map(\.stage) == [.consumed], "priming decoded the first buffer")
        #expect(log.events(of: 1).isEmpty)
        try queue.start()
        let first = host.renderPeriod()
        #expect(first == samples.prefix(128).map { Fixed824(int16: $0) }, "the first period carries the data, unfaded")
        queue.deliverCallbacks()
        #expect(queue.isRunning && queue.state == .running)
        #expect(log.runningChanges == [true])
    }

    @Test func startAtADeviceFrameBeginsThere() throws {
        let host = TestRenderHost(maximumFrames: 100)
        let queue = try QueueFixture.queue(Self.mono16, host: host, log: QueueLog())
        defer { queue.dispose() }
        try queue.enqueue(try QueueFixture.buffer(queue, int16: [Int16](repeating: 1000, count: 50)))
        try queue.flush()                         // the data ends there: its last frames are not an underrun
        try queue.start(at: 250)
        let out = host.render(periods: 4)
        #expect(out.firstIndex { $0 != .zero } == 250, "the first frame plays at device frame 250")
        #expect(out[250..<300].allSatisfy { $0 == Fixed824(int16: 1000) })
        #expect(out[300...].allSatisfy { $0 == .zero })
    }

    @Test func pauseFadesHoldsThePositionAndResumeFadesIn() throws {
        // Behaviour 29: pause keeps position; start continues from the same sample. Channel 0 is full-scale
        // DC (to measure the fade's steps), channel 1 counts frames (to find the position).
        let host = TestRenderHost(maximumFrames: 256)
        let log = QueueLog()
        let queue = try QueueFixture.queue(Self.stereoFloat, host: host, log: log)
        defer { queue.dispose() }
        let frames = 8192
        var samples: [Float] = []
        for i in 0..<frames { samples += [1.0, Float(i) / 8192] }
        try queue.enqueue(try QueueFixture.buffer(queue, float: samples))
        try queue.start()
        var out = host.render(periods: 2)         // 512 frames at unity
        try queue.pause()
        out += host.render(periods: 2)            // the fade: 240 frames, then silence
        queue.deliverCallbacks()
        #expect(queue.state == .paused && !queue.isRunning)
        let left = stride(from: 0, to: out.count, by: 2).map { out[$0] }
        #expect(left[511] == .one && left[512 + 239] == .zero && left[(512 + 240)...].allSatisfy { $0 == .zero })
        #expect(QueueFixture.largestStep(out, channels: 2) <= Self.fadeStep)
        try queue.start()
        let resumed = host.render(periods: 2)
        queue.deliverCallbacks()
        #expect(queue.isRunning && log.runningChanges == [true, false, true])
        // The fade in reaches unity on its 240th frame; that frame is data frame 512 + 240 + 239: nothing was
        // skipped or repeated across the pause.
        #expect(resumed[2 * 239] == .one)
        #expect(resumed[2 * 239 + 1] == Fixed824(Float(512 + 240 + 239) / 8192))
        #expect(QueueFixture.largestStep(out + resumed, channels: 2) <= Self.fadeStep)
    }

    @Test func stopImmediatelyFadesAndReturnsEveryBuffer() throws {
        let host = TestRenderHost(maximumFrames: 256)
        let log = QueueLog()
        let queue = try QueueFixture.queue(Self.monoFloat, host: host, log: log)
        defer { queue.dispose() }
        for _ in 0..<4 { try queue.enqueue(try QueueFixture.buffer(queue, float: [Float](repeating: 1, count: 1000))) }
        try queue.start()
        var out = host.render(periods: 2)
        try queue.stop(immediately: true)
        out += host.render(periods: 2)
        queue.deliverCallbacks()
        #expect(queue.state == .stopped && !queue.isRunning)
        #expect(out[512 + 239] == .zero && out[(512 + 240)...].allSatisfy { $0 == .zero })
        #expect(QueueFixture.largestStep(out) <= Self.fadeStep)
        // Every buffer came back exactly once: buffer 0 consumed (decoded), 1 ... 3 discarded.
        for i in 0..<4 {
            let consumed = log.events(of: i).filter { $0.stage == .consumed }
            #expect(consumed.count == 1, "buffer \(i)")
        }
        #expect(log.events(of: 3).first?.discarded == true)
        #expect(log.runningChanges == [true, false])
    }

    @Test func resetDiscardsReturnsEveryBufferAndPlaysFromTheNewPosition() throws {
        // Behaviour 30: reset discards what is queued, the buffers still come back, and playback goes on
        // from what is enqueued next (a seek), fading in.
        let host = TestRenderHost(maximumFrames: 256)
        let log = QueueLog()
        let queue = try QueueFixture.queue(Self.monoFloat, host: host, log: log)
        defer { queue.dispose() }
        var buffers: [AudioQueueBuffer] = []
        for _ in 0..<3 {
            let b = try QueueFixture.buffer(queue, float: [Float](repeating: 1, count: 2000))
            try queue.enqueue(b)
            buffers.append(b)
        }
        try queue.start()
        var out = host.render(periods: 1)
        try queue.reset()
        let seek = try QueueFixture.buffer(queue, float: [Float](repeating: 0.5, count: 1000))
        try queue.enqueue(seek)                   // enqueued after the reset: it stays
        out += host.render(periods: 4)
        queue.deliverCallbacks()
        #expect(queue.state == .running && queue.isRunning, "reset keeps the transport running")
        for i in 0..<3 { #expect(log.events(of: i).filter { $0.stage == .consumed }.count == 1, "buffer \(i) came back") }
        #expect(log.events(of: 1).first?.discarded == true && log.events(of: 2).first?.discarded == true)
        #expect(log.events(of: 3).first?.discarded == false, "the buffer enqueued after the reset plays")
        // Fade out to 0 at frame 256 + 239, then a fade in to 0.5 of the new data; never a step above the slope.
        #expect(out[256 + 239] == .zero)
        #expect(out[(256 + 240 + 239)...].prefix(200).allSatisfy { $0 == Fixed824(0.5) })
        #expect(QueueFixture.largestStep(out) <= Self.fadeStep)
    }

    @Test func stopAfterEnqueuedPlaysEveryFrame() throws {
        // Behaviour 31: flush/stop plays out every sample; the count matches what was enqueued.
        let host = TestRenderHost(maximumFrames: 128)
        let log = QueueLog()
        let queue = try QueueFixture.queue(Self.mono16, host: host, log: log)
        defer { queue.dispose() }
        var expected: [Fixed824] = []
        for (n, size) in [100, 37, 250].enumerated() {
            let samples = (0..<size).map { Int16(truncatingIfNeeded: 300 * n + $0 * 11 + 1) }
            expected += samples.map { Fixed824(int16: $0) }
            try queue.enqueue(try QueueFixture.buffer(queue, int16: samples))
        }
        try queue.start()
        try queue.stop(immediately: false)
        let out = host.render(periods: 5)
        queue.deliverCallbacks()
        #expect(Array(out.prefix(387)) == expected, "every frame, unfaded, in order")
        #expect(out[387...].allSatisfy { $0 == .zero })
        #expect(queue.state == .stopped && log.runningChanges == [true, false])
        #expect(queue.underruns == 0)
    }

    @Test func anUnderrunFadesOutAndBackInAndTheQueueCarriesOn() throws {
        let host = TestRenderHost(maximumFrames: 256)
        let log = QueueLog()
        let queue = try QueueFixture.queue(Self.monoFloat, host: host, log: log)
        defer { queue.dispose() }
        try queue.enqueue(try QueueFixture.buffer(queue, float: [Float](repeating: 1, count: 600)))
        try queue.start()
        var out = host.render(periods: 4)         // 600 frames of data, then dry
        queue.deliverCallbacks()
        #expect(queue.underruns == 1 && queue.isRunning)
        // The tail fades: it ends at 0 on the last data frame (599) and never steps above the slope.
        #expect(out[599] == .zero && out[(600 - 240)...].first == Fixed824(raw: (1 << 24) - (1 << 24) / 240))
        try queue.enqueue(try QueueFixture.buffer(queue, float: [Float](repeating: 1, count: 1000)))
        out += host.render(periods: 3)
        queue.deliverCallbacks()
        #expect(out[1024 + 239] == .one, "data came back: faded in over 240 frames")
        #expect(QueueFixture.largestStep(out) <= Self.fadeStep)
        #expect(queue.isRunning && queue.state == .running && log.runningChanges == [true])
    }

    @Test func flushEndsTheDataWithoutAnUnderrun() throws {
        let host = TestRenderHost(maximumFrames: 256)
        let queue = try QueueFixture.queue(Self.mono16, host: host, log: QueueLog())
        defer { queue.dispose() }
        let samples = [Int16](repeating: 20000, count: 300)
        try queue.enqueue(try QueueFixture.buffer(queue, int16: samples))
        try queue.flush()
        try queue.start()
        let out = host.render(periods: 3)
        queue.deliverCallbacks()
        #expect(Array(out.prefix(300)) == samples.map { Fixed824(int16: $0) }, "the last frames are not faded")
        #expect(queue.underruns == 0 && queue.isRunning)
    }

    @Test func currentTimeFollowsWhatHasPlayed() throws {
        let host = TestRenderHost(maximumFrames: 100, latency: 150)
        let queue = try QueueFixture.queue(Self.mono16, host: host, log: QueueLog())
        defer { queue.dispose() }
        try queue.enqueue(try QueueFixture.buffer(queue, int16: [Int16](repeating: 5, count: 1000)))
        try queue.start()
        _ = host.render(periods: 4)               // 400 rendered, 250 played
        #expect(queue.currentTime.sampleTime == 250 && queue.currentTime.deviceFrame == 250)
    }
}

extension OutputQueueTransportTests {
    @Test func stopAfterEnqueuedDuringAnUnderrunStops() throws {
        // Ran dry (an underrun), then asked to stop after what is enqueued: nothing is left, so it stops.
        let host = TestRenderHost(maximumFrames: 256)
        let log = QueueLog()
        let queue = try QueueFixture.queue(Self.monoFloat, host: host, log: log)
        defer { queue.dispose() }
        try queue.enqueue(try QueueFixture.buffer(queue, float: [Float](repeating: 1, count: 300)))
        try queue.start()
        _ = host.render(periods: 1)               // the tail fade has begun (300 < 256 + 240)
        try queue.stop(immediately: false)
        _ = host.render(periods: 3)
        queue.deliverCallbacks()
        #expect(queue.state == .stopped && !queue.isRunning)
        #expect(log.runningChanges == [true, false])
    }
}
