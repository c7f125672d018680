import Codec8_24
import Foundation
import HAL
import Synchronization
import Testing
@testable import Queue

/// A destination in front of a real file that fails on its `failOn`-th write (as a full disk would) and
/// advances a manual clock by a given time per write (as a slow one would).
final class InputTestDestination: RecordingDestination, @unchecked Sendable {
    let file: AudioFile
    let failOn: Int?
    let clock: ManualClock?
    let writeTimes: [Duration]
    private(set) var writes = 0

    init(file: AudioFile, failOn: Int? = nil, clock: ManualClock? = nil, writeTimes: [Duration] = []) {
        self.file = file
        self.failOn = failOn
        self.clock = clock
        self.writeTimes = writeTimes
    }

    var dataFormat: StreamFormat { file.dataFormat }

    func writePackets(_ bytes: UnsafeRawBufferPointer, packetCount: Int) throws {
        writes += 1
        if let clock { clock.advance(by: writeTimes[min(writes - 1, writeTimes.count - 1)]) }
        if writes == failOn { throw AudioFileError(.io, "write: No space left on device (ENOSPC)", path: file.path) }
        try file.writePackets(bytes, packetCount: packetCount)
    }

    func close() throws { try file.close() }
}

@Suite("Recording writer")
struct InputRecordingWriterTests {
    static let format = StreamFormat.linearPCM(sampleRate: 16000, channels: 2, bits: 16)

    static func ramp(_ frames: Int) -> [Int16] {
        (0..<(2 * frames)).map { Int16(truncatingIfNeeded: $0 &* 101 &- 31000) }
    }

    /// Captures `values` period by period, letting the writer keep up as it would in real time.
    static func record(_ values: [Int16], host: InputTestHost, queue: InputQueue, writer: RecordingWriter) {
        let samples = values.map { Fixed824(int16: $0) }
        let frames = samples.count / 2
        for start in stride(from: 0, to: frames, by: 256) {
            host.capture(Array(samples[(2 * start)..<(2 * min(frames, start + 256))]))
            queue.deliverCallbacks()
        }
    }

    @Test func writesAFileSoxReadsBackWithTheCapturedSamples() throws {
        guard toolAvailable("sox") else { return }
        let directory = TemporaryDirectory()
        let path = directory.file("take.wav")
        let writer = try RecordingWriter(destination: try AudioFile.create(path: path, type: .wave, format: Self.format))
        let host = InputTestHost(rate: 16000, channels: 2, maximumFrames: 256)
        let queue = try InputQueue(format: Self.format, host: host, callbackThread: writer.thread, dither: false, callback: writer.callback)
        try writer.start(queue, plan: .covering(worstLatency: .milliseconds(20), pollInterval: writer.thread.pollInterval,
                                                bufferDuration: 0.02, format: Self.format))
        let values = Self.ramp(5000)
        Self.record(values, host: host, queue: queue, writer: writer)
        try writer.finish(queue)
        #expect(queue.droppedFrames == 0)
        // sox decodes to 32-bit: a 16-bit sample s reads as s << 16.
        let theirs = try soxSamples(path)
        #expect(theirs == values.map { Int32($0) << 16 }, "every captured frame, in order, no more")
        #expect(writer.latency.writes == (5000 + 319) / 320, "one write per 320-frame buffer, the last one partial")
    }

    /// A 48 kHz stereo capture recorded as 44.1 kHz mono µ-law: sox reads back ceil(n · 147/160) frames (the
    /// converter's contract), and each is the G.711 decoding of a level close to the captured sine's.
    @Test func aFortyEightKilohertzStereoCaptureRecordsAsFortyFourMonoMuLaw() throws {
        guard toolAvailable("sox") else { return }
        let directory = TemporaryDirectory()
        let path = directory.file("voice.wav")
        let format = StreamFormat.muLaw(sampleRate: 44100, channels: 1)
        let writer = try RecordingWriter(destination: try AudioFile.create(path: path, type: .wave, format: format))
        let host = InputTestHost(rate: 48000, channels: 2, maximumFrames: 480)
        let queue = try InputQueue(format: format, host: host, callbackThread: writer.thread, callback: writer.callback)
        try writer.start(queue, plan: .covering(worstLatency: .milliseconds(20), pollInterval: writer.thread.pollInterval,
                                                bufferDuration: 0.02, format: format))
        let frames = 9600
        let sine = (0..<frames).map { 0.5 * sin(2 * Double.pi * 1000 * Double($0) / 48000) }
        let samples = sine.flatMap { [Fixed824($0), Fixed824($0)] }
        for start in stride(from: 0, to: frames, by: 480) {
            host.capture(Array(samples[(2 * start)..<(2 * (start + 480))]))
            queue.deliverCallbacks()
        }
        try writer.finish(queue)
        let theirs = try soxSamples(path).map { Double($0) / 2_147_483_648 }
        #expect(theirs.count == (frames * 147 + 159) / 160)
        // Up to half scale the sine stays in µ-law's top segment or below, whose step is 256 on the 14-bit scale
        // (ITU-T G.711 Table 2a: 4063 ... 8159 in 16 steps), 1/32 of full scale: a decoded level is within half
        // a step, 1/64, of the 44.1 kHz sine (plus the converter's ripple, under 1e-3).
        let expected = (0..<theirs.count).map { 0.5 * sin(2 * Double.pi * 1000 * Double($0) / 44100) }
        let worst = zip(theirs, expected).dropFirst(100).dropLast(100).map { abs($0 - $1) }.max() ?? 1
        #expect(worst < 1.0 / 64 + 1e-3, "worst difference \(worst)")
    }

    /// A plan asking for more buffers than the queue holds (10 > 4) starts with 4 larger buffers covering the
    /// same time (10 x 300 frames = 3000 frames = 4 x 750), instead of failing with some already enqueued.
    @Test func aPlanLargerThanTheQueueStartsWithFewerLargerBuffers() throws {
        let directory = TemporaryDirectory()
        let destination = InputTestDestination(file: try AudioFile.create(path: directory.file("many.wav"), type: .wave, format: Self.format), failOn: nil)
        let writer = try RecordingWriter(destination: destination)
        let host = InputTestHost(rate: 16000, channels: 2, maximumFrames: 256)
        let queue = try InputQueue(format: Self.format, host: host, callbackThread: writer.thread, maximumBuffers: 4,
                                   dither: false, callback: writer.callback)
        try writer.start(queue, plan: RecordingBufferPlan(bufferCount: 10, bufferByteSize: 4 * 300, framesPerBuffer: 300))
        let values = Self.ramp(3000)
        Self.record(values, host: host, queue: queue, writer: writer)
        try writer.finish(queue)
        #expect(destination.file.frameCount == 3000, "every captured frame written")
    }

    @Test func aWriteErrorStopsTheRecordingAndKeepsWhatWasWritten() throws {
        guard toolAvailable("sox") else { return }
        let directory = TemporaryDirectory()
        let path = directory.file("full.wav")
        let destination = InputTestDestination(file: try AudioFile.create(path: path, type: .wave, format: Self.format), failOn: 3)
        let writer = try RecordingWriter(destination: destination)
        let host = InputTestHost(rate: 16000, channels: 2, maximumFrames: 256)
        let queue = try InputQueue(format: Self.format, host: host, callbackThread: writer.thread, dither: false, callback: writer.callback)
        let plan = RecordingBufferPlan(bufferCount: 3, bufferByteSize: 4 * 300, framesPerBuffer: 300)
        try writer.start(queue, plan: plan)
        let values = Self.ramp(3000)
        Self.record(values, host: host, queue: queue, writer: writer)
        #expect(!queue.isRunning, "the failed write stopped the queue")
        do {
            try writer.finish(queue)
            Issue.record("finish did not report the write error")
        } catch {
            #expect(error.kind == .write)
            #expect(error.packetsWritten == 600)
            #expect(error.message.contains("No space left on device"))
        }
        #expect(destination.writes == 3, "nothing more was written after the failure")
        let theirs = try soxSamples(path)
        #expect(theirs == values.prefix(2 * 600).map { Int32($0) << 16 }, "the file holds the two buffers written")
    }

    /// The plan's closed form (RecordingBufferPlan): buffers of D = 0.1 s, worst write W = 250 ms, poll P = 5 ms,
    /// margin 1.5: ceil(1.5 × 0.255 / 0.1) = 4 waiting, plus the one written and the one filled = 6.
    @Test func latencyIsMeasuredAndTheRecommendationCoversTheWorstWrite() throws {
        let directory = TemporaryDirectory()
        let clock = ManualClock()
        let times: [Duration] = [.milliseconds(10), .milliseconds(250)] + Array(repeating: .milliseconds(1), count: 16)
        let destination = InputTestDestination(file: try AudioFile.create(path: directory.file("slow.wav"), type: .wave, format: Self.format),
                                               clock: clock, writeTimes: times)
        let writer = try RecordingWriter(destination: destination, clock: clock)
        let host = InputTestHost(rate: 16000, channels: 2, maximumFrames: 256)
        let queue = try InputQueue(format: Self.format, host: host, callbackThread: writer.thread, dither: false, callback: writer.callback)
        try writer.start(queue, plan: RecordingBufferPlan(bufferCount: 4, bufferByteSize: 4 * 256, framesPerBuffer: 256))
        Self.record(Self.ramp(2 * 256), host: host, queue: queue, writer: writer)
        #expect(writer.latency == RecordingWriter.Latency(worst: .milliseconds(250), recent: .milliseconds(250), writes: 2))
        Self.record(Self.ramp(16 * 256), host: host, queue: queue, writer: writer)
        #expect(writer.latency.worst == .milliseconds(250))
        #expect(writer.latency.recent == .milliseconds(1), "the last 16 writes took 1 ms each")
        try writer.finish(queue)

        let mono = StreamFormat.linearPCM(sampleRate: 44100, channels: 1, bits: 16)
        let plan = RecordingBufferPlan.covering(worstLatency: writer.latency.worst, pollInterval: .milliseconds(5),
                                                bufferDuration: 0.1, format: mono)
        #expect(plan == RecordingBufferPlan(bufferCount: 6, bufferByteSize: 8820, framesPerBuffer: 4410))
        #expect(writer.recommendedPlan(bufferDuration: 0.1, format: mono).bufferCount == 6,
                "the writer's own poll interval is AudioQueueCallbackThread's default, 5 ms")
        // IMA4 buffers hold whole 64-frame packets: 0.1 s at 44.1 kHz is 4410 frames, so 69 packets (4416 frames).
        let ima = RecordingBufferPlan.covering(worstLatency: .zero, pollInterval: .milliseconds(5), bufferDuration: 0.1,
                                               format: .appleIMA4(sampleRate: 44100, channels: 1))
        #expect(ima == RecordingBufferPlan(bufferCount: 3, bufferByteSize: 69 * 34, framesPerBuffer: 4416))
    }
}
