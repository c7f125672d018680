import Codec8_24
import Foundation
import HAL
import TestSupport
import Testing
@testable import Queue

/// The decoding feed on the real render engine in manual mode: a file decoded on the feeding thread and
/// queued as 32-bit PCM comes out as sox decodes it (bit for bit: 8.24 -> S32 -> 8.24 is exact), from any
/// frame it is seeked to, and its gain is applied in 8.24 with the closed-form level.
@Suite("Decoding file feed", .serialized)
struct DecodingFileFeedTests {
    static let plain = RenderEngine.Configuration(softwareEQ: false, limiter: false, dither: false,
                                                  realtimePriority: nil, locksMemory: false)

    /// The errors a feed threw while playing, in order.
    final class ErrorLog: @unchecked Sendable {
        private let lock = NSLock()
        private var list: [any Error] = []
        func add(_ error: any Error) {
            lock.lock()
            defer { lock.unlock() }
            list.append(error)
        }
        var errors: [any Error] {
            lock.lock()
            defer { lock.unlock() }
            return list
        }
    }

    /// Plays `feed` to its end through a manual engine at 48 kHz; returns what was rendered. With `errors`, an
    /// error is logged and the same buffer offered again (at most 5 times), as a player going on past damage
    /// does; without, the first error stops the queue.
    static func play(_ feed: DecodingFileFeed, bufferFrames: Int = 4800, errors: ErrorLog? = nil) throws -> [Fixed824] {
        let engine = try RenderEngine(manualRate: 48000, channels: 2, maximumFrames: 256, configuration: plain)
        let queue = try OutputQueue(format: feed.format, host: engine, callbackThread: QueueFixture.thread) { queue, buffer, event in
            guard event.stage == .consumed, !event.discarded else { return }
            for _ in 0..<5 {
                do {
                    if try !feed.enqueueNext(buffer, on: queue) { try? queue.stop(immediately: false) }
                    return
                } catch {
                    guard let errors else { break }
                    errors.add(error)
                }
            }
            try? queue.stop(immediately: false)
        }
        defer { queue.dispose() }
        for _ in 0..<3 {
            try feed.enqueueNext(queue.allocateBuffer(byteCapacity: bufferFrames * feed.format.bytesPerPacket), on: queue)
        }
        try queue.prime()
        try queue.start()
        var out: [Fixed824] = []
        var period = [Fixed824](repeating: .zero, count: 512)
        for _ in 0..<2000 where queue.state != .stopped {
            try period.withUnsafeMutableBufferPointer { try engine.renderManually(frames: 256, into: $0.baseAddress!) }
            out += period
            queue.deliverCallbacks()
        }
        #expect(queue.state == .stopped && queue.underruns == 0)
        return out
    }

    @Test func aDecodedFilePlaysAsSoxDecodesItFromAnyFrame() throws {
        guard toolAvailable("sox") else { return }
        let directory = TemporaryDirectory()
        let path = directory.file("song.wav")
        try run("sox", ["-n", "-r", "48000", "-c", "2", "-b", "24", path, "synth", "0.5", "sine", "440", "sine", "550", "gain", "-3"])
        let reference = try soxSamples(path)
        let feed = DecodingFileFeed(file: try AudioFile.open(path: path), maximumFrames: 4800)
        #expect(feed.format == .linearPCM(sampleRate: 48000, channels: 2, bits: 32))
        let whole = try Self.play(feed)
        #expect(whole.count >= reference.count)
        #expect(firstDifference(Array(whole.prefix(reference.count)).asSox, reference) == nil)

        // Seeked to frame 12,345 (inside a buffer and a period): the frames from there on.
        let seeked = DecodingFileFeed(file: try AudioFile.open(path: path), maximumFrames: 4800)
        seeked.seek(toPacket: 12_345)
        #expect(seeked.nextPacket == 12_345)
        let rest = try Self.play(seeked)
        let expected = Array(reference[(2 * 12_345)...])
        #expect(firstDifference(Array(rest.prefix(expected.count)).asSox, expected) == nil)
    }

    @Test func theGainIsAppliedInEightTwentyFourAndRamps() throws {
        guard toolAvailable("sox") else { return }
        let directory = TemporaryDirectory()
        let path = directory.file("sine.wav")
        // A 1 kHz sine at amplitude 0.5 (-6.02 dBFS), 24-bit.
        try run("sox", ["-n", "-r", "48000", "-c", "2", "-b", "24", path, "synth", "1", "sine", "1000", "vol", "0.5"])
        let feed = DecodingFileFeed(file: try AudioFile.open(path: path), maximumFrames: 4800)
        feed.setGain(Decibels.gain(-6))
        let out = try Self.play(feed)
        // Closed form: a sine of amplitude A has RMS A/sqrt(2); -6 dB multiplies it by 10^(-6/20).
        let expected = 0.5 / 2.0.squareRoot() * pow(10, -6.0 / 20)
        let measured = rms(out[(2 * 4800)..<(2 * 43200)])
        #expect(abs(20 * log10(measured / expected)) < 0.01, "RMS \(measured), expected \(expected)")

        // A ramp from 1.0 to 0.5 over 480 frames: the first frame is at unity, the 480th at half.
        let ramped = DecodingFileFeed(file: try AudioFile.open(path: path), maximumFrames: 4800)
        ramped.setGain(.one)
        ramped.setGain(Fixed824(0.5), rampFrames: 480)
        #expect(ramped.targetGain == Fixed824(0.5))
        let soft = try Self.play(ramped)
        let reference = try soxSamples(path)
        let tail = rms(soft[(2 * 4800)..<(2 * 43200)])
        #expect(abs(20 * log10(tail / (0.5 / 2.0.squareRoot() * 0.5))) < 0.01)
        // No step: sample to sample, the ramped signal moves no more than the sine itself does.
        var steepest = 0.0, sineSteepest = 0.0
        for i in 1..<960 {
            let step = Double(soft[2 * i].raw) - Double(soft[2 * i - 2].raw)
            let sineStep = (Double(reference[2 * i]) - Double(reference[2 * i - 2])) / 128
            steepest = max(steepest, abs(step))
            sineSteepest = max(sineSteepest, abs(sineStep))
        }
        #expect(steepest <= sineSteepest + 2)
    }

    @Test func aFLACFilePlaysAsFlacDecodesIt() throws {
        // Sine plus noise made by sox, encoded by flac; the reference is `flac -d`'s decoding (FLACFixture).
        let fixture = try FLACFixture(rate: 48000, channels: 2, bits: 24, seconds: 1)
        let feed = DecodingFileFeed(file: try AudioFile.open(path: fixture.path), maximumFrames: 4800)
        #expect(feed.format == .linearPCM(sampleRate: 48000, channels: 2, bits: 32))
        let whole = try Self.play(feed)
        #expect(whole.count >= fixture.reference.count)
        #expect(feed.nextPacket == Int64(fixture.reference.count / 2))
        #expect(firstDifference(Array(whole.prefix(fixture.reference.count)).asSox, fixture.reference) == nil)
    }

    /// A FLAC file (FLACFixture: sox's signal encoded by flac) cut at 60 % of its bytes, played through a feed
    /// that goes on past errors: the feed, what it rendered, the errors, and the `flac -d` samples of every
    /// frame `flac -a` lists as ending before the cut.
    static func playCutFLAC() throws -> (feed: DecodingFileFeed, out: [Fixed824], errors: [any Error], expected: [Int32]) {
        let fixture = try FLACFixture(rate: 48000, channels: 2, bits: 24, seconds: 1)
        let bytes = try Data(contentsOf: URL(fileURLWithPath: fixture.path))
        let cut = Int64(Double(bytes.count) * 0.6)
        try bytes.prefix(Int(cut)).write(to: URL(fileURLWithPath: fixture.path))
        let wholeFrames = fixture.frames.filter { $0.offset + $0.bytes <= cut }.reduce(0) { $0 + $1.blockSize }
        let feed = DecodingFileFeed(file: try AudioFile.open(path: fixture.path), maximumFrames: 4800)
        let log = ErrorLog()
        let out = try Self.play(feed, errors: log)
        return (feed, out, log.errors, Array(fixture.reference.prefix(2 * wholeFrames)))
    }

    @Test func aCutFLACFileSaysSoOnceThenEnds() throws {
        let (feed, out, errors, expected) = try Self.playCutFLAC()
        // What played is flac -d's decoding of the frames before the cut, bit for bit, as far as it goes.
        let played = Int(feed.nextPacket) * 2
        #expect(played > 0 && played <= expected.count)
        #expect(firstDifference(Array(out.prefix(played)).asSox, Array(expected.prefix(played))) == nil)
        // The damage once (not at every later call), then the end.
        #expect(errors.count == 1, "\(errors)")
        #expect((errors.first as? AudioFileError)?.kind == .truncated, "\(errors)")
        let probe = try OutputQueue(format: feed.format, host: try RenderEngine(manualRate: 48000, channels: 2, maximumFrames: 256, configuration: Self.plain),
                                    callbackThread: QueueFixture.thread) { _, _, _ in }
        defer { probe.dispose() }
        let ended = try feed.enqueueNext(probe.allocateBuffer(byteCapacity: 4800 * 8), on: probe)
        #expect(!ended)
    }

    @Test func aCutFLACFilePlaysEveryWholeFrameBeforeTheCut() throws {
        let (feed, out, _, expected) = try Self.playCutFLAC()
        // Every frame flac -a lists as ending before the cut, as flac -d decodes it: none lost at the damage
        // (the frames a reader returned in the read that then met the cut are played too).
        #expect(feed.nextPacket == Int64(expected.count / 2))
        #expect(firstDifference(Array(out.prefix(expected.count)).asSox, expected) == nil)
    }

    func rms(_ samples: ArraySlice<Fixed824>) -> Double {
        (samples.reduce(0.0) { $0 + $1.doubleValue * $1.doubleValue } / Double(samples.count)).squareRoot()
    }

    func firstDifference(_ a: [Int32], _ b: [Int32]) -> Int? {
        for i in 0..<min(a.count, b.count) where a[i] != b[i] { return i }
        return a.count == b.count ? nil : min(a.count, b.count)
    }
}
