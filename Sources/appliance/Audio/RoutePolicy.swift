import Board
import HAL
import Queue

/// "Do what the user means" with routes (shared/reference/core-audio-iphone-2008.md 1.12, 1.14), as a pure
/// value with time passed in. The session coordinator decides which output and input sound; this policy
/// decides what a change means around it:
/// - headphones pulled while playing: pause first (the iPod's behaviour; RouteChange.pulledHeadphones, the
///   `.oldDeviceUnavailable` reason with headphones in the previous route), so nothing blasts from the speaker;
///   plugged in: nothing is paused or resumed, the transport keeps its state and only the output moves;
/// - volume is remembered per route and restored on every switch (behaviour 17, "Per route"); headphones
///   are brought down to a safe level when plugged in (HeadphoneSafeLevel), never up;
/// - the speaker amplifier runs only while the speaker (the main output) is the route and something may play: off once the
///   output has been idle for `amplifierIdleTimeout` (told through `outputActivity`), on again before it plays.
struct RoutePolicy: Hashable, Sendable {
    /// Where sound goes with nothing in the jack (speaker, or line on a board without one).
    let mainOutput: CodecOutput
    let curve: VolumeCurve
    /// The level of a route the user never set (the board's `default-db`, capped).
    let defaultDB: Double
    /// The most headphones get when plugged in (never above the board's cap).
    let headphoneCapDB: Double
    /// The board has an amplifier control line.
    let hasAmplifier: Bool
    /// How long the speaker amplifier stays on after the output went idle: a pause, a gap between commands,
    /// does not switch it (each switch can thump); a long silence does.
    static let amplifierIdleTimeout: Duration = .seconds(10)

    private(set) var output: CodecOutput
    private var levels: [CodecOutput: Double] = [:]
    private(set) var amplifierOn = false
    /// Something may play. True until told otherwise, so a daemon that never reports activity keeps the
    /// amplifier on whenever the speaker is the route.
    private(set) var outputActive = true
    private var idleSince: Timestamp?

    /// `remembered`: the saved levels by route name (`ApplianceSettings.volumeDB`).
    init(mainOutput: CodecOutput, output: CodecOutput, limits: VolumeLimits, headphoneCapDB: Double,
         remembered: [String: Double], hasAmplifier: Bool) {
        self.mainOutput = mainOutput
        self.output = output
        curve = VolumeCurve(maximumDB: limits.maximumDB)
        defaultDB = curve.clamped(limits.defaultDB)
        self.headphoneCapDB = min(headphoneCapDB, limits.maximumDB)
        self.hasAmplifier = hasAmplifier
        for (name, dB) in remembered {
            if let route = CodecOutput(rawValue: name), !dB.isNaN { levels[route] = curve.clamped(dB) }
        }
    }

    /// A route's level: as last set, else the board's default.
    func level(of output: CodecOutput) -> Double { levels[output] ?? defaultDB }

    /// The current route's level.
    var level: Double { level(of: output) }

    /// The levels by route name, for the settings.
    var remembered: [String: Double] {
        Dictionary(uniqueKeysWithValues: levels.map { ($0.key.rawValue, $0.value) })
    }

    /// What bring-up does: the current output at its level, selected, and the amplifier as it should be.
    mutating func start(now: Timestamp) -> [RouteAction] {
        [.volume(output, dB: level), .selectOutput(output)] + updateAmplifier(now: now, force: true)
    }

    /// The session changed the route (a jack event, an override); `playing`: the player is playing now.
    mutating func routeChanged(_ change: RouteChange, to route: AudioRoute, playing: Bool,
                               now: Timestamp) -> [RouteAction] {
        var actions: [RouteAction] = []
        if change.pulledHeadphones(current: route), playing {
            // The player's pause reaches `outputActivity` through the daemon, like any other stop.
            actions.append(.pausePlayback)
        }
        let next = route.outputs.first ?? mainOutput
        // Capped at every insertion, even while the output is forced to the speaker: a later `route auto`
        // must not land on a loud level the user set before the plug went out.
        if change.reason == .newDeviceAvailable, level(of: .headphones) > headphoneCapDB {
            levels[.headphones] = headphoneCapDB
        }
        if next != output {
            // Amplifier off before the speaker stops being the route; on only after it is selected.
            output = next
            let amplifier = updateAmplifier(now: now)
            actions += amplifier.filter { $0 == .amplifier(on: false) }
            actions += [.volume(next, dB: level), .selectOutput(next)]
            actions += amplifier.filter { $0 == .amplifier(on: true) }
        } else {
            actions.append(.volume(next, dB: level))
            actions += updateAmplifier(now: now)
        }
        return actions
    }

    /// The user set the current route's level: kept inside the scale (at most the board's cap) and remembered.
    mutating func setLevel(_ dB: Double) -> Double {
        let level = curve.clamped(dB)
        levels[output] = level
        return level
    }

    /// The daemon says whether anything plays (before it starts, after it stops).
    mutating func outputActivity(_ active: Bool, now: Timestamp) -> [RouteAction] {
        guard active != outputActive else { return [] }
        outputActive = active
        idleSince = active ? nil : now
        return updateAmplifier(now: now)
    }

    /// When the amplifier's idle timeout runs out, if it is pending.
    var nextDeadline: Timestamp? {
        guard amplifierOn, !outputActive, let idleSince else { return nil }
        return idleSince + Self.amplifierIdleTimeout
    }

    mutating func tick(now: Timestamp) -> [RouteAction] { updateAmplifier(now: now) }

    /// Whether `request` forces the main output (true), gives the jack its say (false), or cannot be done.
    func speakerOverride(for request: RouteRequest, jack: JackState) throws(RouteRequestError) -> Bool {
        switch request {
        case .auto:
            return false
        case .headphones:
            guard jack.isPlugged else { throw .headphonesNotPlugged }
            return false
        case .speaker:
            guard mainOutput != .headphones else { throw .noSpeaker(mainOutput) }
            return true
        }
    }

    /// The amplifier drives the main output (the speaker, or the line out of an amplifier board such as the
    /// IQaudio DAC+ with its amplifier behind the line out), never the headphones.
    private var amplifierWanted: Bool {
        hasAmplifier && output == mainOutput && mainOutput != .headphones && (outputActive || idleSince != nil)
    }

    private mutating func updateAmplifier(now: Timestamp, force: Bool = false) -> [RouteAction] {
        if let since = idleSince, now - since >= Self.amplifierIdleTimeout { idleSince = nil }
        let wanted = amplifierWanted
        guard hasAmplifier, wanted != amplifierOn || force else { return [] }
        amplifierOn = wanted
        return [.amplifier(on: wanted)]
    }
}
