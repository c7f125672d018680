import Foundation
import HAL
import Queue
import TestSupport
import Testing
@testable import appliance

/// The player's console commands and remote-control events through the service, on the manual engine.
@Suite("Playback service commands", .serialized)
struct PlaybackServiceCommandTests {
    typealias Harness = PlaybackServiceTests.Harness

    static func media(_ names: [String], seconds: Double = 2) throws -> PlayerDirectory {
        let media = PlayerDirectory()
        for name in names {
            try sox(["-n", "-r", "48000", "-c", "2", "-b", "16", media.file(name), "synth", "\(seconds)", "sine", "440", "gain", "-6"])
        }
        return media
    }

    /// Issue 13 Deliver 6: paths outside the media directory get an ERR and change nothing.
    @Test func aPathOutsideIsDeniedAndChangesNothing() throws {
        guard soxAvailable else { Issue.record("sox is needed"); return }
        let media = try Self.media(["a.wav"])
        let player = try Harness(media: media.path)
        #expect(player.perform(.play("a.wav")).outcome == .ok)
        _ = try player.render(periods: 4)
        let reply = player.perform(.play("../a.wav"))
        guard case .error(let code, _) = reply.outcome else { Issue.record("accepted: \(reply)"); return }
        #expect(code == .denied)
        #expect(player.service.isPlaying && player.service.state.currentFile == "a.wav")
        #expect(player.perform(.play("/etc/passwd")).finalLine.hasPrefix("ERR denied "))
        #expect(player.perform(.remove("a.wav")).finalLine.hasPrefix("ERR state "), "the playing file stays")
        #expect(FileManager.default.fileExists(atPath: media.file("a.wav")))
    }

    /// Issue 13 Deliver 6 ("every command answers with result lines"): a transport command says where it left
    /// the player: state, file with its place in the playlist, position; `ls` and the others keep their own.
    @Test func transportCommandsSayWhereTheyLeftThePlayer() throws {
        guard soxAvailable else { Issue.record("sox is needed"); return }
        let media = try Self.media(["a.wav", "b.wav"])
        let player = try Harness(media: media.path)
        let play = player.perform(.play(nil))
        #expect(play.outcome == .ok)
        #expect(Array(play.lines.prefix(2)) == ["player: playing", "file: a.wav (track 1/2)"], "\(play.lines)")
        #expect(play.lines.last?.hasPrefix("position: ") == true && play.lines.count == 3)
        _ = try player.render(periods: 4)
        #expect(Array(player.perform(.next).lines.prefix(2)) == ["player: playing", "file: b.wav (track 2/2)"])
        #expect(player.perform(.pause).lines.first == "player: paused")
        #expect(player.perform(.list(nil)).lines == ["a.wav  0:02.0", "b.wav  0:02.0"])
    }

    /// The headset's click starts playback when nothing plays (core-audio-2014-2017.md: the headphone middle
    /// button starts Music), toggles pause; next and previous move through the folder; the remote's stop
    /// stops; events the player does not own are left for others (false).
    @Test func remoteControlEventsDriveTheTransport() throws {
        guard soxAvailable else { Issue.record("sox is needed"); return }
        let media = try Self.media(["1.wav", "2.wav", "3.wav"])
        let player = try Harness(media: media.path)
        #expect(player.service.handle(.togglePlayPause))
        #expect(player.service.isPlaying && player.service.state.currentFile == "1.wav")
        _ = try player.render(periods: 4)
        #expect(player.service.handle(.nextTrack) && player.service.state.currentFile == "2.wav")
        #expect(player.service.handle(.previousTrack) && player.service.state.currentFile == "1.wav",
                "within 3 s of the start: the track before")
        #expect(player.service.handle(.togglePlayPause) && player.service.state.transport == .paused)
        #expect(player.service.handle(.togglePlayPause) && player.service.isPlaying)
        #expect(player.service.handle(.stop) && player.service.state.transport == .stopped)
        #expect(!player.service.handle(.volumeUp) && !player.service.handle(.toggleRecord))
        #expect(player.events.filter { $0.hasPrefix("EVENT transport track") }
                == ["EVENT transport track 1/3 1.wav", "EVENT transport track 2/3 2.wav", "EVENT transport track 1/3 1.wav"])
    }

    /// Holding the seek button skips forward in steps at about 4x (the brief), driven by the timer the daemon
    /// runs (`nextDeadline` / `tick`) on a manual clock.
    @Test func holdingSeekForwardSkipsAhead() throws {
        guard soxAvailable else { Issue.record("sox is needed"); return }
        let media = try Self.media(["long.wav"], seconds: 8)
        let player = try Harness(media: media.path)
        #expect(player.perform(.play("long.wav")).outcome == .ok)
        #expect(player.service.handle(.beginSeekingForward))
        #expect(player.service.position == 1, "the first 1 s step at once")
        var ticks = 0
        for _ in 0..<4 {
            player.clock.advance(by: .milliseconds(250))
            if let due = player.service.nextDeadline, due <= player.clock.now {
                player.service.tick(now: player.clock.now)
                ticks += 1
            }
        }
        #expect(ticks == 4 && player.service.position == 5, "4 steps of 1 s in 1 s held: \(player.service.position)")
        #expect(player.service.handle(.endSeekingForward) && player.service.nextDeadline == nil)
    }

    /// Pulling the headphones pauses, keeping the position (core-audio-iphone-2008.md: on "old device
    /// unavailable" from headphones, pause so it does not blast from the speaker).
    @Test func aRouteChangePausesKeepingThePosition() throws {
        guard soxAvailable else { Issue.record("sox is needed"); return }
        let media = try Self.media(["a.wav"])
        let player = try Harness(media: media.path)
        #expect(player.perform(.play(nil)).outcome == .ok)
        _ = try player.render(periods: 40)
        player.service.pauseForRouteChange()
        _ = try player.render(periods: 4)
        let held = player.service.position
        _ = try player.render(periods: 20)
        #expect(player.service.state.transport == .paused && player.service.position == held && held > 0)
        #expect(player.events.last == "EVENT transport paused a.wav")
        #expect(player.service.statusLines == ["player: paused", "file: a.wav (track 1/1)",
                                               "position: 0:00.\(Int(held * 10)) / 0:02.0", "repeat: off", "shuffle: off",
                                               "replaygain: off"])
        player.service.pauseForRouteChange()
        #expect(player.events.last == "EVENT transport paused a.wav", "nothing more when already paused")
    }

    /// `ls` lists with durations (sox wrote 2 s), `repeat` and `shuffle` show and set, and are saved.
    @Test func listRepeatAndShuffle() throws {
        guard soxAvailable else { Issue.record("sox is needed"); return }
        let media = try Self.media(["b.wav", "a.wav"])
        let player = try Harness(media: media.path)
        #expect(player.perform(.list(nil)) == .ok(["a.wav  0:02.0", "b.wav  0:02.0"]))
        #expect(player.perform(.repeatMode(nil)) == .ok(["repeat: off"]))
        #expect(player.perform(.repeatMode(.all)) == .ok(["repeat: all"]))
        #expect(player.perform(.shuffle(true)) == .ok(["shuffle: on"]))
        #expect(player.settings.value.repeatMode == .all && player.settings.value.shuffle)
        #expect(player.perform(.pause).finalLine == "ERR state nothing is playing")
        #expect(player.perform(.resume).outcome == .error(.state, "nothing is paused; 'play' starts playback"))
    }
}
