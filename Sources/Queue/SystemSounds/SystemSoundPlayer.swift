import HAL
import Synchronization

/// System sounds, control side (Audio Services' system sounds): short sounds registered once, then played
/// fire-and-forget over whatever else plays, each with an optional completion, an alert variant that also
/// pulses the board's alert line, and the reserved vibrate ID that only pulses.
///
/// Audio goes through one `RenderSource`, `voices`, which the engine pulls; plays reach it as numbers
/// through its command ring. Completions come back through its report ring and are delivered by
/// `service()`, on whichever control thread calls it (never the render thread), each exactly once, after
/// the play's last frame was rendered. `service()` also ends alert pulses, so the appliance calls it from
/// its control loop at least by the deadline it returns.
///
/// There is no per-sound volume or pan (the reference's rule). Whether sounds may sound is the session's
/// decision, given with `setAllowed(_:)`. All methods may be called from any control thread.
public final class SystemSoundPlayer: Sendable {
    /// The render source to attach to the engine.
    public let voices: SystemSoundVoices
    private let clock: any MonotonicClock
    private let indicator: (any AlertIndicator)?
    private let state: Mutex<State>

    struct State {
        var clips: [SystemSoundID: SoundClip] = [:]
        var nextID = SystemSoundID.firstRegistered
        var nextToken: UInt64 = 1
        /// Plays handed to the voices and not yet reported ended: they keep their clip alive.
        var playing: [UInt64: Play] = [:]
        /// Completions of plays that started no audio, for the next `service()`.
        var silent: [Delivery] = []
        var settings: SystemSoundSettings
        var pulse: AlertPulse
    }

    struct Play {
        let sound: SystemSoundID
        let clip: SoundClip
        let completion: SystemSoundCompletionHandler?
    }

    struct Delivery {
        let completion: SystemSoundCompletionHandler
        let result: SystemSoundCompletion
    }

    /// A player for an engine whose output runs at `sampleRate`, with `voices` voices, pulsing `indicator`
    /// (if the board has an alert line) for `pulse` per alert, timed by `clock`.
    public init(sampleRate: Int, voices: Int = 8, clock: any MonotonicClock,
                indicator: (any AlertIndicator)? = nil, pulse: Duration = .milliseconds(400),
                settings: SystemSoundSettings = SystemSoundSettings()) {
        self.voices = SystemSoundVoices(sampleRate: sampleRate, voices: voices)
        self.clock = clock
        self.indicator = indicator
        state = Mutex(State(settings: settings, pulse: AlertPulse(duration: pulse)))
    }

    /// A player at `host`'s output rate, its voices attached to the host.
    public convenience init(host: any RenderHost, voices: Int = 8, clock: any MonotonicClock,
                            indicator: (any AlertIndicator)? = nil, pulse: Duration = .milliseconds(400),
                            settings: SystemSoundSettings = SystemSoundSettings()) throws {
        self.init(sampleRate: host.outputRate, voices: voices, clock: clock, indicator: indicator, pulse: pulse,
                  settings: settings)
        try host.attach(self.voices)
    }

    /// The engine rate every registered sound is converted to.
    public var sampleRate: Int { voices.sampleRate }

    // MARK: - Registration

    /// Registers `clip`, converted to the engine rate if it differs. Shorter than 30 s (checked when the
    /// clip was made).
    public func register(_ clip: SoundClip) throws(SystemSoundError) -> SystemSoundID {
        let converted = try clip.converted(to: sampleRate)
        return state.withLock { state in
            let id = SystemSoundID(rawValue: state.nextID)
            state.nextID &+= 1
            if state.nextID == SystemSoundID.vibrate.rawValue { state.nextID &+= 1 }
            state.clips[id] = converted
            return id
        }
    }

    /// Registers a built-in sound, synthesized at the engine rate.
    public func register(_ sound: BuiltInSound) -> SystemSoundID {
        // A synthesized clip is at the engine rate already and within the limits, so this cannot throw.
        (try? register(SoundClip(sound, sampleRate: sampleRate)))!
    }

    /// Registers the whole of `file`, decoded to 8.24 and converted to the engine rate.
    public func register(file: AudioFile) throws(SystemSoundError) -> SystemSoundID {
        try register(SoundClip.decoding(file, to: sampleRate))
    }

    /// Forgets a sound. Plays of it already sounding finish (their clip lives until they end).
    public func dispose(_ sound: SystemSoundID) throws(SystemSoundError) {
        if sound == .vibrate { throw .reservedSound(sound) }
        let removed = state.withLock { state in state.clips.removeValue(forKey: sound) != nil }
        if !removed { throw .unknownSound(sound) }
    }

    /// The clip registered as `sound` (at the engine rate).
    public func clip(_ sound: SystemSoundID) -> SoundClip? {
        state.withLock { state in state.clips[sound] }
    }

    // MARK: - Playing

    /// Plays `sound` (silent when muted or not allowed; the vibrate ID only pulses). `completion` runs
    /// once, from `service()`, after the sound's last frame was rendered.
    public func play(_ sound: SystemSoundID, completion: SystemSoundCompletionHandler? = nil)
        throws(SystemSoundError) {
        try start(sound, alert: false, completion: completion)
    }

    /// Plays `sound` as an alert: as `play`, and pulses the alert line when vibrate is on, even when muted.
    /// If the line fails, the sound still plays and completes, and the error is thrown.
    public func playAlert(_ sound: SystemSoundID, completion: SystemSoundCompletionHandler? = nil)
        throws(SystemSoundError) {
        try start(sound, alert: true, completion: completion)
    }

    private func start(_ sound: SystemSoundID, alert: Bool, completion: SystemSoundCompletionHandler?)
        throws(SystemSoundError) {
        let now = clock.now
        let indicator = self.indicator
        let voices = self.voices
        let failure: SystemSoundError? = state.withLock { state in
            let clip = state.clips[sound]
            guard sound == .vibrate || clip != nil else { return .unknownSound(sound) }
            let plan = state.settings.plan(alert: alert, sound: sound)
            if plan.audio, let clip {
                let token = state.nextToken
                guard voices.commands.push(.start(token: token, clip: clip)) else { return .renderThreadBehind }
                state.nextToken &+= 1
                state.playing[token] = Play(sound: sound, clip: clip, completion: completion)
            } else if let completion {
                state.silent.append(Delivery(completion: completion, result: SystemSoundCompletion(
                    sound: sound, outcome: .silent, lastFrame: nil)))
            }
            guard plan.pulse, state.pulse.trigger(at: now) == .on else { return nil }
            return Self.drive(indicator, active: true)
        }
        if let failure { throw failure }
    }

    // MARK: - Settings

    public var settings: SystemSoundSettings { state.withLock { state in state.settings } }

    /// The silent switch or mute setting. Muting fades out whatever system sounds are sounding.
    public func setMuted(_ muted: Bool) throws(SystemSoundError) {
        try change { $0.muted = muted }
    }

    /// Whether alerts pulse the alert line. Turning it off ends a pulse in progress.
    public func setVibrate(_ vibrate: Bool) throws(SystemSoundError) {
        try change { $0.vibrate = vibrate }
    }

    /// Whether the session's category lets system sounds mix in (the session decides). Disallowing fades
    /// out whatever is sounding.
    public func setAllowed(_ allowed: Bool) throws(SystemSoundError) {
        try change { $0.allowed = allowed }
    }

    private func change(_ edit: (inout SystemSoundSettings) -> Void) throws(SystemSoundError) {
        let indicator = self.indicator
        let voices = self.voices
        let failure: SystemSoundError? = state.withLock { state in
            let wasAudible = state.settings.audible
            edit(&state.settings)
            if wasAudible && !state.settings.audible {
                // A full ring (a burst of plays within one period) must not lose the silence: the voices
                // take the overflow flag once they have drained the ring.
                if !voices.commands.push(.fadeAll) { voices.fadeAllOverflow.store(true, ordering: .releasing) }
            }
            guard !state.settings.vibrate, state.pulse.cancel() == .off else { return nil }
            return Self.drive(indicator, active: false)
        }
        if let failure { throw failure }
    }

    // MARK: - Service

    /// Control thread: delivers the completions of plays that have ended (plays that started no audio first,
    /// then rendered plays in the order they ended) and ends an alert pulse whose time is up. Returns when
    /// to call again for the pulse (nil: no pulse on). Completions run on the calling thread, outside the
    /// player's lock, so they may play again.
    @discardableResult
    public func service() throws(SystemSoundError) -> Timestamp? {
        let now = clock.now
        let indicator = self.indicator
        let reports = voices.reports
        let (deliveries, deadline, failure) = state.withLock { state in
            var deliveries = state.silent
            state.silent.removeAll()
            while let report = reports.pop() {
                guard let play = state.playing.removeValue(forKey: report.token),
                      let completion = play.completion else { continue }
                deliveries.append(Delivery(completion: completion, result: SystemSoundCompletion(
                    sound: play.sound, outcome: report.outcome, lastFrame: report.lastFrame)))
            }
            let failure = state.pulse.settle(at: now) == .off ? Self.drive(indicator, active: false) : nil
            return (deliveries, state.pulse.deadline, failure)
        }
        for delivery in deliveries { delivery.completion(delivery.result) }
        if let failure { throw failure }
        return deadline
    }

    /// Drives the alert line, if the board has one (under the lock, so on and off keep their order); the
    /// error when it fails.
    private static func drive(_ indicator: (any AlertIndicator)?, active: Bool) -> SystemSoundError? {
        guard let indicator else { return nil }
        do throws(GPIOError) {
            try indicator.setActive(active)
        } catch {
            return .indicator(error)
        }
        return nil
    }

    /// Plays handed to the render thread whose end has not been serviced yet.
    public var playsInProgress: Int { state.withLock { state in state.playing.count } }
}
