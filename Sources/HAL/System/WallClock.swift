#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif

/// A calendar date and time in the local time zone (localtime_r(3)); for naming things people read, such
/// as recordings. Durations and deadlines use the monotonic clock, never this.
public struct LocalDateTime: Sendable, Hashable {
    public var year: Int
    /// 1...12
    public var month: Int
    /// 1...31
    public var day: Int
    public var hour: Int
    public var minute: Int
    public var second: Int

    public init(year: Int, month: Int, day: Int, hour: Int, minute: Int, second: Int) {
        self.year = year
        self.month = month
        self.day = day
        self.hour = hour
        self.minute = minute
        self.second = second
    }
}

/// The real-time clock (CLOCK_REALTIME): wall-clock time, which may jump when it is set.
public enum WallClock {
    /// Seconds since the Unix epoch, UTC (clock_gettime(2) with CLOCK_REALTIME).
    public static var secondsSinceEpoch: Int64 {
        var now = timespec()
        _ = clock_gettime(CLOCK_REALTIME, &now)   // cannot fail with a valid clock id and pointer
        return Int64(now.tv_sec)
    }

    /// `secondsSinceEpoch` (default: now) as local date and time (localtime_r(3), with the TZ rules in force).
    public static func local(_ seconds: Int64 = secondsSinceEpoch) -> LocalDateTime {
        var time = time_t(seconds)
        var parts = tm()
        _ = localtime_r(&time, &parts)
        return LocalDateTime(year: Int(parts.tm_year) + 1900, month: Int(parts.tm_mon) + 1, day: Int(parts.tm_mday),
                             hour: Int(parts.tm_hour), minute: Int(parts.tm_min), second: Int(parts.tm_sec))
    }
}
