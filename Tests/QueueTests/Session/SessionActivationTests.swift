import HAL
import Testing
@testable import Queue

/// Activation, deactivation and interruptions. Expected behaviour: shared/reference/core-audio-iphone-2008.md
/// 1.9-1.11 and behaviours 6-13; core-audio-2014-2017.md A.1.6 (non-mixable sessions interrupt other
/// non-mixable ones; ShouldResume; NotifyOthersOnDeactivation; duckOthers).
@Suite("Session activation and interruptions")
struct SessionActivationTests {
    typealias F = SessionFixture

    @Test func activatingANonMixableSessionStopsThenTellsTheOtherNonMixableOne() throws {
        var c = F.coordinator()
        try c.register("radio", category: .soloAmbient)
        try c.register("player", category: .playback)
        _ = try c.setActive("radio", true)
        let actions = try c.setActive("player", true)
        // Behaviour 6/10: stopped before it is told.
        #expect(actions == [.stopAudio("radio"), .notify("radio", .interruptionBegan)])
        #expect(try c.state(of: "radio") == .interrupted(by: [.session("player")]))
        #expect(try c.state(of: "player") == .active)
    }

    @Test func mixableSessionsSoundTogether() throws {
        var c = F.coordinator()
        try c.register("player", category: .playback)
        try c.register("game", category: .ambient)
        try c.register("clicks", category: .playback, options: .mixWithOthers)
        _ = try c.setActive("player", true)
        // Behaviour 11: an ambient session plays over a playback session; both stay active.
        #expect(try c.setActive("game", true) == [])
        #expect(try c.setActive("clicks", true) == [])
        #expect(try [c.state(of: "player"), c.state(of: "game"), c.state(of: "clicks")] == [.active, .active, .active])
        // A non-mixable activation interrupts only the non-mixable one.
        try c.register("radio", category: .soloAmbient)
        #expect(try c.setActive("radio", true) == [.stopAudio("player"), .notify("player", .interruptionBegan)])
        #expect(try c.state(of: "game") == .active)
    }

    @Test func deactivationDoesNotResumeTheInterruptedSession() throws {
        var c = F.coordinator()
        try c.register("player", category: .playback)
        try c.register("alarm", category: .playback)
        _ = try c.setActive("player", true)
        _ = try c.setActive("alarm", true)
        // Behaviour 10: nothing restarts the player, and without the option it is not told.
        #expect(try c.setActive("alarm", false) == [])
        #expect(try c.state(of: "player") == .inactive)
    }

    @Test func notifyingOthersOnDeactivationEndsTheirInterruptionWithShouldResume() throws {
        var c = F.coordinator()
        try c.register("player", category: .playback)
        try c.register("alarm", category: .playback)
        _ = try c.setActive("player", true)
        _ = try c.setActive("alarm", true)
        #expect(try c.setActive("alarm", false, notifyOthersOnDeactivation: true)
                    == [.notify("player", .interruptionEnded(shouldResume: true))])
        // Behaviour 7: resuming is the client's choice; it is not active until it says so.
        #expect(try c.state(of: "player") == .inactive)
        #expect(try c.setActive("player", true) == [])
    }

    @Test func anInterruptedSessionMayTakeTheDeviceBack() throws {
        var c = F.coordinator()
        try c.register("player", category: .playback)
        try c.register("alarm", category: .playback)
        _ = try c.setActive("player", true)
        _ = try c.setActive("alarm", true)
        // The user presses play again: the player interrupts the alarm in turn, and expects no end itself.
        #expect(try c.setActive("player", true) == [.stopAudio("alarm"), .notify("alarm", .interruptionBegan)])
        #expect(try c.setActive("player", false, notifyOthersOnDeactivation: true) == [.notify("alarm", .interruptionEnded(shouldResume: true))])
    }

    @Test func duckOthersLowersTheOthersOnlyWhileActive() throws {
        var c = F.coordinator()
        try c.register("player", category: .playback)
        try c.register("prompt", category: .playback, options: .duckOthers)
        _ = try c.setActive("player", true)
        // A navigation-style prompt (A.1.6): the player keeps playing, lowered.
        #expect(try c.setActive("prompt", true) == [.duck("player")])
        #expect(c.isDucked("player") && !c.isDucked("prompt"))
        #expect(try c.state(of: "player") == .active)
        #expect(try c.setActive("prompt", false) == [.unduck("player")])
        #expect(!c.isDucked("player"))
    }

    @Test func recordingSilencesAllOtherOutputAndSystemSounds() throws {
        var c = F.coordinator()
        try c.register("game", category: .ambient)
        try c.register("recorder", category: .record)
        #expect(c.systemSoundsAllowed, "behaviour 13: system sounds need no session")
        _ = try c.setActive("game", true)
        let actions = try c.setActive("recorder", true)
        // Record "silences virtually all output": even the mixable game is stopped, then told.
        #expect(Array(actions.prefix(2)) == [.stopAudio("game"), .notify("game", .interruptionBegan)])
        #expect(actions.contains(.capture(open: true)))
        #expect(actions.last == .systemSounds(allowed: false))
        #expect(!c.systemSoundsAllowed)
        #expect(throws: SessionError.outputSilencedByRecording("recorder")) { try c.setActive("game", true) }
        // Deactivating lets system sounds mix in again and closes the capture path.
        let after = try c.setActive("recorder", false)
        #expect(after.contains(.capture(open: false)) && after.last == .systemSounds(allowed: true))
    }

    @Test func playAndRecordLetsSystemSoundsMixIn() throws {
        var c = F.coordinator()
        try c.register("intercom", category: .playAndRecord)
        let actions = try c.setActive("intercom", true)
        #expect(actions.contains(.capture(open: true)))
        #expect(!actions.contains(.systemSounds(allowed: false)))
        #expect(c.systemSoundsAllowed)
    }

    @Test func theApplianceTakesTheDeviceStoppingEveryoneFirst() throws {
        var c = F.coordinator()
        try c.register("player", category: .playback)
        try c.register("game", category: .ambient)
        try c.register("idle", category: .playback)
        _ = try c.setActive("player", true)
        _ = try c.setActive("game", true)
        let begin = try c.beginInterruption("alarm")
        // Every active session's audio is stopped before any of them is told (behaviour 6); the idle one is untouched.
        #expect(begin == [.stopAudio("player"), .stopAudio("game"),
                          .notify("player", .interruptionBegan), .notify("game", .interruptionBegan)])
        #expect(throws: SessionError.deviceTaken(by: "alarm")) { try c.setActive("idle", true) }
        #expect(throws: SessionError.deviceTaken(by: "alarm")) { try c.setActive("player", true) }
        #expect(throws: SessionError.interruptionInProgress("alarm")) { try c.beginInterruption("alarm") }
        // Behaviour 7: exactly one end each, carrying the appliance's resume hint.
        #expect(try c.endInterruption("alarm", shouldResume: true) == [
            .notify("player", .interruptionEnded(shouldResume: true)), .notify("game", .interruptionEnded(shouldResume: true))])
        #expect(try c.state(of: "player") == .inactive)
        #expect(throws: SessionError.noSuchInterruption("alarm")) { try c.endInterruption("alarm", shouldResume: true) }
    }

    @Test func noEndReachesASessionTornDownDuringTheInterruption() throws {
        var c = F.coordinator()
        try c.register("player", category: .playback)
        try c.register("game", category: .ambient)
        _ = try c.setActive("player", true)
        _ = try c.setActive("game", true)
        _ = try c.beginInterruption("announcement")
        // Behaviour 8: the player is torn down mid-interruption; nothing more is said to it.
        #expect(F.notifications(try c.remove("player")).isEmpty)
        #expect(try c.endInterruption("announcement", shouldResume: false) == [.notify("game", .interruptionEnded(shouldResume: false))])
        #expect(throws: SessionError.unknownSession("player")) { try c.state(of: "player") }
    }

    @Test func anInterruptionThatDoesNotFinishNormallySendsNoEnd() throws {
        var c = F.coordinator()
        try c.register("player", category: .playback)
        _ = try c.setActive("player", true)
        _ = try c.beginInterruption("alarm")
        #expect(try c.cancelInterruption("alarm") == [])
        #expect(try c.state(of: "player") == .inactive)
    }

    @Test func theEndWaitsForTheLastInterrupter() throws {
        var c = F.coordinator()
        try c.register("player", category: .playback)
        try c.register("alarm", category: .playback)
        _ = try c.setActive("player", true)
        _ = try c.setActive("alarm", true)
        _ = try c.beginInterruption("announcement")
        #expect(try c.state(of: "player") == .interrupted(by: [.session("alarm"), .appliance("announcement")]))
        // The announcement ends, but the alarm still holds the player.
        #expect(F.notifications(try c.endInterruption("announcement", shouldResume: true)).map(\.0) == ["alarm"])
        // The alarm, interrupted itself, still holds the player until it deactivates with the option.
        #expect(try c.state(of: "alarm") == .inactive)
        #expect(try c.setActive("alarm", false, notifyOthersOnDeactivation: true) == [.notify("player", .interruptionEnded(shouldResume: true))])
    }

    /// Every session call in every state the session can be in; each refused call leaves everything as it was.
    @Test(arguments: ["inactive", "active", "interruptedBySession", "interruptedByAppliance", "removed"])
    func everyCallInEveryState(_ start: String) throws {
        func prepared() throws -> SessionCoordinator {
            var c = F.coordinator()
            try c.register("player", category: .playback)
            try c.register("alarm", category: .playback)
            switch start {
            case "active": _ = try c.setActive("player", true)
            case "interruptedBySession": _ = try c.setActive("player", true); _ = try c.setActive("alarm", true)
            case "interruptedByAppliance": _ = try c.setActive("player", true); _ = try c.beginInterruption("alarm-clock")
            case "removed": _ = try c.remove("player")
            default: break
            }
            return c
        }
        let startState: SessionState? = try? prepared().state(of: "player")
        enum Outcome: Equatable { case state(SessionState), gone, error(SessionError) }
        let unchanged: Outcome = startState.map(Outcome.state) ?? .error(.unknownSession("player"))
        let calls: [(String, (inout SessionCoordinator) throws(SessionError) -> [SessionAction], Outcome)] = [
            ("setCategory", { c throws(SessionError) in try c.setCategory("player", .playback, options: .mixWithOthers) }, unchanged),
            ("setActive(true)", { c throws(SessionError) in try c.setActive("player", true) },
             start == "interruptedByAppliance" ? .error(.deviceTaken(by: "alarm-clock"))
                : start == "removed" ? unchanged : .state(.active)),
            ("setActive(false)", { c throws(SessionError) in try c.setActive("player", false) },
             start == "removed" ? unchanged : .state(.inactive)),
            ("setPreferredSampleRate", { c throws(SessionError) in try c.setPreferredSampleRate("player", 44100) }, unchanged),
            ("setPreferredIOBufferDuration", { c throws(SessionError) in try c.setPreferredIOBufferDuration("player", .milliseconds(5)) }, unchanged),
            ("setPreferredInput", { c throws(SessionError) in try c.setPreferredInput("player", .line) }, unchanged),
            ("overrideOutputToSpeaker", { c throws(SessionError) in try c.overrideOutputToSpeaker("player", true) }, unchanged),
            ("remove", { c throws(SessionError) in try c.remove("player") }, start == "removed" ? unchanged : .gone),
        ]
        for (name, call, expected) in calls {
            var c = try prepared()
            let before = c
            let outcome: Outcome
            do {
                _ = try call(&c)
                outcome = (try? c.state(of: "player")).map(Outcome.state) ?? .gone
            } catch {
                outcome = .error(error)
                #expect(c == before, "\(name) in \(start): a refused call changes nothing")
            }
            #expect(outcome == expected, "\(name) in \(start)")
        }
    }

    @Test func unknownAndDuplicateSessionsAreTypedErrors() throws {
        var c = F.coordinator()
        try c.register("player")
        #expect(throws: SessionError.duplicateSession("player")) { try c.register("player") }
        #expect(throws: SessionError.unknownSession("nobody")) { try c.setActive("nobody", true) }
        #expect(try c.policy(of: "player").category == .soloAmbient)
    }
}
