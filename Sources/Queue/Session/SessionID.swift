/// Names one session among the appliance's (the player, the recorder, the alarm).
public struct SessionID: Hashable, Sendable, Comparable, ExpressibleByStringLiteral, CustomStringConvertible {
    public var name: String

    public init(_ name: String) { self.name = name }
    public init(stringLiteral name: String) { self.name = name }

    public static func < (lhs: SessionID, rhs: SessionID) -> Bool { lhs.name < rhs.name }
    public var description: String { name }
}

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

/// Where a session stands.
public enum SessionState: Hashable, Sendable, CustomStringConvertible {
    case inactive
    case active
    /// Made inactive by an interrupter; an end may follow (see `SessionNotification.interruptionEnded`).
    case interrupted(by: Set<Interrupter>)

    public var description: String {
        switch self {
        case .inactive: "inactive"
        case .active: "active"
        case .interrupted(let by): "interrupted by " + by.map(\.description).sorted().joined(separator: ", ")
        }
    }
}
