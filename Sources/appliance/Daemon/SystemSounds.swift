import HAL
import Queue

/// The system sounds in the running appliance: the built-in sounds registered on the engine, `sounds` to
/// list or play one over whatever plays, and the player's `service()` (completions, the alert pulse) run on
/// the control loop while something sounds.
final class SystemSounds: Subsystem {
    let player: SystemSoundPlayer
    private var sounds: [String: SystemSoundID] = [:]
    private let clock: any MonotonicClock
    private var pulseDeadline: Timestamp?
    static let serviceInterval = Duration.milliseconds(50)

    init(host: any RenderHost, clock: any MonotonicClock) throws {
        self.clock = clock
        player = try SystemSoundPlayer(host: host, clock: clock)
        for sound in BuiltInSound.allCases { sounds[sound.name] = player.register(sound) }
    }

    /// `sounds`: the names; `sounds NAME`: plays it.
    func reply(_ name: String?) -> ConsoleReply {
        guard let name else { return .ok(BuiltInSound.allCases.map(\.name)) }
        guard let sound = sounds[name] else {
            return .error(.notFound, "no sound '\(name)'; sounds: \(BuiltInSound.allCases.map(\.name).joined(separator: ", "))")
        }
        do { try player.play(sound) } catch { return .error(.device, "cannot play '\(name)': \(error)") }
        return .ok()
    }

    /// Whether the session lets system sounds mix in.
    func setAllowed(_ allowed: Bool) {
        do throws(SystemSoundError) { try player.setAllowed(allowed) } catch {}
    }

    var statusLines: [String] { ["sounds: \(player.playsInProgress) playing"] }

    /// While something sounds, a service every `serviceInterval` (a fixed time once set: a deadline that
    /// moved with the clock would never come).
    private var nextService: Timestamp?

    var nextDeadline: Timestamp? {
        if player.playsInProgress > 0, nextService == nil { nextService = clock.now + Self.serviceInterval }
        return [nextService, pulseDeadline].compactMap { $0 }.min()
    }

    func tick(now: Timestamp) {
        nextService = nil
        do throws(SystemSoundError) { pulseDeadline = try player.service() } catch { pulseDeadline = nil }
    }

    func shutdown() {}
}
