/// One thing for the appliance to carry out, in the order given: the coordinator decides, the appliance
/// does the I/O (stops queues, programs the codec, delivers notifications to listeners).
public enum SessionAction: Hashable, Sendable, CustomStringConvertible {
    /// Stop the session's queues now (before it is told why).
    case stopAudio(SessionID)
    /// Deliver a notification to the session's listeners.
    case notify(SessionID, SessionNotification)
    /// Lower the session's output (another session ducks others).
    case duck(SessionID)
    /// Restore the session's output level.
    case unduck(SessionID)
    /// Reconfigure the PCM and codec clocks to these settings.
    case applyHardware(HardwareSettings)
    /// Switch the codec's outputs (speaker amp, headphone amp) and ADC input mux to this route, before the
    /// route change is delivered.
    case setRoute(AudioRoute)
    /// Open or close the capture path.
    case capture(open: Bool)
    /// Let system sounds mix in, or keep them silent.
    case systemSounds(allowed: Bool)

    public var description: String {
        switch self {
        case .stopAudio(let id): "stop audio of \(id)"
        case .notify(let id, let notification): "tell \(id): \(notification)"
        case .duck(let id): "duck \(id)"
        case .unduck(let id): "unduck \(id)"
        case .applyHardware(let settings): "apply hardware \(settings)"
        case .setRoute(let route): "route \(route)"
        case .capture(let open): open ? "open capture" : "close capture"
        case .systemSounds(let allowed): allowed ? "system sounds mix in" : "system sounds silent"
        }
    }
}
