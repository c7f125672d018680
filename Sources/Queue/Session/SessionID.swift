/// Names one session among the appliance's (the player, the recorder, the alarm).
public struct SessionID: Hashable, Sendable, Comparable, ExpressibleByStringLiteral, CustomStringConvertible {
    public var name: String

    public init(_ name: String) { self.name = name }
    public init(stringLiteral name: String) { self.name = name }

    public static func < (lhs: SessionID, rhs: SessionID) -> Bool { lhs.name < rhs.name }
    public var description: String { name }
}
