import Codec8_24
import Foundation
import HAL
import Synchronization
import Testing
@testable import Queue

/// What the queue does to the samples: nothing at unity and between buffers and files (gapless), exactly
/// half at -6.02 dB, metered to closed-form values, converted to the engine's rate by the converter's
/// contract.
@Suite(.serialized)
struct OutputQueueSignalTests {
    /// Plays every packet of `files` through one queue with three buffers of `bufferPackets` (boundaries
    /// falling anywhere), refilled as they come back, stopping after what is enqueued; returns what the queue
    /// rendered.
    static func play(files: [String], bufferPackets: Int, period: Int = 256) throws -> [Fixed824] {
        let first = try AudioFile.open(path: files[0])
        let host = TestRenderHost(rate: Int(first.sampleRate), maximumFrames: period)
        let free = Mutex<[AudioQueueBuffer]>([])
        let queue = try OutputQueue(format: first.dataFormat, host: host, callbackThread: QueueFixture.thread,
                                    clock: ManualClock()) { _, buffer, event in
            if event.stage == .consumed { free.withLock { $0.append(buffer) } }
        }
        defer { queue.dispose() }
        let bytes = bufferPackets * first.dataFormat.bytesPerPacket
        for _ in 0..<3 { free.withLock { $0.append(try! queue.allocateBuffer(byteCapacity: bytes)) } }
        var out: [Fixed824] = []
        try queue.start()
        for path in files {
            let file = try AudioFile.open(path: path)
            var packet: Int64 = 0
            while packet < file.packetCount {
                guard let buffer = free.withLock({ $0.popLast() }) else {
                    out += host.renderPeriod()    // all three are playing: let one finish
                    queue.deliverCallbacks()
                    continue
                }
                let n = try file.readPackets(start: packet, count: bufferPackets,
                                             into: UnsafeMutableRawBufferPointer(start: buffer.audioData, count: bytes))
                buffer.byteSize = n * file.dataFormat.bytesPerPacket
                try queue.enqueue(buffer)
                packet += Int64(n)
            }
        }
        try queue.stop(immediately: false)
        while true {
            out += host.renderPeriod()
            queue.deliverCallbacks()
            if queue.state == .stopped { break }
        }
        #expect(queue.underruns == 0, "the buffers were refilled in time")
        return out
    }

    @Test func twoFilesPlayBackToBackAsTheirConcatenation() throws {
        // sox makes two files of odd lengths and concatenates them itself: the reference.
        guard toolAvailable("sox") else { return }
        let directory = TemporaryDirectory()
        let a = directory.file("a.wav"), b = directory.file("b.wav"), both = directory.file("ab.wav")
        try run("sox", ["-n", "-r", "48000", "-c", "2", "-b", "16", a, "synth", "4801s", "sine", "440", "sine", "660", "gain", "-1"])
        try run("sox", ["-n", "-r", "48000", "-c", "2", "-b", "16", b, "synth", "3333s", "square", "1000", "sine", "220", "gain", "-2"])
        try run("sox", [a, b, both])
        let reference = try soxSamples(both)
        let out = try Self.play(files: [a, b], bufferPackets: 1000)
        #expect(reference.count == 2 * (4801 + 3333))
        #expect(Array(out.prefix(reference.count)).asSox == reference, "bit for bit, no frame added or lost")
        #expect(out[reference.count...].allSatisfy { $0 == .zero })
    }

    @Test func imaFilesPlayAsFFmpegDecodesThem() throws {
        // Apple IMA4 in CAF from ffmpeg (adpcm_ima_qt), decoded by the queue and by ffmpeg.
        guard toolAvailable("ffmpeg") else { return }
        let directory = TemporaryDirectory()
        let path = directory.file("ima4.caf")
        try run("ffmpeg", ["-v", "error", "-f", "lavfi", "-i", "sine=frequency=440:sample_rate=48000:duration=0.2",
                           "-ac", "1", "-c:a", "adpcm_ima_qt", path])
        let reference = try ffmpegSamples(path)
        let out = try Self.play(files: [path, path], bufferPackets: 7)
        let expected = reference + reference
        #expect(Array(out.prefix(expected.count)).asSox == expected)
    }

    @Test func minusSixDecibelsHalvesTheSamples() throws {
        // 20·log10(1/2) dB is a gain of exactly 1/2 (closed form); even 8.24 samples halve exactly.
        let host = TestRenderHost(maximumFrames: 256)
        let queue = try QueueFixture.queue(.linearPCM(sampleRate: 48000, channels: 1, bits: 16), host: host, log: QueueLog())
        defer { queue.dispose() }
        try queue.setVolume(decibels: 20 * log10(0.5))
        let samples = (0..<512).map { Int16(truncatingIfNeeded: $0 * 127 - 30000) }
        try queue.enqueue(try QueueFixture.buffer(queue, int16: samples))
        try queue.flush()
        try queue.start()
        let out = host.render(periods: 2)
        #expect(out == samples.map { Fixed824(raw: Fixed824(int16: $0).raw / 2) })
        #expect(abs(queue.volume - 0.5) < 1e-12)
        do { try queue.setVolume(1.5); Issue.record("volume above 1 accepted") } catch { #expect(error.kind == .invalidValue) }
    }

    @Test func aVolumeChangeWhileSoundingRamps() throws {
        let host = TestRenderHost(maximumFrames: 256)
        let queue = try QueueFixture.queue(.linearPCM(sampleRate: 48000, channels: 1, bits: 32, isFloat: true),
                                           host: host, log: QueueLog())
        defer { queue.dispose() }
        try queue.enqueue(try QueueFixture.buffer(queue, float: [Float](repeating: 1, count: 2048)))
        try queue.start()
        var out = host.renderPeriod()
        try queue.setVolume(0)
        out += host.render(periods: 2)
        // A linear ramp of 240 frames from 1 to 0: steps of 1/240 full scale (closed form), then silence.
        #expect(QueueFixture.largestStep(out) <= Int64(1 << 24) / 240 + 2)
        #expect(out[256 + 239] == .zero && out[(256 + 240)...].allSatisfy { $0 == .zero })
    }

    @Test func metersAFullScaleSineAndSilence() throws {
        // A full-scale sine reads a peak of 0 dBFS and an average power of 10·log10(1/2) = -3.0103 dBFS
        // (closed form: the mean of sin² over whole periods is 1/2). 1 kHz at 48 kHz repeats every 48
        // samples; the meter's block is one engine period, 7680 frames here: 160 whole periods.
        let period = 7680
        let host = TestRenderHost(maximumFrames: period)
        let stereo = StreamFormat.linearPCM(sampleRate: 48000, channels: 2, bits: 32, isFloat: true)
        let queue = try QueueFixture.queue(stereo, host: host, log: QueueLog())
        defer { queue.dispose() }
        #expect(queue.levels?.count == 2)
        #expect(queue.levels?.allSatisfy { $0.peak == LevelMeter.floor && $0.average == LevelMeter.floor } == true,
                "silence reads the floor (-144 dBFS)")
        var samples: [Float] = []
        for i in 0..<period { samples += [Float(sin(2 * Double.pi * Double(i) / 48)), 0] }
        try queue.enqueue(try QueueFixture.buffer(queue, float: samples))
        try queue.flush()
        try queue.start()
        _ = host.renderPeriod()
        let levels = try #require(queue.levels)
        #expect(abs(levels[0].peak) < 1e-6, "peak \(levels[0].peak)")
        #expect(abs(levels[0].average - 10 * log10(0.5)) < 1e-4, "average \(levels[0].average)")
        #expect(levels[1].peak == LevelMeter.floor && levels[1].average == LevelMeter.floor, "the silent channel")
    }

    @Test func a44100QueueOnA48000HostYieldsTheConvertersFrameCount() throws {
        // The converter's contract (SampleRateConverter): n input frames give latency + ceil(n·L/M) output
        // frames in all, L/M = 160/147 for 44.1 -> 48 kHz; the last input frame lands on output frame
        // latency + ceil((n-1)·160/147).
        let host = TestRenderHost(rate: 48000, maximumFrames: 256)
        let log = QueueLog()
        let format = StreamFormat.linearPCM(sampleRate: 44100, channels: 1, bits: 16)
        let queue = try QueueFixture.queue(format, host: host, log: log)
        defer { queue.dispose() }
        let n = 4410
        try queue.enqueue(try QueueFixture.buffer(queue, int16: [Int16](repeating: 8000, count: n)))
        try queue.flush()
        try queue.start()
        let outputs = host.render(periods: 30)
        queue.deliverCallbacks()
        let converter = SampleRateConverter(from: .hz44100, to: .hz48000, channels: 1)
        let rendered = try #require(log.events(of: 0).first { $0.stage == .rendered })
        #expect(rendered.lastFrame == Int64(converter.latencyFrames + (( n - 1) * 160 + 146) / 147))
        // In the middle, the DC level passes the converter (passband ripple well under 0.1 %).
        let middle = outputs[converter.latencyFrames + 2000]
        #expect(abs(middle.doubleValue - Fixed824(int16: 8000).doubleValue) < 0.001 * Fixed824(int16: 8000).doubleValue)
    }
}
