#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif

/// Tells the service manager how the service is doing, by the sd_notify(3) protocol written out by hand (no
/// libsystemd): one datagram of `KEY=VALUE` lines to the AF_UNIX socket named in `$NOTIFY_SOCKET`, an abstract
/// socket when the name starts with '@'. The protocol is documented as stable. Without `$NOTIFY_SOCKET` (not
/// run by systemd) every message is silently dropped.
public final class ServiceNotifier {
    private let socketPath: String?
    /// Half of `$WATCHDOG_USEC` (sd_watchdog_enabled(3): "send WATCHDOG=1 ... before half of the timeout").
    public let watchdogInterval: Duration?

    public convenience init() {
        self.init(socketPath: CurrentProcess.environment("NOTIFY_SOCKET"),
                  watchdogMicroseconds: CurrentProcess.environment("WATCHDOG_USEC").flatMap { Int64($0) })
    }

    /// `socketPath` as `$NOTIFY_SOCKET` gives it; `watchdogMicroseconds` as `$WATCHDOG_USEC`.
    public init(socketPath: String?, watchdogMicroseconds: Int64?) {
        self.socketPath = (socketPath?.isEmpty ?? true) ? nil : socketPath
        if let microseconds = watchdogMicroseconds, microseconds > 0 {
            watchdogInterval = .microseconds(microseconds / 2)
        } else {
            watchdogInterval = nil
        }
    }

    public var isActive: Bool { socketPath != nil }

    /// Start-up is done: systemd considers a Type=notify service started now.
    public func ready(status: String? = nil) throws(SystemError) {
        try send(["READY=1"] + (status.map { ["STATUS=\($0)"] } ?? []))
    }

    public func status(_ text: String) throws(SystemError) { try send(["STATUS=\(text)"]) }

    /// The keep-alive: the loop is turning.
    public func watchdog() throws(SystemError) { try send(["WATCHDOG=1"]) }

    public func stopping() throws(SystemError) { try send(["STOPPING=1"]) }

    /// Sends the lines as one datagram.
    public func send(_ assignments: [String]) throws(SystemError) {
        guard let socketPath else { return }
        do throws(UnixSocketError) {
            try UnixSocket.sendDatagram(Array(assignments.joined(separator: "\n").utf8), to: socketPath)
        } catch .system(let error) {
            throw error
        } catch {
            throw SystemError("send to the notify socket", path: socketPath, errno: Errno(ENAMETOOLONG))
        }
    }
}
