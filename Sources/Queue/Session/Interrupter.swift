/// Who interrupted a session: another session that became active, or the appliance itself (an alarm,
/// an announcement, a codec recovery) taking the device for a while.
public enum Interrupter: Hashable, Sendable, CustomStringConvertible {
    case session(SessionID)
    case appliance(String)

    public var description: String {
        switch self {
        case .session(let id): "session \(id)"
        case .appliance(let source): source
        }
    }
}
