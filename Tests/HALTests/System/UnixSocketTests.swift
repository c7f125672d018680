import Foundation
import Glibc
import Testing
@testable import HAL

/// Unix-domain stream sockets against the kernel (unix(7)): paths under a temporary directory.
struct UnixSocketTests {
    private func temporaryDirectory() throws -> String {
        let path = NSTemporaryDirectory() + "unix-socket-" + UUID().uuidString.prefix(8)
        try FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
        return path
    }

    @Test func aClientAndTheAcceptedConnectionExchangeBytesAndSeeTheEnd() throws {
        let directory = try temporaryDirectory()
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let path = directory + "/control.sock"
        let listener = try UnixSocket.listen(path: path)
        #expect(try listener.accept() == nil)   // non-blocking: nobody yet
        let client = try UnixSocket.connect(path: path)
        #expect(try listener.waitForInput(timeoutMilliseconds: 5_000))
        let server = try #require(try listener.accept())
        try client.send(Array("vol 40\n".utf8))
        #expect(try server.waitForInput(timeoutMilliseconds: 5_000))
        #expect(try server.receive() == Array("vol 40\n".utf8))
        try server.send(Array("OK\n".utf8))
        #expect(try client.waitForInput(timeoutMilliseconds: 5_000))
        #expect(try client.receive() == Array("OK\n".utf8))
        client.close()
        // read(2) returns 0 at the end of a stream whose peer closed (unix(7), read(2)).
        #expect(try server.receive() == [])
        // Writing to it fails with EPIPE (MSG_NOSIGNAL: no SIGPIPE, or this test process would be gone).
        var failure: SystemError?
        do { try server.send(Array("late\n".utf8)); try server.send(Array("late\n".utf8)) } catch { failure = error }
        #expect(failure?.errno == .brokenPipe)
        listener.close()
        #expect(!FileManager.default.fileExists(atPath: path))
    }

    @Test func aStaleSocketIsReplacedALiveOneRefusedAndOtherFilesLeftAlone() throws {
        let directory = try temporaryDirectory()
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let path = directory + "/control.sock"
        // A socket file whose process died: bound, never unlinked, its descriptor closed.
        let stale = socket(AF_UNIX, Int32(SOCK_STREAM.rawValue), 0)
        var address = sockaddr_un()
        address.sun_family = sa_family_t(AF_UNIX)
        withUnsafeMutableBytes(of: &address.sun_path) { $0.copyBytes(from: Array(path.utf8)) }
        let bound = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(stale, $0, socklen_t(MemoryLayout<sockaddr_un>.size)) }
        }
        #expect(bound == 0)
        close(stale)
        #expect(FileManager.default.fileExists(atPath: path))
        #expect(throws: UnixSocketError.noListener(path: path)) { try UnixSocket.connect(path: path) }
        let listener = try UnixSocket.listen(path: path)
        #expect(throws: UnixSocketError.inUse(path: path)) { try UnixSocket.listen(path: path) }
        _ = try UnixSocket.connect(path: path)
        listener.close()

        let file = directory + "/not-a-socket"
        #expect(FileManager.default.createFile(atPath: file, contents: Data("keep".utf8)))
        #expect(throws: UnixSocketError.notASocket(path: file)) { try UnixSocket.listen(path: file) }
        #expect(FileManager.default.contents(atPath: file) == Data("keep".utf8))
        #expect(throws: UnixSocketError.noListener(path: directory + "/missing.sock")) {
            try UnixSocket.connect(path: directory + "/missing.sock")
        }
        // sun_path holds 108 bytes with the terminating NUL (unix(7)).
        let long = "/tmp/" + String(repeating: "x", count: 110)
        #expect(throws: UnixSocketError.pathTooLong(path: long)) { try UnixSocket.listen(path: long) }
    }

    @Test func aPairIsConnected() throws {
        let (a, b) = try UnixSocket.pair()
        try a.send([1, 2, 3])
        #expect(try b.receive() == [1, 2, 3])
    }

    /// unix(7): an abstract socket address has sun_path[0] == 0 and the name is the following bytes, as many
    /// as the address length says (no terminating NUL counts). The test socket is bound that way by hand
    /// (`ServiceNotifierTests.Listener`); a datagram sent to '@name' reaches it only if the sender builds the
    /// same address and length (with a trailing NUL counted it would be another name: ECONNREFUSED).
    @Test func aDatagramReachesAnAbstractSocketNamedWithAnAtSign() throws {
        let name = "appliance-datagram-\(getpid())-\(UInt32.random(in: 0...UInt32.max))"
        let listener = try ServiceNotifierTests.Listener(path: name, abstract: true)
        try UnixSocket.sendDatagram(Array("READY=1".utf8), to: "@" + name)
        #expect(listener.receive() == "READY=1")
        #expect(throws: UnixSocketError.pathTooLong(path: "@" + String(repeating: "n", count: 108))) {
            try UnixSocket.sendDatagram([1], to: "@" + String(repeating: "n", count: 108))
        }
    }
}

/// The control socket reachable only by its owner and its group: connect(2) on a Unix socket needs write
/// permission on the socket file (unix(7), "Pathname socket ownership and permissions"), and reaching it
/// needs search permission on its folder. The kernel decides, for a client run as another uid with setpriv(1)
/// (the tests run as root, who would pass any check).
@Suite("Control socket permissions")
struct UnixSocketPermissionTests {
    /// Connects as `uid`:`gid` (no supplementary groups) with Python's socket module; its exit status: 0
    /// connected, 13 EACCES.
    func connect(_ path: String, uid: Int, gid: Int) throws -> Int32 {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/setpriv")
        let script = "import socket,sys\ns=socket.socket(socket.AF_UNIX)\ntry:\n s.connect(sys.argv[1])\nexcept OSError as e:\n sys.exit(e.errno)\n"
        process.arguments = ["--reuid=\(uid)", "--regid=\(gid)", "--clear-groups", "/usr/bin/python3", "-c", script, path]
        try process.run()
        process.waitUntilExit()
        return process.terminationStatus
    }

    @Test func onlyTheOwnerAndTheGroupConnect() throws {
        guard getuid() == 0, FileManager.default.isExecutableFile(atPath: "/usr/bin/setpriv"),
              FileManager.default.isExecutableFile(atPath: "/usr/bin/python3") else {
            Issue.record("needs root, setpriv (util-linux) and /usr/bin/python3"); return
        }
        let directory = NSTemporaryDirectory() + "control-" + UUID().uuidString.prefix(8)
        defer { try? FileManager.default.removeItem(atPath: directory) }
        // The service's runtime folder: RuntimeDirectoryMode=0750 in image/service/appliance.service.
        try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: false,
                                                attributes: [.posixPermissions: 0o750])
        let group = 65534   // nogroup on Debian (base-passwd)
        #expect(chown(directory, 0, gid_t(group)) == 0)
        let path = directory + "/control.sock"
        let listener = try UnixSocket.listen(path: path)
        #expect(chown(path, 0, gid_t(group)) == 0)
        var info = stat()
        #expect(stat(path, &info) == 0)
        #expect(info.st_mode & 0o7777 == 0o660, "socket mode \(String(info.st_mode & 0o7777, radix: 8))")
        #expect(info.st_mode & S_IFMT == S_IFSOCK)
        // A member of the group connects (so the refusal below is the permission, not the script).
        #expect(try connect(path, uid: 65534, gid: group) == 0)
        #expect(try listener.accept() != nil)
        // Another uid in another group: EACCES (13) at the folder.
        #expect(try connect(path, uid: 65534, gid: 4242) == EACCES)
        // Even with the folder open to all, the socket file's own mode refuses others.
        #expect(chmod(directory, 0o755) == 0)
        #expect(try connect(path, uid: 65534, gid: 4242) == EACCES)
        #expect(try listener.accept() == nil)
    }
}
