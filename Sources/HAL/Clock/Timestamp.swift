/// A point on the monotonic clock (`CLOCK_MONOTONIC`), in nanoseconds. GPIO edge events carry kernel
/// timestamps on the same clock, so debouncing and gesture timing compare like with like.
@frozen
public struct Timestamp: Hashable, Comparable, Sendable, CustomStringConvertible {
    public var nanoseconds: Int64

    @inlinable public init(nanoseconds: Int64) { self.nanoseconds = nanoseconds }

    public static let zero = Timestamp(nanoseconds: 0)

    @inlinable public static func < (lhs: Timestamp, rhs: Timestamp) -> Bool { lhs.nanoseconds < rhs.nanoseconds }

    @inlinable public static func + (lhs: Timestamp, rhs: Duration) -> Timestamp {
        Timestamp(nanoseconds: lhs.nanoseconds &+ rhs.nanoseconds)
    }

    @inlinable public static func - (lhs: Timestamp, rhs: Duration) -> Timestamp {
        Timestamp(nanoseconds: lhs.nanoseconds &- rhs.nanoseconds)
    }

    @inlinable public static func - (lhs: Timestamp, rhs: Timestamp) -> Duration {
        .nanoseconds(lhs.nanoseconds &- rhs.nanoseconds)
    }

    public var description: String {
        let ms = Double(nanoseconds) / 1e6
        return "\(ms) ms"
    }
}

extension Duration {
    /// The whole duration in nanoseconds (saturating far beyond any interval the appliance times).
    @inlinable public var nanoseconds: Int64 {
        let (seconds, attoseconds) = components
        return seconds.multipliedReportingOverflow(by: 1_000_000_000).partialValue &+ attoseconds / 1_000_000_000
    }
}
