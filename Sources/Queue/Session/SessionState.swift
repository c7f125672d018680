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
