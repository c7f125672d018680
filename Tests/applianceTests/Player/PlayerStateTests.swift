import HAL
import TestSupport
import Testing
@testable import appliance

/// The player's transport and playlist as a pure value, driven with time passed in. Expected behaviour is
/// cited beside each row: the issue (#13 Deliver 2 and 6), Apple's remote-control and AudioQueue semantics
/// (shared/reference/core-audio-iphone-2008.md 1.5, behaviours 27-31; core-audio-2013-2015.md
/// "Remote-control events"), and the iPod / Rockbox conventions the brief names.
@Suite("Player state")
struct PlayerStateTests {
    static let t0 = Timestamp.zero
    static let files = ["01.wav", "02.wav", "03.wav", "04.wav"]

    static func loaded(_ files: [String] = files, start: Int = 0, repeatMode: RepeatMode = .off, shuffle: Bool = false,
                       positions: [String: Double] = [:]) -> PlayerState {
        var state = PlayerState(repeatMode: repeatMode, shuffle: shuffle, positions: positions, seed: 42, now: t0)
        _ = state.load(files, startingAt: start, position: 0, now: t0)
        state.opened(duration: 120)
        return state
    }

    static func opened(_ actions: [PlayerAction]) -> [Int] {
        actions.compactMap { if case .open(let track, _, _, _) = $0 { return track } else { return nil } }
    }

    static func events(_ actions: [PlayerAction]) -> [String] {
        actions.compactMap { if case .event(let event) = $0 { return event.line } else { return nil } }
    }

    @Test func loadingOpensTheFirstTrackAndAnnouncesIt() {
        var state = PlayerState(seed: 1, now: Self.t0)
        let actions = state.load(Self.files, position: 0, now: Self.t0)
        // Issue 13 Deliver 6: transport events stream as `EVENT transport ...`; the brief names
        // `transport playing FILE` and `track N/M FILE`.
        #expect(actions == [.event(ApplianceEvent(.transport, "playing 01.wav")),
                            .open(track: 0, file: "01.wav", from: 0, paused: false),
                            .event(ApplianceEvent(.transport, "track 1/4 01.wav"))])
        #expect(state.transport == .playing)
    }

    /// AudioQueue semantics (core-audio-iphone-2008.md 1.5, AudioQueueTransport): pause holds, start
    /// resumes, a repeated call is a no-op, a call in the wrong state is refused with a reason.
    @Test(arguments: [
        // (transport before, command, transport after, refused)
        (PlayerState.Transport.playing, "pause", PlayerState.Transport.paused, false),
        (.paused, "pause", .paused, false),
        (.stopped, "pause", .stopped, true),
        (.paused, "resume", .playing, false),
        (.playing, "resume", .playing, false),
        (.stopped, "resume", .stopped, true),
        (.playing, "toggle", .paused, false),
        (.paused, "toggle", .playing, false),
        (.stopped, "toggle", .playing, false),   // the headset's click starts playback (core-audio-2014-2017.md: the headphone middle button starts Music playing)
        (.playing, "stop", .stopped, false),
        (.stopped, "stop", .stopped, false),
        (.stopped, "seek", .stopped, true),      // the brief: seek is `ERR state` when nothing plays
        (.stopped, "next", .stopped, true),
    ])
    func transportTransitions(before: PlayerState.Transport, command: String, after: PlayerState.Transport, refused: Bool) {
        var state = Self.loaded()
        switch before {
        case .playing: break
        case .paused: _ = try? state.pause(position: 1, now: Self.t0)
        case .stopped: _ = state.stop(position: 1, now: Self.t0)
        }
        #expect(state.transport == before)
        var threw = false
        do throws(PlayerError) {
            switch command {
            case "pause": _ = try state.pause(position: 1, now: Self.t0)
            case "resume": _ = try state.resume(now: Self.t0)
            case "toggle": _ = try state.togglePlayPause(position: 1, now: Self.t0)
            case "stop": _ = state.stop(position: 1, now: Self.t0)
            case "seek": _ = try state.seek(.absolute(seconds: 5), position: 1, now: Self.t0)
            default: _ = try state.next(position: 1, now: Self.t0)
            }
        } catch {
            threw = true
            #expect(error.code == .state)
        }
        #expect(threw == refused)
        #expect(state.transport == after)
    }

    /// Previous: more than 3 s in restarts the track, otherwise the track before (the brief: "as iPod/Rockbox
    /// do"); at the first track with repeat off it restarts; with repeat all it wraps to the last.
    @Test(arguments: [
        // (start track, position s, repeat, expected: seek to 0 (nil) or the track opened)
        (2, 3.5, RepeatMode.off, Int?.none),
        (2, 2.0, .off, 1),
        (2, 3.0, .off, 1),          // exactly 3 s is not "more than 3 s"
        (0, 1.0, .off, nil),
        (0, 1.0, .one, nil),
        (0, 1.0, .all, 3),
    ])
    func previous(start: Int, position: Double, repeatMode: RepeatMode, expected: Int?) throws {
        var state = Self.loaded(start: start, repeatMode: repeatMode)
        let actions = try state.previous(position: position, now: Self.t0)
        if let expected {
            #expect(Self.opened(actions) == [expected])
        } else {
            #expect(actions == [.seek(to: 0)])
        }
    }

    /// End of playlist: repeat off stops after the last track, repeat all wraps to the first, repeat one
    /// plays the same track again (the "repeat and shuffle"; MPD's repeat/single, iPod's Repeat One/All).
    @Test(arguments: [
        (RepeatMode.off, [1, 2, 3], true),
        (.all, [1, 2, 3, 0, 1], false),
        (.one, [0, 0, 0], false),
    ])
    func endOfTrackAdvances(repeatMode: RepeatMode, expected: [Int], stopsAtTheEnd: Bool) {
        var state = Self.loaded(repeatMode: repeatMode)
        var seen: [Int] = []
        for _ in expected.indices {
            seen += Self.opened(state.trackEnded(now: Self.t0))
            state.opened(duration: 120)
        }
        #expect(seen == expected)
        if stopsAtTheEnd {
            let last = state.trackEnded(now: Self.t0)
            #expect(Self.events(last) == ["EVENT transport stopped"])
            #expect(state.transport == .stopped)
        }
    }

    /// An explicit next moves on even with repeat one (iPod: Repeat One repeats at the end of a song, the
    /// Next button still skips); at the last track with repeat off it stops.
    @Test func nextSkipsUnderRepeatOneAndStopsAfterTheLast() throws {
        var state = Self.loaded(repeatMode: .one)
        #expect(Self.opened(try state.next(position: 0, now: Self.t0)) == [1])
        state.setRepeat(.off)
        _ = try state.next(position: 0, now: Self.t0)
        _ = try state.next(position: 0, now: Self.t0)
        let end = try state.next(position: 0, now: Self.t0)
        #expect(end.contains(.stop) && state.transport == .stopped)
    }

    /// A paused player skipping stays paused on the new track.
    @Test func nextWhilePausedStaysPaused() throws {
        var state = Self.loaded()
        _ = try state.pause(position: 0, now: Self.t0)
        #expect(try state.next(position: 0, now: Self.t0).contains(.open(track: 1, file: "02.wav", from: 0, paused: true)))
    }

    /// Shuffle: every track exactly once per round, the current track first (the brief), over several
    /// seeds and rounds; the round after does not start with the track just heard.
    @Test(arguments: [UInt64(1), 7, 42, 1234, 99999])
    func shuffleCoversEveryTrackOncePerRound(seed: UInt64) {
        let files = (1...9).map { "t\($0).wav" }
        var state = PlayerState(repeatMode: .all, shuffle: true, seed: seed, now: Self.t0)
        var heard = Self.opened(state.load(files, startingAt: 4, position: 0, now: Self.t0))
        #expect(heard == [4], "the chosen track plays first")
        for _ in 0..<(3 * files.count - 1) { heard += Self.opened(state.trackEnded(now: Self.t0)) }
        for round in 0..<3 {
            let slice = heard[(round * files.count)..<((round + 1) * files.count)]
            #expect(Set(slice) == Set(files.indices) && slice.count == files.count, "round \(round): \(slice)")
        }
        for i in 1..<heard.count { #expect(heard[i] != heard[i - 1], "no track twice in a row") }
    }

    @Test func shuffleOnKeepsTheCurrentTrackFirstAndOffReturnsToFolderOrder() throws {
        var state = Self.loaded(start: 2)
        state.setShuffle(true)
        #expect(state.current == 2 && state.trackLabel == "1/4")
        state.setShuffle(false)
        #expect(state.current == 2 && state.trackLabel == "3/4")
        #expect(Self.opened(try state.next(position: 0, now: Self.t0)) == [3])
    }

    /// Seek clamps to the file (the brief) and relative seeks count from the position.
    @Test(arguments: [
        (SeekTarget.absolute(seconds: 30), 10.0, 30.0),
        (.relative(seconds: 15), 10.0, 25.0),
        (.relative(seconds: -30), 10.0, 0.0),
        (.absolute(seconds: 500), 10.0, 120.0),
    ])
    func seekClamps(target: SeekTarget, position: Double, expected: Double) throws {
        var state = Self.loaded()
        #expect(try state.seek(target, position: position, now: Self.t0) == [.seek(to: expected)])
    }

    /// Holding a seek button skips 1 s every 250 ms: 4x real time (the brief's "~4x while held").
    @Test func heldSeekSkipsAtFourTimesRealTime() throws {
        var state = Self.loaded()
        var position = 10.0
        let first = try state.beginScanning(forward: true, position: position, now: Self.t0)
        #expect(first == [.seek(to: 11)])
        position = 11
        var jumps = 0
        var now = Self.t0
        while now < Self.t0 + .seconds(2) {
            now = now + .milliseconds(10)
            for case .seek(let to) in state.tick(position: position, now: now) { position = to; jumps += 1 }
        }
        #expect(jumps == 8, "2 s held / 250 ms")
        #expect(position == 19, "the first jump at once, then 8 jumps of 1 s in 2 s held: 4x real time")
        state.endScanning()
        #expect(state.tick(position: position, now: now + .seconds(1)).isEmpty && state.nextDeadline == nil)
    }

    /// Files over 10 minutes remember where they were left (the issue: "resume where a long file was
    /// left"); a file that plays to its end forgets; a short file never remembers.
    @Test func longFilesRememberWhereTheyWereLeft() throws {
        var state = Self.loaded()
        state.opened(duration: 601)
        #expect(try state.pause(position: 300, now: Self.t0).contains(.remember(file: "01.wav", seconds: 300)))
        #expect(try state.next(position: 310, now: Self.t0).contains(.remember(file: "01.wav", seconds: 310)))
        #expect(state.positions == ["01.wav": 310])
        state.opened(duration: 599)                 // 02.wav, under 10 minutes
        #expect(!(try state.next(position: 200, now: Self.t0)).contains { if case .remember = $0 { true } else { false } })
        // Back to 01.wav: it opens where it was left.
        var again = state
        let reopened = again.load(Self.files, startingAt: 0, position: 0, now: Self.t0)
        #expect(Self.opened(reopened) == [0] && reopened.contains(.open(track: 0, file: "01.wav", from: 310, paused: false)))
        again.opened(duration: 601)
        #expect(again.trackEnded(now: Self.t0).first == .remember(file: "01.wav", seconds: nil))
        #expect(again.positions.isEmpty)
    }

    /// What `upcoming` promises is what the end of the track then opens (the gapless queueing relies on it).
    @Test(arguments: [RepeatMode.off, .one, .all])
    func upcomingMatchesTrackEnded(repeatMode: RepeatMode) {
        var state = Self.loaded(repeatMode: repeatMode, shuffle: true)
        for _ in 0..<8 {
            let promised = state.upcoming
            let opened = Self.opened(state.trackEnded(now: Self.t0))
            #expect(promised?.track == opened.first)
            if opened.isEmpty { break }
        }
    }
}
