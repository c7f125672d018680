#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif

extension Poll {
    /// Whether the peer of `descriptor` hung up (a closed pty controller, a dropped serial line, a closed
    /// socket) or the descriptor is broken, without reading it: POLLHUP, POLLERR or POLLNVAL right now.
    public static func isHungUp(_ descriptor: Int32) -> Bool {
        var entries = [pollfd(fd: descriptor, events: Int16(POLLIN), revents: 0)]
        guard let ready = try? wait(&entries, timeoutMilliseconds: 0), ready > 0 else { return false }
        return entries[0].revents & Int16(POLLHUP | POLLERR | POLLNVAL) != 0
    }
}
