import Codec8_24
import Foundation
import HAL
import Queue
import Synchronization
import TestSupport
import Testing
@testable import appliance

/// The event lines a player sent, in order (its sink may be called from any thread).
final class EventLog: Sendable {
    let lines = Mutex<[String]>([])
}

/// The player service on the real render engine in manual rendering mode: what the listener would hear,
/// sample for sample, with the queue's callbacks hopping onto a control loop as in the daemon.
@Suite("Playback service", .serialized)
struct PlaybackServiceTests {
    /// The chain reduced to the mixer: one stereo input at unity comes out bit for bit (OutputChain's
    /// documented exactness).
    static let plain = RenderEngine.Configuration(softwareEQ: false, limiter: false, dither: false,
                                                  realtimePriority: nil, locksMemory: false)
    static let period = 256

    /// One player on its own engine, loop and callback thread; `render` plays period after period.
    final class Harness {
        let engine: RenderEngine
        let thread: AudioQueueCallbackThread
        let loop: ControlLoop
        let clock = ManualClock()
        let settings: LiveSettings
        let service: PlaybackService
        let seen = EventLog()

        init(media: String, settings saved: ApplianceSettings = ApplianceSettings()) throws {
            engine = try RenderEngine(manualRate: 48000, channels: 2, maximumFrames: PlaybackServiceTests.period,
                                      configuration: PlaybackServiceTests.plain)
            // Polled only when asked (collectCallbacks), so the test decides when callbacks come.
            thread = try AudioQueueCallbackThread(name: "player-test", pollInterval: .seconds(3600))
            loop = try ControlLoop(clock: clock)
            settings = LiveSettings(saved)
            let seen = self.seen
            service = PlaybackService(library: MediaLibrary(mediaDirectory: media, recordingsDirectory: nil),
                                      host: engine, callbackThread: thread, loop: loop, settings: settings,
                                      events: { event in seen.lines.withLock { $0.append(event.line) } }, seed: 5)
        }

        deinit {
            service.shutdown()
            thread.end()
        }

        var events: [String] { seen.lines.withLock { $0 } }

        /// Renders `periods` periods; after each, the queue's callbacks are collected and the loop turns
        /// (refilling buffers, moving the position, crossing track boundaries).
        func render(periods: Int) throws -> [Fixed824] {
            var out: [Fixed824] = []
            var buffer = [Fixed824](repeating: .zero, count: 2 * PlaybackServiceTests.period)
            for _ in 0..<periods {
                try buffer.withUnsafeMutableBufferPointer {
                    try engine.renderManually(frames: PlaybackServiceTests.period, into: $0.baseAddress!)
                }
                out += buffer
                clock.advance(by: .nanoseconds(1_000_000_000 * PlaybackServiceTests.period / 48000))
                service.collectCallbacks()
                loop.turn(maximumWait: .zero)
            }
            return out
        }

        func perform(_ command: PlayerCommand) -> ConsoleReply { service.perform(command) }
    }

    /// 8.24 as sox's signed 32-bit samples (a 16-bit sample s is s << 16 there, s << 9 in 8.24).
    static func asSox(_ samples: ArraySlice<Fixed824>) -> [Int32] { samples.map { Int32(clamping: Int64($0.raw) << 7) } }

    // MARK: Gapless

    /// Two files cut from one sine by sox play back bit-identical to the uncut file: no gap, no click at the
    /// boundary (the issue's "gapless"); and the uncut file comes out as sox decodes it.
    @Test func twoFilesCutFromOneSinePlayAsTheUncutFile() throws {
        guard soxAvailable else { Issue.record("sox is needed"); return }
        let media = PlayerDirectory()
        media.makeDirectory("whole")
        media.makeDirectory("cut")
        let whole = media.file("whole/sine.wav")
        try sox(["-n", "-r", "48000", "-c", "2", "-b", "16", whole, "synth", "1", "sine", "440", "gain", "-3"])
        // Cut at 17761 frames: inside a buffer and a period, not on either's boundary.
        try sox([whole, media.file("cut/a.wav"), "trim", "0", "17761s"])
        try sox([whole, media.file("cut/b.wav"), "trim", "17761s"])

        let one = try Harness(media: media.path)
        #expect(one.perform(.play("whole")).outcome == .ok)
        let uncut = try one.render(periods: 200)
        let two = try Harness(media: media.path)
        #expect(two.perform(.play("cut")).outcome == .ok)
        let joined = try two.render(periods: 200)

        let reference = try soxSamples(whole)
        #expect(reference.count == 2 * 48000)
        // Compared outside #expect: a failing `==` of two long arrays makes Swift Testing diff them (quadratic).
        let uncutMatches = Self.asSox(uncut.prefix(reference.count)) == reference
        #expect(uncutMatches, "the uncut file plays as sox decodes it")
        let firstDifference = zip(uncut, joined).enumerated().first { $0.element.0 != $0.element.1 }?.offset
        #expect(firstDifference == nil, "first differing sample: \(firstDifference ?? -1) (the cut is at \(2 * 17761))")
        #expect(two.events == ["EVENT transport playing cut/a.wav", "EVENT transport track 1/2 cut/a.wav",
                               "EVENT transport track 2/2 cut/b.wav", "EVENT transport stopped"])
        #expect(!two.service.isPlaying)
    }

    /// Files whose formats differ cannot share a queue: the queue is replaced at the boundary and the second
    /// file still plays, then the playlist ends.
    @Test func aFormatChangeReplacesTheQueueAtTheBoundary() throws {
        guard soxAvailable else { Issue.record("sox is needed"); return }
        let media = PlayerDirectory()
        try sox(["-n", "-r", "48000", "-c", "2", "-b", "16", media.file("1.wav"), "synth", "0.2", "sine", "440"])
        try sox(["-n", "-r", "48000", "-c", "1", "-b", "16", media.file("2.wav"), "synth", "0.2", "sine", "880"])
        let player = try Harness(media: media.path)
        #expect(player.perform(.play(nil)).outcome == .ok)
        let out = try player.render(periods: 120)
        #expect(player.events == ["EVENT transport playing 1.wav", "EVENT transport track 1/2 1.wav",
                                  "EVENT transport track 2/2 2.wav", "EVENT transport stopped"])
        // 0.2 s = 9600 frames each; the second file sounds after the first (a sine's peak at 0 dBFS is ~1).
        let secondHalf = out[(2 * 9600 + 2 * 2048)..<(2 * 19200)]
        #expect(secondHalf.map { abs($0.doubleValue) }.max()! > 0.5)
    }

    /// The soak's open finding (RELIABILITY.md part 4: a played recording's file still open at idle). With
    /// repeat on, the end of a one-file playlist queues the same file again gaplessly; `repeat off` before the
    /// boundary then makes the playlist end there. The state stopped, but the queue was left playing the copy
    /// queued behind, with the file open, until the next `play`: sound while `status` said stopped, and a
    /// descriptor held at idle. Expected, from PlayerState's own rule (the playlist ends, `transport stopped`):
    /// silence after the boundary, and no descriptor on the file.
    @Test func aRepeatTurnedOffAfterTheFileWasQueuedAgainStopsAtTheBoundaryAndClosesIt() throws {
        guard soxAvailable else { Issue.record("sox is needed"); return }
        let media = PlayerDirectory()
        let path = media.file("take.wav")
        try sox(["-n", "-r", "48000", "-c", "2", "-b", "16", path, "synth", "0.2", "sine", "440", "gain", "-3"])
        let player = try Harness(media: media.path)
        #expect(player.perform(.repeatMode(.all)).outcome == .ok)
        #expect(player.perform(.play("take.wav")).outcome == .ok)
        // 0.2 s is within the 0.4 s the player queues ahead: the second copy is queued at once.
        _ = try player.render(periods: 4)
        #expect(player.perform(.repeatMode(.off)).outcome == .ok)
        let out = try player.render(periods: 120)    // 0.64 s: the first copy ends at 9600 frames
        #expect(player.events.last == "EVENT transport stopped", "\(player.events)")
        #expect(!player.service.isPlaying)
        // Rendered so far: 4 periods before, so the boundary is at 9600 - 1024 frames into `out`. Past it and
        // the queue's fade-out (a few periods), nothing may sound.
        let after = out[(2 * (9600 - 4 * Self.period + 8 * Self.period))...]
        let loudest = after.map { abs($0.doubleValue) }.max() ?? 0
        #expect(loudest == 0, "sound after the playlist ended: peak \(loudest)")
        #expect(Self.descriptors(on: path) == 0, "the file is still open after the playlist ended")
    }

    /// The soak's second finding (seed 2, the day run): stopped on a file that was then removed, every `play`
    /// (and every press of the remote's play/pause) failed on that file, `ERR not-found`, for good, until a
    /// `play PATH` named another. Expected, as `play` with no playlist is documented (the last thing played,
    /// else the media directory): the player starts afresh, here on the folder as it is now.
    @Test func playAfterTheStoppedFileWasRemovedStartsAfresh() throws {
        guard soxAvailable else { Issue.record("sox is needed"); return }
        let media = PlayerDirectory()
        for name in ["a.wav", "b.wav"] {
            try sox(["-n", "-r", "48000", "-c", "2", "-b", "16", media.file(name), "synth", "0.3", "sine", "440"])
        }
        let player = try Harness(media: media.path)
        #expect(player.perform(.play("a.wav")).outcome == .ok)
        _ = try player.render(periods: 4)
        #expect(player.service.stopPlayback().outcome == .ok)
        try FileManager.default.removeItem(atPath: media.file("a.wav"))
        let reply = player.perform(.play(nil))
        #expect(reply.outcome == .ok, "\(reply.wireLines)")
        #expect(player.service.isPlaying)
        #expect(player.service.state.currentFile == "b.wav")
        // The same through the remote's button, after the file now playing is stopped and removed too.
        #expect(player.service.stopPlayback().outcome == .ok)
        try FileManager.default.removeItem(atPath: media.file("b.wav"))
        try sox(["-n", "-r", "48000", "-c", "2", "-b", "16", media.file("c.wav"), "synth", "0.3", "sine", "440"])
        #expect(player.service.handle(.togglePlayPause))
        #expect(player.service.isPlaying)
        #expect(player.service.state.currentFile == "c.wav")
        #expect(!player.events.contains { $0.hasPrefix("EVENT error") }, "\(player.events)")
    }

    /// How many of this process's descriptors are open on `path` (/proc/self/fd's links, proc(5)).
    static func descriptors(on path: String) -> Int {
        let fds = (try? FileManager.default.contentsOfDirectory(atPath: "/proc/self/fd")) ?? []
        return fds.filter { (try? FileManager.default.destinationOfSymbolicLink(atPath: "/proc/self/fd/" + $0)) == path }.count
    }

    // MARK: Seek, pause

    /// Seek lands on the exact frame: after the reset's fade, the output is the file from frame
    /// 0.5 s × 48000 = 24000 on, sample for sample as sox decodes it. A sweep is used so no other offset
    /// matches.
    @Test func seekLandsOnTheExactFrame() throws {
        guard soxAvailable else { Issue.record("sox is needed"); return }
        let media = PlayerDirectory()
        let path = media.file("sweep.wav")
        try sox(["-n", "-r", "48000", "-c", "2", "-b", "16", path, "synth", "2", "sine", "200-6000", "gain", "-3"])
        let reference = try soxSamples(path)
        let player = try Harness(media: media.path)
        #expect(player.perform(.play("sweep.wav")).outcome == .ok)
        _ = try player.render(periods: 10)
        #expect(player.perform(.seek(.absolute(seconds: 0.5))).outcome == .ok)
        let out = Self.asSox(try player.render(periods: 40)[...])
        // Where the file's frame 24000 + 480 (past the 5 ms fades) appears in the output.
        let probe = Array(reference[(2 * (24000 + 480))..<(2 * (24000 + 480 + 2000))])
        let found = stride(from: 0, to: out.count - probe.count, by: 2).filter { out[$0] == probe[0] && Array(out[$0..<($0 + probe.count)]) == probe }
        #expect(found.count == 1, "the continuation appears once: \(found)")
        if let start = found.first {
            let frames = (out.count - start) / 2
            let continues = Array(out[start...]) == Array(reference[(2 * (24000 + 480))..<(2 * (24000 + 480 + frames))])
            #expect(continues, "and continues sample for sample")
        }
        // The position follows the device frame by frame, not whole buffers: the file frame now at the
        // device. In manual mode the device has played what was rendered before the last period
        // (RenderEngine.renderManually: `didPlay(through:)` the period's first frame), so 40 periods of 256
        // frames less one, counted from where frame 24480 came out.
        if let start = found.first {
            let played = 40 * 256 - 256
            let expected = Double(24000 + 480 + played - start / 2) / 48000
            #expect(abs(player.service.position - expected) <= 1.0 / 48000, "\(player.service.position) vs \(expected)")
        }
        // Clamped: past the end is the end (2 s).
        #expect(player.perform(.seek(.absolute(seconds: 99))).outcome == .ok)
        _ = try player.render(periods: 20)
        #expect(player.events.last == "EVENT transport stopped")
        #expect(player.perform(.seek(.absolute(seconds: 1))).outcome == .error(.state, "nothing is playing; 'seek' needs a track playing or paused"))
    }

    /// Pause fades out and holds (silence, position kept), resume fades back in, stop fades out and lets go:
    /// no step anywhere bigger
    /// than the sine's own steepest step plus one fade step. Closed form: a sine of amplitude A at f Hz
    /// sampled at fs changes by at most A·2π·f/fs a sample (0.708·2π·440/48000 = 0.0408 for -3 dBFS);
    /// a linear 5 ms fade (240 frames) adds at most A/240 = 0.003. A cut from the peak would jump by 0.708.
    @Test func pauseAndResumeHoldThePositionWithoutAClick() throws {
        guard soxAvailable else { Issue.record("sox is needed"); return }
        let media = PlayerDirectory()
        try sox(["-n", "-r", "48000", "-c", "2", "-b", "16", media.file("a.wav"), "synth", "3", "sine", "440", "gain", "-3"])
        let player = try Harness(media: media.path)
        #expect(player.perform(.play("a.wav")).outcome == .ok)
        var out = try player.render(periods: 30)
        #expect(player.perform(.pause).outcome == .ok)
        out += try player.render(periods: 5)
        let held = player.service.position
        let pausedOut = try player.render(periods: 25)
        out += pausedOut
        #expect(pausedOut.allSatisfy { $0 == .zero }, "silent once faded out")
        #expect(player.service.position == held && held >= 0.1, "position held at \(held)")
        #expect(player.perform(.pause).outcome == .ok, "pausing again is a no-op")
        #expect(player.perform(.resume).outcome == .ok)
        out += try player.render(periods: 30)
        #expect(player.service.position > held)
        #expect(player.service.stopPlayback().outcome == .ok)
        let stoppedOut = try player.render(periods: 10)
        out += stoppedOut
        #expect(stoppedOut.suffix(2 * 256 * 8).allSatisfy { $0 == .zero }, "stop fades out to silence")
        let left = stride(from: 0, to: out.count, by: 2).map { out[$0].doubleValue }
        let steepest = zip(left, left.dropFirst()).map { abs($1 - $0) }.max()!
        #expect(steepest < 0.0408 + 0.003 + 0.0001, "largest step \(steepest)")
        #expect(player.events == ["EVENT transport playing a.wav", "EVENT transport track 1/1 a.wav",
                                  "EVENT transport paused a.wav", "EVENT transport playing a.wav",
                                  "EVENT transport stopped"])
        #expect(player.service.statusLines.first == "player: stopped")
    }

    // MARK: End of playlist

    /// Repeat off stops after the last track; repeat all starts again at the first; repeat one repeats the
    /// track (the issue's "repeat"), each across gapless boundaries.
    @Test(arguments: [
        (RepeatMode.off, ["1/2 1.wav", "2/2 2.wav"], true),
        (.all, ["1/2 1.wav", "2/2 2.wav", "1/2 1.wav", "2/2 2.wav", "1/2 1.wav"], false),
        (.one, ["1/2 1.wav", "1/2 1.wav", "1/2 1.wav", "1/2 1.wav", "1/2 1.wav"], false),
    ])
    func endOfPlaylist(repeatMode: RepeatMode, tracks: [String], stops: Bool) throws {
        guard soxAvailable else { Issue.record("sox is needed"); return }
        let media = PlayerDirectory()
        for name in ["1.wav", "2.wav"] {
            // 0.1 s = 4800 frames each.
            try sox(["-n", "-r", "48000", "-c", "2", "-b", "16", media.file(name), "synth", "0.1", "sine", "440"])
        }
        let player = try Harness(media: media.path)
        #expect(player.perform(.repeatMode(repeatMode)).outcome == .ok)
        #expect(player.perform(.play(nil)).outcome == .ok)
        // 4.5 tracks' worth: 4.5 × 4800 / 256 = 84.4 periods.
        _ = try player.render(periods: 85)
        let announced = player.events.filter { $0.hasPrefix("EVENT transport track ") }.map { String($0.dropFirst(22)) }
        #expect(announced == tracks)
        #expect((player.events.last == "EVENT transport stopped") == stops)
        #expect(player.settings.value.repeatMode == repeatMode)
    }

    // MARK: Resume positions

    /// A file over 10 minutes remembers where it was left, in the settings, and starts there next time; a
    /// file that plays to its end forgets (the issue's "resume where a long file was left").
    @Test func aLongFileResumesWhereItWasLeft() throws {
        guard soxAvailable else { Issue.record("sox is needed"); return }
        let media = PlayerDirectory()
        try sox(["-n", "-r", "8000", "-c", "1", "-b", "16", media.file("talk.wav"), "synth", "601", "sine", "300", "gain", "-6"])
        let first = try Harness(media: media.path)
        #expect(first.perform(.play("talk.wav")).outcome == .ok)
        #expect(first.perform(.seek(.absolute(seconds: 300))).outcome == .ok)
        _ = try first.render(periods: 20)
        #expect(first.service.stopPlayback().outcome == .ok)
        let saved = try #require(first.settings.value.positions["talk.wav"])
        #expect(saved >= 300 && saved < 300 + 20 * 256 / 48000.0 + 0.01, "saved \(saved)")
        #expect(first.settings.value.lastPlayed == "talk.wav")

        let second = try Harness(media: media.path, settings: first.settings.value)
        #expect(second.perform(.play("talk.wav")).outcome == .ok)
        #expect(abs(second.service.position - saved) < 1.0 / 8000, "starts where it was left")
        #expect(second.perform(.seek(.absolute(seconds: 600.9))).outcome == .ok)
        _ = try second.render(periods: 40)
        #expect(second.events.last == "EVENT transport stopped")
        #expect(second.settings.value.positions["talk.wav"] == nil, "played to the end: forgotten")
    }
}
