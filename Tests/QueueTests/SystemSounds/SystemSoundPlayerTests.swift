import Codec8_24
import HAL
import Testing
@testable import Queue

/// Playing system sounds through the voices, pulled period by period as the engine pulls them. Expected
/// behaviour from core-audio-iphone-2008.md 1.1 and behaviours 21-24; expected samples by closed-form
/// arithmetic (sums, a linear fade's slope).
@Suite("System sound player")
struct SystemSoundPlayerTests {
    let clock = ManualClock()

    func player(voices: Int = 8) -> (SystemSoundPlayer, VoicePuller) {
        let player = SystemSoundPlayer(sampleRate: 48_000, voices: voices, clock: clock)
        return (player, VoicePuller(player.voices))
    }

    /// Two sounds that overlap are summed sample for sample (no gain, no pan: behaviour 24), a mono sound
    /// landing in both channels, a stereo one channel by channel; before anything plays the source reports
    /// silence and clears the buffer.
    @Test func overlappingSoundsSumExactly() throws {
        let (player, puller) = player()
        #expect(puller.render(64).allSatisfy { $0 == .zero })
        let mono = try player.register(rampClip(frames: 300, channels: 1, start: 1_000))
        let stereo = try player.register(rampClip(frames: 200, channels: 2, start: -50_000))
        try player.play(mono)
        let first = puller.render(128)                     // mono frames 0..<128 alone
        try player.play(stereo)
        let rest = puller.render(total: 256, period: 64)   // mono 128..<300, stereo 0..<200 from frame 128
        let out = first + rest
        for frame in 0..<384 {
            for channel in 0..<2 {
                var expected: Int32 = 0
                if frame < 300 { expected += 1_000 + Int32(frame) }
                let s = frame - 128
                if (0..<200).contains(s) { expected += -50_000 + Int32(2 * s + channel) }
                #expect(out[2 * frame + channel].raw == expected, "frame \(frame) channel \(channel)")
            }
        }
    }

    /// The completion fires once per play, after the period that rendered the last frame, carrying that
    /// frame's place on the timeline (behaviour 22); it runs in `service()`, never during `render`.
    @Test func completionFiresOnceAfterTheLastFrame() throws {
        let (player, puller) = player()
        let log = CompletionLog()
        let sound = try player.register(constantClip(0.25, frames: 1_000))
        puller.render(100)                                 // the timeline is at 100 when the play starts
        try player.play(sound, completion: log.handler)
        for _ in 0..<3 { puller.render(256) }              // frames 100..<868: sound frames 0..<768
        try player.service()
        #expect(log.all.isEmpty)
        puller.render(256)                                 // sound frames 768..<1000 end inside this period
        #expect(log.all.isEmpty)                           // not on the render call
        try player.service()
        #expect(log.all == [SystemSoundCompletion(sound: sound, outcome: .played, lastFrame: 100 + 999)])
        for _ in 0..<3 { puller.render(256); try player.service() }
        #expect(log.all.count == 1)
        #expect(player.playsInProgress == 0)
    }

    /// Replaying from the completion works (the reference's loop idiom): the completion may call the player.
    @Test func aCompletionMayPlayAgain() throws {
        let (player, puller) = player()
        let log = CompletionLog()
        let sound = try player.register(constantClip(0.25, frames: 100))
        let replay: SystemSoundCompletionHandler = { [player] completion in
            log.handler(completion)
            if log.all.count < 3 { try? player.play(completion.sound, completion: nil) }
        }
        try player.play(sound, completion: replay)
        puller.render(128)
        try player.service()
        #expect(log.all.count == 1)
        #expect(player.playsInProgress == 1)               // the replay
        let again = puller.render(128)
        #expect(again[0] == Fixed824(0.25) && again[2 * 99] == Fixed824(0.25) && again[2 * 100] == .zero)
    }

    /// All voices busy: the oldest is stolen and fades out linearly over 2 ms (96 frames at 48 kHz), so the
    /// mix never steps by more than the fade's slope (0.25/96 per frame, a linear fade of N frames has
    /// slope 1/N); the stolen play completes as `.stolen` at the fade's last frame.
    @Test func stealingTheOldestVoiceFadesIt() throws {
        let (player, puller) = player(voices: 2)
        let log = CompletionLog()
        let a = try player.register(constantClip(0.25, frames: 10_000))
        let b = try player.register(constantClip(0.25, frames: 10_000))
        let silence = try player.register(constantClip(0, frames: 10_000))
        try player.play(a, completion: log.handler)
        puller.render(32)
        try player.play(b)
        puller.render(32)
        #expect(puller.render(1)[0] == Fixed824(0.5))
        try player.play(silence)                           // steals a, the oldest
        let out = puller.render(total: 256, period: 64).enumerated().filter { $0.offset % 2 == 0 }.map(\.element.doubleValue)
        let fade = 96
        let slope = 0.25 / Double(fade)
        for (k, value) in out.enumerated() {
            // b at 0.25 plus a at gain 1 − (k+1)/96 until the fade ends, then b alone.
            let expected = 0.25 + 0.25 * max(0, 1 - Double(k + 1) / Double(fade))
            #expect(abs(value - expected) <= 2.0 / 16_777_216, "frame \(k): \(value) vs \(expected)")
        }
        let steps = zip(out, [0.5] + out.dropLast()).map { abs($0 - $1) }
        #expect(steps.max()! <= slope + 2.0 / 16_777_216)
        try player.service()
        #expect(log.all == [SystemSoundCompletion(sound: a, outcome: .stolen, lastFrame: 65 + Int64(fade) - 1)])
    }

    /// Muted, a normal sound makes no audio and still completes once (as `.silent`); muting while sounds
    /// play fades them out (no step) and completes them as `.stopped`.
    @Test func muteSilencesNormalSounds() throws {
        let (player, puller) = player()
        let log = CompletionLog()
        let sound = try player.register(constantClip(0.5, frames: 5_000))
        try player.play(sound, completion: log.handler)
        puller.render(64)
        try player.setMuted(true)
        let fading = puller.render(total: 256, period: 128).enumerated().filter { $0.offset % 2 == 0 }.map(\.element.doubleValue)
        let steps = zip(fading, [0.5] + fading.dropLast()).map { abs($0 - $1) }
        #expect(steps.max()! <= 0.5 / 96 + 2.0 / 16_777_216)   // a 96-frame linear fade of 0.5
        #expect(fading[95] == 0 && fading.suffix(100).allSatisfy { $0 == 0 })
        try player.play(sound, completion: log.handler)
        #expect(puller.render(256).allSatisfy { $0 == .zero })
        try player.service()
        // Plays that made no sound are delivered first, then the rendered ones in the order they ended.
        #expect(log.all.map(\.outcome) == [.silent, .stopped])
        try player.setMuted(false)
        try player.play(sound)
        #expect(puller.render(64)[0] == Fixed824(0.5))
    }

    /// Muting right after a burst of plays that filled the command ring still silences them all.
    @Test func muteAfterABurstThatFilledTheRingStillSilences() throws {
        let (player, puller) = player()
        let sound = try player.register(constantClip(0.01, frames: 48_000))
        while (try? player.play(sound)) != nil {}
        try player.setMuted(true)
        _ = puller.render(total: 1024, period: 128)      // the starts, then the 96-frame fades
        #expect(puller.render(256).allSatisfy { $0 == .zero }, "muted: nothing sounds")
    }

    /// The session may disallow system sounds (its category's decision, taken as a plain input).
    @Test func disallowedSoundsMakeNoAudio() throws {
        let (player, puller) = player()
        let sound = player.register(.click)
        try player.setAllowed(false)
        try player.play(sound)
        try player.playAlert(sound)
        #expect(puller.render(512).allSatisfy { $0 == .zero })
        try player.setAllowed(true)
        try player.play(sound)
        #expect(puller.render(512).contains { $0 != .zero })
    }

    /// A sound can be disposed while it plays: the play finishes and completes; afterwards the ID is gone.
    @Test func disposingMidPlayLetsThePlayFinish() throws {
        let (player, puller) = player()
        let log = CompletionLog()
        let sound = try player.register(constantClip(0.25, frames: 300))
        try player.play(sound, completion: log.handler)
        puller.render(100)
        try player.dispose(sound)
        let rest = puller.render(256)
        #expect(rest[2 * 199] == Fixed824(0.25) && rest[2 * 200] == .zero)
        try player.service()
        #expect(log.all.map(\.outcome) == [.played])
        #expect(throws: SystemSoundError.self) { try player.play(sound) }
        #expect(throws: SystemSoundError.self) { try player.dispose(sound) }
        #expect(throws: SystemSoundError.self) { try player.dispose(.vibrate) }
    }

    /// Plays are commands in a fixed ring: when the render thread takes none, the ring fills and a play
    /// fails with a clear error instead of blocking or allocating.
    @Test func aStalledRenderThreadIsReported() throws {
        let (player, _) = player()
        let sound = player.register(.click)
        var failure: SystemSoundError?
        for _ in 0..<1_000 {
            do throws(SystemSoundError) { try player.play(sound) } catch { failure = error; break }
        }
        guard case .renderThreadBehind = failure else {
            Issue.record("expected renderThreadBehind, got \(String(describing: failure))")
            return
        }
        #expect(player.playsInProgress == player.voices.commands.capacity)
    }

    /// The voices refuse an engine at another rate than the one their sounds were decoded at.
    @Test func theVoicesCheckTheEngineRate() throws {
        let player = SystemSoundPlayer(sampleRate: 48_000, clock: clock)
        #expect(throws: SystemSoundError.self) { try player.voices.prepare(engineRate: 44_100, maximumFrames: 256) }
        let host = RecordingHost(rate: 44_100)
        let attached = try SystemSoundPlayer(host: host, clock: clock)
        #expect(attached.sampleRate == 44_100)
        #expect(host.sources.count == 1 && host.sources[0] === attached.voices)
        #expect(attached.voices.renderChannels == 2)
    }
}

extension SystemSoundPlayerTests {
    /// With one voice (two slots), two steals in one period leave no slot free: the third sound waits until
    /// both fades (96 frames) are over and then starts; no play is lost and each completes once.
    @Test func aStartWaitsForAFreeSlotWhenEveryFadeIsBusy() throws {
        let (player, puller) = player(voices: 1)
        let log = CompletionLog()
        let a = try player.register(constantClip(0.25, frames: 10_000))
        let b = try player.register(constantClip(0.125, frames: 10_000))
        let c = try player.register(constantClip(0.5, frames: 50))
        try player.play(a, completion: log.handler)
        puller.render(32)
        try player.play(b, completion: log.handler)        // steals a
        try player.play(c, completion: log.handler)        // steals b; no slot left until the fades end
        let out = puller.render(total: 192, period: 32).enumerated().filter { $0.offset % 2 == 0 }.map(\.element.doubleValue)
        // Frames 0..<96: a and b fading (gain 1 − (k+1)/96 each); then c from frame 96 for 50 frames.
        for k in 0..<96 {
            let expected = (0.25 + 0.125) * (1 - Double(k + 1) / 96)
            #expect(abs(out[k] - expected) <= 2.0 / 16_777_216, "frame \(k)")
        }
        #expect(out[96..<146].allSatisfy { $0 == 0.5 } && out[146...].allSatisfy { $0 == 0 })
        try player.service()
        #expect(log.all.map(\.sound) == [a, b, c])
        #expect(log.all.map(\.outcome) == [.stolen, .stolen, .played])
        let lastFrames: [Int64?] = [32 + 95, 32 + 95, 32 + 96 + 49]
        #expect(log.all.map(\.lastFrame) == lastFrames)
    }
}
