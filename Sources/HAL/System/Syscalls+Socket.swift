#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif

/// The socket calls (Unix domain, stream and datagram): thin wrappers like the rest of `Syscalls`.
extension Syscalls {
    static func socket(_ domain: Int32, _ type: Int32, _ protocolNumber: Int32) -> Int32 {
        Glibc.socket(domain, type, protocolNumber)
    }

    static func socketpair(_ domain: Int32, _ type: Int32, _ protocolNumber: Int32, _ descriptors: inout [Int32]) -> Int32 {
        descriptors.withUnsafeMutableBufferPointer { Glibc.socketpair(domain, type, protocolNumber, $0.baseAddress!) }
    }

    static func bind(_ descriptor: Int32, _ address: UnsafePointer<sockaddr>, _ length: socklen_t) -> Int32 {
        Glibc.bind(descriptor, address, length)
    }

    static func listen(_ descriptor: Int32, _ backlog: Int32) -> Int32 {
        Glibc.listen(descriptor, backlog)
    }

    /// accept(2) (accept4 is not in Glibc's Swift module: the caller sets close-on-exec right after).
    static func accept(_ descriptor: Int32) -> Int32 {
        Glibc.accept(descriptor, nil, nil)
    }

    static func connect(_ descriptor: Int32, _ address: UnsafePointer<sockaddr>, _ length: socklen_t) -> Int32 {
        Glibc.connect(descriptor, address, length)
    }

    /// send(2): `MSG_NOSIGNAL` always, so a peer that went away is an `EPIPE`, never a SIGPIPE that ends
    /// the daemon.
    static func send(_ descriptor: Int32, _ buffer: UnsafeRawPointer?, _ count: Int) -> Int {
        Glibc.send(descriptor, buffer, count, Int32(MSG_NOSIGNAL))
    }

    /// sendto(2), `MSG_NOSIGNAL` as `send`: one datagram to `address`.
    static func sendto(_ descriptor: Int32, _ buffer: UnsafeRawPointer?, _ count: Int,
                       _ address: UnsafePointer<sockaddr>, _ length: socklen_t) -> Int {
        Glibc.sendto(descriptor, buffer, count, Int32(MSG_NOSIGNAL), address, length)
    }

    static func setsockopt(_ descriptor: Int32, _ level: Int32, _ name: Int32, _ value: UnsafeRawPointer, _ length: socklen_t) -> Int32 {
        Glibc.setsockopt(descriptor, level, name, value, length)
    }
}
