/// Why a stream description is inconsistent: each case names the field and what it should be.
public struct StreamFormatError: Error, Hashable, Sendable, CustomStringConvertible {
    public let reason: String
    public init(_ reason: String) { self.reason = reason }
    public var description: String { "invalid stream format: \(reason)" }
}
