import Codec8_24
import Foundation
import HAL
import Testing
import TestSupport
@testable import Queue
@testable import appliance

/// Recordings through the engine's capture, the input queue and the writer thread, read back by sox (the
/// reference decoder) or by the container spec's own fields. Expected samples are the generator's
/// closed-form sine (RecorderHarness.sample).
@Suite("Recording service", .serialized)
struct RecordingServiceTests {
    static let take = "2026-11-24_19-45-03"

    @Test func aTimedRecordingHoldsExactlyTheGeneratorsSamples() throws {
        let harness = try RecorderHarness()
        defer { harness.removeDirectory() }
        let reply = harness.service.perform(.start(RecordOptions(seconds: 1)))
        #expect(reply.outcome == .ok)
        #expect(harness.service.isRecording)
        // 1 s at 48 kHz = 48,000 frames = 100 periods of 480; a few more show nothing beyond the limit is kept.
        try harness.periods(103)
        harness.settle()
        #expect(!harness.service.isRecording)
        #expect(harness.files == ["\(Self.take).wav"])
        // sox reads 48,000 stereo frames equal to the generator's frames 0..<48,000.
        let samples = try soxSamples(harness.file("\(Self.take).wav"))
        #expect(samples.count == 96_000)
        #expect(samples == expectedSamples(0..<48_000))
        // The header says WAV, 24-bit, 48 kHz, stereo (the board default the issue names).
        let info = try Subprocess.check("/usr/bin/soxi", [harness.file("\(Self.take).wav")])
        let text = String(decoding: info, as: UTF8.self)
        #expect(text.contains("Sample Rate    : 48000") && text.contains("Channels       : 2") && text.contains("Precision      : 24-bit"))
        #expect(harness.eventLines == ["EVENT record started \(Self.take)", "EVENT record stopped \(Self.take) 1.0"])
        // The record LED: on for the take, off after it (told only when it changes).
        #expect(harness.led.withLock { $0 } == [true, false])
    }

    /// A writer that takes nothing for 21 periods of 480 frames (10,080 frames; its thread is held, as by a slow
    /// card, until after the 21st) while the queue holds three 50 ms buffers (7,200 frames at 48 kHz): the 2,880 frames
    /// beyond them are lost, and the console hears of it. The writer's thread also polls on its own every few
    /// ms, so it is held, not merely left uncalled: otherwise it may keep up (it did under qemu).
    @Test func framesLostToAStalledWriterAreSaid() throws {
        let harness = try RecorderHarness()
        defer { harness.removeDirectory() }
        #expect(harness.service.perform(.start(RecordOptions())).outcome == .ok)
        let writer = try #require(harness.service.writer)
        let held = DispatchSemaphore(value: 0), holding = DispatchSemaphore(value: 0)
        writer.thread.async { holding.signal(); held.wait() }
        holding.wait()   // the thread is held from here: what the start posted before has run
        for _ in 0..<21 { try harness.engine.capture!.period() }
        held.signal()
        harness.service.deliverCaptured()
        harness.settle()
        #expect(harness.eventLines.contains("EVENT record dropped 2880 frames"), "\(harness.eventLines)")
        _ = harness.service.stopRecording()
        harness.settle()
    }

    @Test func theSafetyTrackIsTheSameFramesTwelveDecibelsLower() throws {
        let harness = try RecorderHarness()
        defer { harness.removeDirectory() }
        #expect(harness.service.perform(.start(RecordOptions(seconds: 0.5, safetyTrack: true))).outcome == .ok)
        try harness.periods(52)
        harness.settle()
        #expect(harness.files == ["\(Self.take)-safety.wav", "\(Self.take).wav"])
        let main = try soxSamples(harness.file("\(Self.take).wav"))
        let safety = try soxSamples(harness.file("\(Self.take)-safety.wav"))
        #expect(main.count == 48_000 && safety.count == 48_000)
        // Within 1 LSB of 24 bits of the main track x 10^(-12/20), sample for sample.
        let worst = Self.worstSafetyError(main: main, safety: safety)
        #expect(worst <= 1.0, "worst difference \(worst) LSB")
    }

    /// The largest difference, in 24-bit LSBs, between each safety sample and its main sample 12 dB lower:
    /// -12 dB is a factor of 10^(-12/20) = 0.2512 (the decibel's definition).
    static func worstSafetyError(main: [Int32], safety: [Int32]) -> Double {
        let factor = pow(10.0, -12.0 / 20.0)
        return zip(main, safety).reduce(0.0) { worst, pair in max(worst, abs(Double(pair.1 >> 8) - Double(pair.0 >> 8) * factor)) }
    }

    /// Regression: the pre-roll run (here 24,000 frames) is longer than one block (2,400 frames); the safety
    /// track must scale all of it, not overrun its one-block buffer.
    @Test func theSafetyTrackKeepsUpWithALongPreRoll() throws {
        let harness = try RecorderHarness(preRollSeconds: 0.5)   // 24,000 frames
        defer { harness.removeDirectory() }
        #expect(harness.service.standBy().outcome == .ok)
        try harness.periods(60)
        #expect(harness.service.perform(.start(RecordOptions(seconds: 0.1, safetyTrack: true))).outcome == .ok)
        try harness.periods(15)
        harness.settle()
        harness.service.shutdown()
        let main = try soxSamples(harness.file("\(Self.take).wav"))
        let safety = try soxSamples(harness.file("\(Self.take)-safety.wav"))
        // 0.5 s of pre-roll + 0.1 s = 28,800 stereo frames in both.
        #expect(main.count == 2 * 28_800 && safety.count == main.count)
        // Within 1 LSB of 24 bits of the main track x 10^(-12/20), sample for sample.
        let worst = Self.worstSafetyError(main: main, safety: safety)
        #expect(worst <= 1.0, "worst difference \(worst) LSB")
    }

    @Test func preRollHoldsTheSecondsBeforeThePress() throws {
        let harness = try RecorderHarness(preRollSeconds: 0.1)   // 4,800 frames
        defer { harness.removeDirectory() }
        #expect(harness.service.standBy().outcome == .ok)
        #expect(!harness.service.isRecording)
        try harness.periods(50)     // 24,000 frames before the press
        #expect(harness.service.perform(.start(RecordOptions(seconds: 0.2))).outcome == .ok)
        try harness.periods(25)
        harness.settle()
        // The file: the 4,800 frames before the press (19,200..<24,000), then 0.2 s = 9,600 after it.
        let samples = try soxSamples(harness.file("\(Self.take).wav"))
        #expect(samples.count == 2 * (4_800 + 9_600))
        #expect(samples == expectedSamples(19_200..<33_600))
        // Back in standby for the next press.
        #expect(harness.service.statusLines.first == "recorder: pre-roll standby")
        harness.service.shutdown()
    }

    @Test func markersLandAtTheFrameOfThePress() throws {
        let harness = try RecorderHarness()
        defer { harness.removeDirectory() }
        #expect(harness.service.perform(.mark(nil)).outcome == .error(.state, "not recording: nothing to mark"))
        #expect(harness.service.perform(.start(RecordOptions())).outcome == .ok)
        try harness.periods(25)                                   // 12,000 frames
        #expect(harness.service.perform(.mark("verse")).outcome == .ok)
        try harness.periods(10)                                   // 16,800
        #expect(harness.service.perform(.mark(nil)).outcome == .ok)
        try harness.periods(5)
        #expect(harness.service.stopRecording().outcome == .ok)
        harness.settle()
        let path = harness.file("\(Self.take).wav")
        let file = try AudioFile.open(path: path)
        #expect(file.markers.map(\.framePosition) == [12_000, 16_800])
        #expect(file.markers.map(\.name) == ["verse", "marker 2"])
        // The RIFF 'cue ' chunk itself (Multimedia Programming Interface and Data Specifications 1.0,
        // "Cue-Points Chunk"): a count, then 24-byte points whose dwSampleOffset (bytes 20..<24) is the frame.
        let bytes = [UInt8](try Data(contentsOf: URL(fileURLWithPath: path)))
        let cue = try #require(bytes.indices.dropLast(4).first { bytes[$0..<($0 + 4)] == Array("cue ".utf8)[...] })
        func u32(_ at: Int) -> UInt32 { (0..<4).reduce(0) { $0 | UInt32(bytes[at + $1]) << (8 * $1) } }
        #expect(u32(cue + 8) == 2)
        #expect([u32(cue + 12 + 20), u32(cue + 12 + 24 + 20)] == [12_000, 16_800])
        // ffprobe (FFmpeg's WAV demuxer turns cue points into chapters, start in 1/48000 s) agrees.
        let chapters = try Subprocess.check("/usr/bin/ffprobe", ["-v", "error", "-show_entries", "chapter=start",
                                                                  "-of", "csv=p=0", path])
        #expect(String(decoding: chapters, as: UTF8.self).split(separator: "\n") == ["12000", "16800"])
        #expect(harness.eventLines.contains("EVENT record marker 1 12000"))
        // sox still reads every frame: 40 periods.
        #expect(try soxSamples(path).count == 2 * 40 * 480)
    }

    /// `mark` typed at once after `record`, before the writer has seen a buffer (`status` already says
    /// recording): the marker is kept, at the press. With 0.1 s of pre-roll the press is at file frame 4,800
    /// (0.1 s × 48,000 Hz), as ffprobe (FFmpeg's WAV demuxer, cue points as chapters) reads it too.
    @Test func aMarkBeforeTheFirstBufferLandsAtThePress() throws {
        let harness = try RecorderHarness(preRollSeconds: 0.1)   // 4,800 frames
        defer { harness.removeDirectory() }
        #expect(harness.service.standBy().outcome == .ok)
        try harness.periods(50)                                   // 24,000 frames before the press
        #expect(harness.service.perform(.start(RecordOptions(seconds: 0.2))).outcome == .ok)
        #expect(harness.service.perform(.mark("top")).outcome == .ok)
        try harness.periods(25)
        harness.settle()
        let path = harness.file("\(Self.take).wav")
        let file = try AudioFile.open(path: path)
        #expect(file.markers.map(\.framePosition) == [4_800])
        #expect(file.markers.map(\.name) == ["top"])
        let chapters = try Subprocess.check("/usr/bin/ffprobe", ["-v", "error", "-show_entries", "chapter=start",
                                                                  "-of", "csv=p=0", path])
        #expect(String(decoding: chapters, as: UTF8.self).split(separator: "\n") == ["4800"])
        #expect(harness.eventLines.contains("EVENT record marker 1 24000"))
        harness.service.shutdown()
    }

    /// CAF 'mark' and AIFF 'MARK' chunks as AudioFile writes them, read back: the same frames as in WAV.
    @Test(arguments: ["caf", "aiff"])
    func markersLandAtTheFrameOfThePressInEveryContainer(container: String) throws {
        let harness = try RecorderHarness()
        defer { harness.removeDirectory() }
        #expect(harness.service.perform(.start(RecordOptions(container: container, seconds: 0.2))).outcome == .ok)
        try harness.periods(7)                                    // 3,360 frames
        #expect(harness.service.perform(.mark("take 1")).outcome == .ok)
        try harness.periods(15)
        harness.settle()
        let path = harness.file("\(Self.take).\(container)")
        let file = try AudioFile.open(path: path)
        #expect(file.markers.map(\.framePosition) == [3_360])
        #expect(file.frameCount == 9_600)
        #expect(try soxSamples(path) == expectedSamples(0..<9_600))
    }

    @Test func splitFilesConcatenateToTheUninterruptedSignal() throws {
        let harness = try RecorderHarness()
        defer { harness.removeDirectory() }
        // 1 s split every 0.25 s: four files of 12,000 frames, named in the same second with -2, -3, -4.
        #expect(harness.service.perform(.start(RecordOptions(seconds: 1, splitSeconds: 0.25))).outcome == .ok)
        try harness.periods(101)
        harness.settle()
        let names = [Self.take, "\(Self.take)-2", "\(Self.take)-3", "\(Self.take)-4"]
        #expect(Set(harness.files) == Set(names.map { "\($0).wav" }))
        var joined: [Int32] = []
        for name in names {
            let samples = try soxSamples(harness.file("\(name).wav"))
            #expect(samples.count == 24_000)
            joined += samples
        }
        #expect(joined == expectedSamples(0..<48_000), "no frame lost or doubled across the splits")
        #expect(harness.eventLines.filter { $0.hasPrefix("EVENT record split") }.count == 3)
    }

    @Test func voiceActivationStartsAtTheVoiceWithThePreRoll() throws {
        // Silence for 0.5 s, then the sine: the take starts in the first loud period, with 0.1 s before it.
        var settings = ApplianceSettings()
        settings.recording.preRollSeconds = 0.1
        settings.recording.voxHangSeconds = 0.2
        let harness = try RecorderHarness(settings: settings) { n, c in n < 24_000 ? 0 : RecorderHarness.sample(n, c) }
        defer { harness.removeDirectory() }
        #expect(harness.service.perform(.start(RecordOptions(voxThresholdDB: -20))).outcome == .ok)
        try harness.periods(60)
        #expect(harness.eventLines.prefix(3) == ["EVENT record vox armed", "EVENT record vox triggered",
                                                 "EVENT record started \(Self.take)"])
        #expect(harness.service.stopRecording().outcome == .ok)
        harness.settle()
        let samples = try soxSamples(harness.file("\(Self.take).wav"))
        // Frames 19,200..<28,800: 4,800 of pre-roll (silence) and the 10 loud periods from 24,000.
        #expect(samples == [Int32](repeating: 0, count: 2 * 4_800) + expectedSamples(24_000..<28_800))
    }

    /// `record --vox` without a level uses the saved threshold (settings.recording.voxThresholdDB): the sine
    /// peaks at 20·log10(0.5) = -6.0 dBFS, so a saved -3 dBFS never triggers and a saved -12 dBFS does.
    @Test(arguments: [(-3.0, false), (-12.0, true)])
    func bareVoxUsesTheSavedThreshold(saved: Double, triggers: Bool) throws {
        var settings = ApplianceSettings()
        settings.recording.voxThresholdDB = saved
        let harness = try RecorderHarness(settings: settings)
        defer { harness.removeDirectory() }
        guard case .command(.recorder(let command)) = ConsoleParser.parse(Array("record --vox".utf8)) else {
            Issue.record("record --vox did not parse")
            return
        }
        #expect(harness.service.perform(command).lines == ["armed: recording starts above \(saved) dBFS"])
        try harness.periods(10)
        #expect(harness.eventLines.contains("EVENT record vox triggered") == triggers)
        _ = harness.service.stopRecording()
        harness.settle()
    }

    @Test func startIsRefusedBelowTheFreeSpaceThresholdAndARecordingStopsWhenSpaceRunsOut() throws {
        let harness = try RecorderHarness()
        defer { harness.removeDirectory() }
        harness.fakeFree.withLock { $0 = 10 << 20 }    // 10 MiB, below the default 64 MiB
        let refused = harness.service.perform(.start(RecordOptions()))
        guard case .error(.full, _) = refused.outcome else { Issue.record("\(refused)"); return }
        #expect(harness.files.isEmpty)
        harness.fakeFree.withLock { $0 = 100 << 20 }
        #expect(harness.service.perform(.start(RecordOptions())).outcome == .ok)
        try harness.periods(50)
        harness.fakeFree.withLock { $0 = 60 << 20 }
        // The check is due 1 s after the start (RecorderState.spaceCheckInterval).
        harness.clock.advance(by: .seconds(1))
        harness.service.tick(now: harness.clock.now)
        harness.settle()
        #expect(!harness.service.isRecording)
        #expect(harness.eventLines.contains("EVENT record disk-full"))
        // Finalized: sox reads all 50 periods.
        #expect(try soxSamples(harness.file("\(Self.take).wav")).count == 2 * 50 * 480)
    }
}

/// `meter`, `meter on` and the record button.
@Suite("Recording service meter and button", .serialized)
struct RecordingMeterTests {
    @Test func meterReadsTheSinesPeakAndRMSAndStreamsFourTimesASecond() throws {
        let harness = try RecorderHarness()
        defer { harness.removeDirectory() }
        #expect(harness.service.perform(.meter(nil)).outcome == .error(.state, "no input is running to meter (this board has no capture)"))
        #expect(harness.service.perform(.start(RecordOptions())).outcome == .ok)
        try harness.periods(50)
        // A sine of amplitude 0.5: peak 20·log10(0.5) = -6.0 dBFS, RMS 0.5/√2 = -9.0 dBFS (closed form; the
        // generator's phase offset does not change either over whole cycles).
        let reply = harness.service.perform(.meter(nil))
        #expect(reply.lines == ["ch1 peak -6.0 rms -9.0 ch2 peak -6.0 rms -9.0"])
        // meter on: an EVENT meter line at once and every 250 ms after (ticks driven by the manual clock).
        #expect(harness.service.perform(.meter(true)).outcome == .ok)
        for _ in 0..<8 {
            if let due = harness.service.nextDeadline, due <= harness.clock.now { harness.service.tick(now: harness.clock.now) }
            harness.clock.advance(by: .milliseconds(125))
        }
        // 1 s of ticks at 125 ms: due at 0, 250, 500, 750 ms: four lines.
        #expect(harness.eventLines.filter { $0.hasPrefix("EVENT meter ") }.count == 4)
        #expect(harness.service.perform(.meter(false)).outcome == .ok)
        _ = harness.service.stopRecording()
    }

    /// Idle (no take, no pre-roll configured), the standby capture begun at bring-up still meters the input:
    /// a sine of amplitude 0.5 is -6.0 dBFS peak, 0.5/√2 is -9.0 dBFS RMS (closed form), and `meter on` streams.
    @Test func meterAnswersWhileIdle() throws {
        let harness = try RecorderHarness()
        defer { harness.removeDirectory() }
        #expect(harness.service.standBy().outcome == .ok)   // what bring-up does
        #expect(!harness.service.isRecording)
        #expect(harness.service.statusLines.first == "recorder: idle")
        try harness.periods(10)
        #expect(harness.service.perform(.meter(nil)).lines == ["ch1 peak -6.0 rms -9.0 ch2 peak -6.0 rms -9.0"])
        #expect(harness.service.perform(.meter(true)).outcome == .ok)
        harness.service.tick(now: harness.clock.now)
        #expect(harness.eventLines == ["EVENT meter ch1 peak -6.0 rms -9.0 ch2 peak -6.0 rms -9.0"])
        #expect(harness.files.isEmpty)   // metering writes nothing
        harness.service.shutdown()
    }

    @Test(arguments: [0.0, 0.1])
    func theRecordButtonStartsAndStops(preRollSeconds: Double) throws {
        let harness = try RecorderHarness(preRollSeconds: preRollSeconds)
        if preRollSeconds > 0 { harness.service.standBy() }
        defer { harness.removeDirectory() }
        #expect(harness.service.handle(.toggleRecord))
        #expect(harness.service.isRecording)
        try harness.periods(10)
        #expect(harness.service.handle(.toggleRecord))
        harness.settle()
        #expect(!harness.service.isRecording)
        // No pre-roll: the 10 periods after the press; with 0.1 s of standby before the press, the press
        // came at frame 0 with an empty ring: the same frames.
        #expect(try soxSamples(harness.file("\(RecordingServiceTests.take).wav")) == expectedSamples(0..<4_800))
        harness.service.shutdown()
        #expect(!harness.service.handle(.togglePlayPause), "not the recorder's")
        #expect(harness.service.stopRecording().outcome == .error(.state, "not recording"))
    }
}

/// Bad requests get one ERR with the reason and change nothing.
@Suite("Recording service refusals", .serialized)
struct RecordingRefusalTests {
    @Test func wrongFormatsAndWrongStatesAreRefusedWithAReason() throws {
        let harness = try RecorderHarness()
        defer { harness.removeDirectory() }
        let service = harness.service
        #expect(service.perform(.start(RecordOptions(container: "mp3"))).outcome
                == .error(.usage, "cannot record into 'mp3': choose wav, caf, aiff, flac, opus, alac"))
        #expect(service.perform(.start(RecordOptions(bits: 12))).outcome
                == .error(.usage, "cannot record 12-bit samples: choose 16, 24 or 32"))
        #expect(service.perform(.start(RecordOptions(channels: 6))).outcome
                == .error(.usage, "cannot record 6 channels: choose 1 or 2"))
        // The compressed formats: FLAC and ALAC take 16 or 24 bits, Opus a bit rate instead of a depth.
        #expect(service.perform(.start(RecordOptions(container: "flac", bits: 32))).outcome
                == .error(.usage, "cannot record 32-bit samples in flac: choose 16 or 24"))
        #expect(service.perform(.start(RecordOptions(container: "opus", bits: 16))).outcome
                == .error(.usage, "opus takes no --bits: it encodes at a bit rate (--bitrate)"))
        #expect(service.perform(.start(RecordOptions(container: "wav", bitRate: 96_000))).outcome
                == .error(.usage, "--bitrate is for opus; wav is uncompressed"))
        #expect(service.perform(.start(RecordOptions(container: "alac", bitRate: 96_000))).outcome
                == .error(.usage, "--bitrate is for opus; alac is lossless"))
        #expect(service.perform(.start(RecordOptions(seconds: -1))).outcome
                == .error(.usage, "--seconds must be more than 0, not -1.0"))
        #expect(service.stopRecording().outcome == .error(.state, "not recording"))
        #expect(harness.files.isEmpty && !service.isRecording)
        #expect(service.perform(.start(RecordOptions())).outcome == .ok)
        #expect(service.statusLines.first == "recorder: recording")
        // The writer gets whole 50 ms buffers (RecordingService.bufferSeconds): 2,400 frames = 5 periods.
        try harness.periods(5)
        let again = service.perform(.start(RecordOptions()))
        #expect(again.outcome == .error(.state, "already recording; stop it first"))
        #expect(service.statusLines.prefix(2) == ["recorder: recording", "recording: \(RecordingServiceTests.take) 0.05 s"])
        _ = service.stopRecording()
        harness.settle()
        #expect(harness.files == ["\(RecordingServiceTests.take).wav"])
    }

    /// 21-digit numbers pass the parser's digits-only check (1e20 is 100000000000000000000) and must be refused
    /// by the plan, not trap converting seconds to Int64 frames (1e20 s x 48 kHz > 2^63). The limits: a take or
    /// split of at most 24 h, pre-roll 0-60 s, a vox hang of at most an hour (RecorderPlan.refusal).
    @Test func hugeNumbersAreRefusedNotTrapped() throws {
        let harness = try RecorderHarness()
        defer { harness.removeDirectory() }
        for line in ["record --seconds 100000000000000000000", "record --split-minutes 100000000000000000000",
                     "record --seconds 86401"] {
            guard case .command(.recorder(let command)) = ConsoleParser.parse(Array(line.utf8)) else {
                Issue.record("\(line) did not parse")
                continue
            }
            let outcome = harness.service.perform(command).outcome
            guard case .error(.usage, let message) = outcome else {
                Issue.record("\(line): \(outcome)")
                continue
            }
            #expect(message.contains("24 h"), "\(line): \(message)")
        }
        #expect(!harness.service.isRecording && harness.files.isEmpty)
        let plan = RecorderPlan(sampleRate: 48_000, bytesPerFrame: 6)
        for change in [{ (p: inout RecorderPlan) in p.limitSeconds = 1e300 }, { $0.limitSeconds = .infinity },
                       { $0.splitSeconds = 1e300 }, { $0.splitSeconds = .nan }, { $0.preRollSeconds = 1e300 },
                       { $0.voxHangSeconds = 1e300 }, { $0.voxHangSeconds = 3_601 }, { $0.voxThresholdDB = -.infinity }] {
            var huge = plan
            change(&huge)
            #expect(huge.refusal != nil)
            // The conversions clamp even when nobody asked for the refusal first.
            _ = (huge.limitFrames, huge.splitFrames, huge.hangFrames, huge.preRollFrames)
        }
        var day = plan
        day.limitSeconds = 86_400
        #expect(day.refusal == nil && day.limitFrames == 86_400 * 48_000)   // 24 h x 48 kHz frames
        // A resume position of 1e300 s is the end of the file, not a trap.
        #expect(PlaybackOutput.Item.packet(at: 1e300, in: .linearPCM(sampleRate: 48_000, channels: 2, bits: 16)) == .max)
        #expect(PlaybackOutput.Item.packet(at: .nan, in: .linearPCM(sampleRate: 48_000, channels: 2, bits: 16)) == 0)
    }

    /// A take's `--seconds` limit notice still on its way to the loop when the take is stopped and the next
    /// one started must not end the next one.
    @Test func aStaleLimitNoticeDoesNotEndTheNextTake() throws {
        let harness = try RecorderHarness()
        defer { harness.removeDirectory() }
        #expect(harness.service.perform(.start(RecordOptions(seconds: 0.05))).outcome == .ok)
        // 0.05 s = 2,400 frames = 5 periods of 480: the writer reaches the limit and posts its notices, which
        // the loop has not run yet.
        for _ in 0..<6 {
            try harness.engine.capture!.period()
            harness.service.deliverCaptured()
        }
        _ = harness.service.stopRecording()
        #expect(harness.service.perform(.start(RecordOptions())).outcome == .ok)
        harness.settle()   // now the first take's notices arrive
        #expect(harness.service.isRecording)
        #expect(harness.service.statusLines.first == "recorder: recording")
        try harness.periods(5)
        #expect(harness.service.isRecording)
        #expect(harness.service.stopRecording().outcome == .ok)
        harness.settle()
    }

    /// `record` names the file it will write (local date and time, `-2` when taken: RecordingNames, as the
    /// issue names takes), and `status` shows it at once, before the first buffer reaches the writer.
    @Test func recordAnswersWithTheFileNameAndStatusShowsItAtOnce() throws {
        let harness = try RecorderHarness()
        defer { harness.removeDirectory() }
        FileManager.default.createFile(atPath: harness.file("\(RecordingServiceTests.take).wav"), contents: Data())
        let reply = harness.service.perform(.start(RecordOptions()))
        #expect(reply.lines == ["recording to \(RecordingServiceTests.take)-2.wav"])
        #expect(harness.service.statusLines.prefix(2) == ["recorder: recording", "recording: \(RecordingServiceTests.take)-2 0.0 s"])
        try harness.periods(5)
        #expect(harness.service.stopRecording().lines == ["stopped \(RecordingServiceTests.take)-2"])
        harness.settle()
        #expect(harness.files == ["\(RecordingServiceTests.take)-2.wav", "\(RecordingServiceTests.take).wav"])
    }

    /// The capture device unplugged mid-take (SimulatedPCM's ENODEV fault): the input queue stops, and the take
    /// is finalized with what was captured and an error event saying why, not left "recording" forever.
    @Test func anUnpluggedInputFinalizesTheTake() throws {
        let harness = try RecorderHarness()
        defer { harness.removeDirectory() }
        #expect(harness.service.perform(.start(RecordOptions())).outcome == .ok)
        try harness.periods(5)   // 2,400 frames: one 50 ms buffer written
        let pcm = try #require(harness.engine.capture!.device as? SimulatedPCM)
        pcm.inject(.unplug)
        #expect(throws: PCMError.self) { try harness.engine.capture!.period() }
        harness.service.deliverCaptured()   // the queue sees the failure and stops
        harness.service.deliverCaptured()   // its is-running listener has run
        harness.settle()
        #expect(!harness.service.isRecording)
        #expect(harness.service.statusLines.first == "recorder: idle")
        let lines = harness.eventLines
        #expect(lines.contains { $0.hasPrefix("EVENT error recording: input stopped: ") })
        #expect(lines.contains("EVENT record stopped \(RecordingServiceTests.take) 0.05"))
        // The file is finalized: sox reads the 2,400 frames captured before the fault.
        #expect(try soxSamples(harness.file("\(RecordingServiceTests.take).wav")) == expectedSamples(0..<2_400))
    }

    @Test func aMissingRecordingsDirectoryIsAnIOError() throws {
        let harness = try RecorderHarness()
        harness.removeDirectory()
        let reply = harness.service.perform(.start(RecordOptions()))
        #expect(reply.outcome == .error(.io, "the recordings directory \(harness.directory) is missing or not writable"))
    }
}
