#if canImport(Glibc)
import Glibc
#endif
import Testing
@testable import HAL

/// The sd_notify(3) protocol as systemd reads it: one AF_UNIX datagram of newline-separated KEY=VALUE
/// assignments to $NOTIFY_SOCKET; a leading '@' names an abstract socket (unix(7): sun_path[0] == 0).
struct ServiceNotifierTests {
    /// A datagram socket bound where a service manager would listen.
    final class Listener {
        let descriptor: Int32
        init(path: String, abstract: Bool) throws {
            descriptor = socket(AF_UNIX, Int32(SOCK_DGRAM.rawValue), 0)
            var address = sockaddr_un()
            address.sun_family = sa_family_t(AF_UNIX)
            var name = Array(path.utf8)
            if abstract { name.insert(0, at: 0) }
            withUnsafeMutableBytes(of: &address.sun_path) { for (i, b) in name.enumerated() { $0[i] = b } }
            let length = socklen_t(MemoryLayout.offset(of: \sockaddr_un.sun_path)! + name.count)
            let bound = withUnsafePointer(to: &address) {
                $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(descriptor, $0, length) }
            }
            guard bound == 0 else { throw Errno.current }
        }
        deinit { close(descriptor) }

        func receive() -> String? {
            var entries = [pollfd(fd: descriptor, events: Int16(POLLIN), revents: 0)]
            guard poll(&entries, 1, 5_000) == 1 else { return nil }
            var buffer = [UInt8](repeating: 0, count: 4096)
            let count = recv(descriptor, &buffer, buffer.count, 0)
            return count < 0 ? nil : String(decoding: buffer[..<count], as: UTF8.self)
        }
    }

    @Test func readyStatusWatchdogAndStoppingReachAPathSocket() throws {
        let path = "/tmp/appliance-notify-\(getpid())-\(UInt32.random(in: 0...UInt32.max)).sock"
        defer { unlink(path) }
        let listener = try Listener(path: path, abstract: false)
        let notifier = ServiceNotifier(socketPath: path, watchdogMicroseconds: nil)
        try notifier.ready(status: "playing nothing")
        #expect(listener.receive() == "READY=1\nSTATUS=playing nothing")
        try notifier.watchdog()
        #expect(listener.receive() == "WATCHDOG=1")
        try notifier.stopping()
        #expect(listener.receive() == "STOPPING=1")
    }

    @Test func anAtSignNamesAnAbstractSocket() throws {
        let name = "appliance-notify-\(getpid())-\(UInt32.random(in: 0...UInt32.max))"
        let listener = try Listener(path: name, abstract: true)
        try ServiceNotifier(socketPath: "@" + name, watchdogMicroseconds: nil).status("starting")
        #expect(listener.receive() == "STATUS=starting")
    }

    /// sd_watchdog_enabled(3): ping at half of WATCHDOG_USEC; without NOTIFY_SOCKET nothing is sent.
    @Test func theWatchdogRunsAtHalfItsTimeoutAndNothingIsSentWithoutASocket() throws {
        #expect(ServiceNotifier(socketPath: "/x", watchdogMicroseconds: 10_000_000).watchdogInterval == .seconds(5))
        #expect(ServiceNotifier(socketPath: "/x", watchdogMicroseconds: nil).watchdogInterval == nil)
        let silent = ServiceNotifier(socketPath: nil, watchdogMicroseconds: nil)
        #expect(!silent.isActive)
        try silent.ready()
    }

    @Test func aSocketNobodyListensOnIsAnError() {
        let notifier = ServiceNotifier(socketPath: "/nonexistent-dir/notify.sock", watchdogMicroseconds: nil)
        #expect(throws: SystemError.self) { try notifier.ready() }
    }
}
