#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif

/// A Unix-domain stream socket: a listener bound to a path, or one connection (accepted, or made to a path).
/// The control socket of the daemon and `appliance ctl` speak console lines over it.
///
/// A final class so the control loop's handlers can share it; the descriptor is closed once, by `close()` or
/// when the last reference goes (a plain number, not a `FileDescriptor`: a class owning a non-copyable
/// optional trips Swift 6.0.3). A listener removes its path when closed. Connections block on reads only
/// after `poll` said they are readable, and give up a write after `sendTimeout` so a peer that stops reading
/// cannot stall the control loop.
public final class UnixSocket: @unchecked Sendable {
    /// The path listened on or connected to ("" for one end of a pair).
    public let path: String
    private let isListener: Bool
    /// The descriptor's number, for a `poll` set (-1 once closed).
    public private(set) var descriptor: Int32

    private init(_ descriptor: Int32, path: String, isListener: Bool) {
        self.descriptor = descriptor
        self.path = path
        self.isListener = isListener
    }

    deinit { close() }

    /// Listens on `path` (non-blocking accepts). A socket file left by a process that died is removed first;
    /// one a live process still accepts on is `inUse`; anything else at the path is `notASocket`.
    ///
    /// The socket file gets `mode` (0660: its owner and group may connect, connect(2) needing write
    /// permission, unix(7)) before it listens, so no one else can connect in between.
    public static func listen(path: String, backlog: Int32 = 8, mode: mode_t = 0o660) throws(UnixSocketError) -> UnixSocket {
        var info = stat()
        if Syscalls.statPath(path, &info) == 0 {
            guard (info.st_mode & S_IFMT) == S_IFSOCK else { throw .notASocket(path: path) }
            do throws(UnixSocketError) {
                _ = try connect(path: path)
                throw UnixSocketError.inUse(path: path)
            } catch .noListener {
                // Stale: its process is gone (connect says ECONNREFUSED).
                guard Syscalls.unlink(path) == 0 || Errno.current == .noSuchFile else {
                    throw .system(.current("remove the stale socket", path: path))
                }
            }
        }
        let socket = try makeSocket(path: path, flags: Int32(SOCK_NONBLOCK.rawValue))
        let listener = UnixSocket(socket, path: path, isListener: false)
        let bound = try withAddress(path) { address, length in Syscalls.bind(socket, address, length) }
        guard bound == 0 else { throw .system(.current("bind", path: path)) }
        let listening = UnixSocket(listener.take(), path: path, isListener: true)
        guard Syscalls.chmod(path, mode) == 0 else { throw .system(.current("set the mode of", path: path)) }
        guard Syscalls.listen(socket, backlog) == 0 else { throw .system(.current("listen", path: path)) }
        return listening
    }

    /// Connects to a listener at `path`: `noListener` when there is none (no file, or a stale one).
    public static func connect(path: String) throws(UnixSocketError) -> UnixSocket {
        let socket = UnixSocket(try makeSocket(path: path), path: path, isListener: false)
        while true {
            let result = try withAddress(path) { address, length in Syscalls.connect(socket.descriptor, address, length) }
            if result == 0 { break }
            let error = Errno.current
            if error == .interrupted { continue }
            if error == .noSuchFile || error.rawValue == ECONNREFUSED { throw .noListener(path: path) }
            throw .system(SystemError("connect", path: path, errno: error))
        }
        return socket
    }

    /// Two connected sockets (socketpair): a connection without a path, for tests and in-process peers.
    public static func pair() throws(SystemError) -> (UnixSocket, UnixSocket) {
        var descriptors: [Int32] = [-1, -1]
        guard Syscalls.socketpair(AF_UNIX, Int32(SOCK_STREAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0, &descriptors) == 0 else {
            throw .current("make a socket pair", path: "socketpair")
        }
        return (UnixSocket(descriptors[0], path: "", isListener: false),
                UnixSocket(descriptors[1], path: "", isListener: false))
    }

    /// Sends `bytes` as one datagram to the datagram socket at `path` from a socket made for it and closed
    /// after: the sd_notify(3) way. A `path` starting with '@' names an abstract socket (unix(7)).
    public static func sendDatagram(_ bytes: [UInt8], to path: String) throws(UnixSocketError) {
        let socket = UnixSocket(try makeSocket(path: path, type: Int32(SOCK_DGRAM.rawValue)), path: path, isListener: false)
        defer { socket.close() }
        while true {
            let sent = try withAddress(path) { address, length in
                bytes.withUnsafeBytes { Syscalls.sendto(socket.descriptor, $0.baseAddress, $0.count, address, length) }
            }
            if sent == bytes.count { return }
            let error = sent < 0 ? Errno.current : Errno(EMSGSIZE)
            if sent < 0 && error == .interrupted { continue }
            throw .system(SystemError("send a datagram", path: path, errno: error))
        }
    }

    /// A connection waiting on the listener, or nil when none is.
    public func accept() throws(SystemError) -> UnixSocket? {
        while true {
            let accepted = Syscalls.accept(descriptor)
            if accepted >= 0 {
                _ = Syscalls.fcntl(accepted, F_SETFD, FD_CLOEXEC)
                return UnixSocket(accepted, path: path, isListener: false)
            }
            let error = Errno.current
            if error == .interrupted { continue }
            if error == .wouldBlock || error.rawValue == ECONNABORTED { return nil }
            throw SystemError("accept a connection", path: path, errno: error)
        }
    }

    /// Reads what is there, up to `limit` bytes (blocks if nothing is: poll first); empty at the end (the
    /// peer closed).
    public func receive(limit: Int = 4096) throws(SystemError) -> [UInt8] {
        try StreamDescriptor(descriptor, name: path.isEmpty ? "socket" : path).read(limit: limit)
    }

    /// Writes all of `bytes`; a peer that went away is an `EPIPE` error (never a signal), one that stops
    /// reading an `EAGAIN` after the send timeout.
    public func send(_ bytes: [UInt8]) throws(SystemError) {
        var done = 0
        while done < bytes.count {
            let written = bytes.withUnsafeBytes { buffer in
                Syscalls.send(descriptor, buffer.baseAddress! + done, buffer.count - done)
            }
            if written < 0 {
                let error = Errno.current
                if error == .interrupted { continue }
                throw SystemError("write", path: path.isEmpty ? "socket" : path, errno: error)
            }
            done += written
        }
    }

    /// How long a write may wait for a peer that does not read (SO_SNDTIMEO).
    public func setSendTimeout(milliseconds: Int) throws(SystemError) {
        var value = timeval(tv_sec: milliseconds / 1000, tv_usec: (milliseconds % 1000) * 1000)
        guard Syscalls.setsockopt(descriptor, SOL_SOCKET, SO_SNDTIMEO, &value, socklen_t(MemoryLayout<timeval>.size)) == 0 else {
            throw .current("set the send timeout", path: path)
        }
    }

    /// Waits up to `timeoutMilliseconds` (-1: for ever) until there is something to read (or the peer hung up).
    public func waitForInput(timeoutMilliseconds: Int32) throws(SystemError) -> Bool {
        var entries = [pollfd(fd: descriptor, events: Int16(POLLIN), revents: 0)]
        return try Poll.wait(&entries, timeoutMilliseconds: timeoutMilliseconds) > 0
    }

    /// Closes it (a listener also removes its path). Closing twice does nothing.
    public func close() {
        guard descriptor >= 0 else { return }
        if isListener { _ = Syscalls.unlink(path) }
        _ = Syscalls.close(take())
    }

    /// Gives up the descriptor without closing it.
    private func take() -> Int32 {
        defer { descriptor = -1 }
        return descriptor
    }

    private static func makeSocket(path: String, type: Int32 = Int32(SOCK_STREAM.rawValue),
                                   flags: Int32 = 0) throws(UnixSocketError) -> Int32 {
        let raw = Syscalls.socket(AF_UNIX, type | Int32(SOCK_CLOEXEC.rawValue) | flags, 0)
        guard raw >= 0 else { throw .system(.current("make a socket", path: path)) }
        return raw
    }

    /// Calls `body` with `path` as a sockaddr_un. A leading '@' names an abstract socket (unix(7)): sun_path
    /// starts with a NUL and the name is exactly the bytes after it, so the length has no terminating NUL.
    private static func withAddress<Result>(_ path: String, _ body: (UnsafePointer<sockaddr>, socklen_t) -> Result) throws(UnixSocketError) -> Result {
        var address = sockaddr_un()
        address.sun_family = sa_family_t(AF_UNIX)
        var bytes = Array(path.utf8)
        let isAbstract = bytes.first == UInt8(ascii: "@")
        if isAbstract { bytes[0] = 0 }
        let capacity = MemoryLayout.size(ofValue: address.sun_path)
        guard !bytes.isEmpty, bytes.count < capacity else { throw .pathTooLong(path: path) }
        withUnsafeMutableBytes(of: &address.sun_path) { raw in
            raw.copyBytes(from: bytes)
        }
        let length = socklen_t(MemoryLayout<sa_family_t>.size + bytes.count + (isAbstract ? 0 : 1))
        return withUnsafePointer(to: &address) { pointer in
            pointer.withMemoryRebound(to: sockaddr.self, capacity: 1) { body($0, length) }
        }
    }
}
