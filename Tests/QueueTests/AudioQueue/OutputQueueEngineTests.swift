import Codec8_24
import Foundation
import HAL
import RealtimeProbe
import Synchronization
import Testing
@testable import Queue

/// The output queue on the real render engine: a file through the engine in manual mode comes out as sox
/// decodes it, and a queue playing (decoding, converting 44.1 to 48 kHz, ramping its volume, metering) keeps
/// the render thread's rules, counted by the RealtimeProbe as the engine's own tests count them.
@Suite("Output queue on the render engine", .serialized)
struct OutputQueueEngineTests {
    /// The chain reduced to the mixer: one stereo input at unity comes out bit for bit (OutputChain's
    /// documented exactness).
    static let plain = RenderEngine.Configuration(softwareEQ: false, limiter: false, dither: false,
                                                  realtimePriority: nil, locksMemory: false)

    @Test func aFilePlaysThroughTheEngineInManualModeAsSoxDecodesIt() throws {
        guard toolAvailable("sox") else { return }
        let directory = TemporaryDirectory()
        let path = directory.file("song.wav")
        try run("sox", ["-n", "-r", "48000", "-c", "2", "-b", "16", path, "synth", "0.5", "sine", "440", "sine", "550", "gain", "-3"])
        let engine = try RenderEngine(manualRate: 48000, channels: 2, maximumFrames: 256, configuration: Self.plain)
        let file = try AudioFile.open(path: path)
        let feed = AudioFileFeed(file: file)
        let queue = try OutputQueue(format: file.dataFormat, host: engine, callbackThread: QueueFixture.thread) { queue, buffer, event in
            guard event.stage == .consumed, !event.discarded else { return }
            if (try? feed.enqueueNext(buffer, on: queue)) != true { try? queue.stop(immediately: false) }
        }
        defer { queue.dispose() }
        for _ in 0..<3 { try feed.enqueueNext(queue.allocateBuffer(byteCapacity: 16384), on: queue) }
        try queue.prime()
        try queue.start()
        var out: [Fixed824] = []
        var period = [Fixed824](repeating: .zero, count: 512)
        for _ in 0..<1000 where queue.state != .stopped {
            try period.withUnsafeMutableBufferPointer { try engine.renderManually(frames: 256, into: $0.baseAddress!) }
            out += period
            queue.deliverCallbacks()
        }
        let reference = try soxSamples(path)
        #expect(queue.state == .stopped && queue.underruns == 0)
        #expect(Array(out.prefix(reference.count)).asSox == reference)
    }

    @Test func aPlayingQueueAllocatesLocksAndCallsNothingOnTheRenderThread() throws {
        let clock = ManualClock(skipsSleeps: true)
        let hardware = SimulatedPCMHardware(name: "sim", formats: [.s16LE], rates: [48000], channels: 2...2,
                                            periodFrames: 16...4096, periodStep: 16, periodCounts: 2...8)
        let pcm = try SimulatedPCM(hardware: hardware, direction: .playback,
                                   configuration: PCMConfiguration(format: .s16LE, rate: 48000, channels: 2,
                                                                   periodFrames: 256, periodCount: 4),
                                   clock: clock, playback: .discard)
        let engine = try RenderEngine(output: pcm, input: nil,
                                      configuration: RenderEngine.Configuration(realtimePriority: nil, locksMemory: false))
        // 44.1 kHz stereo 16-bit: the render side decodes, converts to 48 kHz, fades, ramps and meters.
        let format = StreamFormat.linearPCM(sampleRate: 44100, channels: 2, bits: 16)
        let queue = try OutputQueue(format: format, host: engine, callbackThread: QueueFixture.thread) { _, _, _ in }
        defer { queue.dispose() }
        let frames = 44100 * 4
        for _ in 0..<4 {
            let samples = (0..<(2 * frames)).map { Int16(truncatingIfNeeded: ($0 * 37) % 20000 - 10000) }
            try queue.enqueue(try QueueFixture.buffer(queue, int16: samples))
        }
        try queue.start()
        let loop = try #require(engine.playback)
        loop.prepareToStart()
        for _ in 0..<100 { try loop.period() }
        try queue.setVolume(0.5)                  // a ramp inside the window
        try queue.pause()
        try queue.start()
        loop.window = RenderWindow(open: realtime_probe_resume, close: realtime_probe_pause)
        realtime_probe_reset()
        for _ in 0..<2000 { try loop.period() }
        let counts = realtime_probe_read()
        realtime_probe_reset()
        loop.window = nil
        #expect(counts.windows == 2000)
        #expect(counts.allocations == 0)
        #expect(counts.locks == 0)
        #expect(counts.systemCalls == 0)
        queue.deliverCallbacks()
        #expect(queue.isRunning && queue.underruns == 0)
        #expect(queue.levels?.allSatisfy { $0.peak > -20 } == true, "it was playing")
    }
}

extension OutputQueueEngineTests {
    /// Over a simulated device with 4 periods of 480 frames queued, "played" waits for the device's own
    /// position (the engine's timeline) to pass a buffer's last frame: later than "rendered" by the latency.
    @Test func playedFollowsTheDevicePositionThroughTheEngine() throws {
        let clock = ManualClock(skipsSleeps: true)
        let hardware = SimulatedPCMHardware(name: "sim", formats: [.s16LE], rates: [48000], channels: 2...2,
                                            periodFrames: 16...4096, periodStep: 16, periodCounts: 2...8)
        let pcm = try SimulatedPCM(hardware: hardware, direction: .playback,
                                   configuration: PCMConfiguration(format: .s16LE, rate: 48000, channels: 2,
                                                                   periodFrames: 480, periodCount: 4),
                                   clock: clock, playback: .memory)
        let engine = try RenderEngine(output: pcm, input: nil, configuration: Self.plain)
        final class Seen: @unchecked Sendable {
            let entries = Mutex<[(index: Int, stage: AudioQueueBufferEvent.Stage, lastFrame: Int64?, played: Int64)]>([])
        }
        let seen = Seen()
        let timeline = engine.timeline
        let format = StreamFormat.linearPCM(sampleRate: 48000, channels: 2, bits: 16)
        let queue = try OutputQueue(format: format, host: engine, callbackThread: QueueFixture.thread) { _, buffer, event in
            seen.entries.withLock { $0.append((buffer.index, event.stage, event.lastFrame, timeline.playedFrames)) }
        }
        defer { queue.dispose() }
        for _ in 0..<3 { try queue.enqueue(try QueueFixture.buffer(queue, int16: [Int16](repeating: 1000, count: 2 * 1000))) }
        try queue.start()
        try queue.stop(immediately: false)
        let loop = try #require(engine.playback)
        loop.prepareToStart()
        for _ in 0..<20 {
            try loop.period()
            queue.deliverCallbacks()
        }
        clock.advance(by: .milliseconds(50))
        try loop.period()
        queue.deliverCallbacks()
        let entries = seen.entries.withLock { $0 }
        for index in 0..<3 {
            let mine = entries.filter { $0.index == index }
            #expect(mine.map(\.stage) == [.consumed, .rendered, .played], "buffer \(index)")
            guard mine.count == 3 else { continue }
            #expect(mine[1].lastFrame == Int64(1000 * (index + 1) - 1), "the queue started at timeline frame 0")
            #expect(mine[2].lastFrame == mine[1].lastFrame)
            #expect(mine[2].played > mine[2].lastFrame!, "played once the device position passed its last frame")
            #expect(mine[1].played <= mine[1].lastFrame!, "rendered before the codec had played it (latency)")
        }
        #expect(queue.state == .stopped)
    }
}
