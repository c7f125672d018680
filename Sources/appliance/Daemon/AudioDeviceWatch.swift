import HAL

/// The sound card that goes away while the appliance runs (a HAT's connector, a USB card pulled, the driver
/// unbound): ALSA then fails every call with ENODEV or EBADFD, the render threads end, and an open handle
/// never works again (alsa-lib's `snd_pcm_recover` handles only EPIPE and ESTRPIPE). So the appliance keeps
/// running, says what happened (`EVENT device lost: ...`, then `EVENT device back ...`), stops the take and the player where they are (a take finalized with what
/// reached the disk), and opens the device again after 0.5 s, 1 s, 2 s, ... up to every 30 s, until it is
/// back; then the engine runs again on it, and `play` or `record` start afresh. Xruns are not this: the
/// engine recovers them itself and the daemon reports them as `EVENT xrun`.
final class AudioDeviceWatch: Subsystem {
    static let checkInterval: Duration = .milliseconds(500)
    static let firstRetry: Duration = .milliseconds(500)
    static let longestRetry: Duration = .seconds(30)

    /// What the watch does to the rest of the appliance, given by the assembly.
    struct Actions {
        /// Why a render thread ended on its device, nil while both run.
        var failure: () -> String?
        /// The take finalized, the player stopped, the engine stopped and its devices closed; returns what
        /// the user should know about the take and the player (a line or none).
        var stopAudio: () -> [String]
        /// The devices opened again and the engine started on them; why not, nil when it worked.
        var reopen: () -> String?
    }

    /// Set by the assembly once the parts it closes over exist.
    var actions: Actions
    private let events: EventSink
    private let faults: FaultCounters
    /// When the device was found gone, the next try, and the wait after a failed one.
    private var lostAt: Timestamp?
    private var retryAt: Timestamp?
    private var retryWait = firstRetry
    private var nextCheck: Timestamp
    private(set) var tries = 0

    init(actions: Actions, events: @escaping EventSink, faults: FaultCounters, now: Timestamp) {
        self.actions = actions
        self.events = events
        self.faults = faults
        nextCheck = now + Self.checkInterval
    }

    var isLost: Bool { lostAt != nil }

    var statusLines: [String] {
        guard isLost else { return ["audio device: running"] }
        return ["audio device: lost, \(tries) tries to open it again so far"]
    }

    var nextDeadline: Timestamp? { retryAt ?? nextCheck }
    /// Looking at the engine, and trying the device again, lose nothing when late.
    var ticksOnlyPoll: Bool { true }

    func tick(now: Timestamp) {
        if lostAt == nil {
            nextCheck = now + Self.checkInterval
            guard let failure = actions.failure() else { return }
            lostAt = now
            tries = 0
            retryWait = Self.firstRetry
            retryAt = now + retryWait
            faults.count(.pcmLost)
            let stopped = actions.stopAudio()
            events(ApplianceEvent(.device, "lost: \(failure); "
                                  + (stopped.isEmpty ? "" : stopped.joined(separator: "; ") + "; ")
                                  + "trying it again with back-off (0.5 s doubling to 30 s)"))
            return
        }
        guard let due = retryAt, now >= due else { return }
        tries += 1
        if let problem = actions.reopen() {
            retryWait = min(retryWait * 2, Self.longestRetry)
            retryAt = now + retryWait
            if tries == 1 { events(ApplianceEvent(.device, "still gone (\(problem)); trying on")) }
            return
        }
        events(ApplianceEvent(.device, "back after \(tries) tries: play and record work again"))
        lostAt = nil
        retryAt = nil
        nextCheck = now + Self.checkInterval
    }

    func shutdown() {}
}
