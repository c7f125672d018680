#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif

/// poll(2) over a set of descriptors.
public enum Poll {
    /// Waits until one of `entries` is ready or `timeoutMilliseconds` pass (-1: for ever); returns how many
    /// are ready (0 on timeout or when a signal interrupted the wait: the caller looks again).
    public static func wait(_ entries: inout [pollfd], timeoutMilliseconds: Int32) throws(SystemError) -> Int {
        let ready = Syscalls.poll(&entries, timeoutMilliseconds)
        if ready >= 0 { return Int(ready) }
        let error = Errno.current
        if error == .interrupted { return 0 }
        throw SystemError("poll", path: "\(entries.count) descriptors", errno: error)
    }
}
