#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif
import CSignalFD

/// One process owns the codec and the PCM: the daemon holds an exclusive flock(2) on a lock file that holds
/// its pid. The kernel drops the lock when the process dies (even by SIGKILL), so a stale file never blocks a
/// restart; a second process learns who holds it from the pid in the file and /proc/PID/comm.
public final class InstanceLock {
    /// The running holder, as a second process sees it.
    public struct Holder: Hashable, Sendable, CustomStringConvertible {
        public let pid: Int32
        /// /proc/PID/comm; nil when it cannot be read.
        public let name: String?
        public var description: String { name.map { "pid \(pid), \($0)" } ?? "pid \(pid)" }
    }

    public enum Failure: Error, Hashable, Sendable, CustomStringConvertible {
        /// Another process holds the lock.
        case held(by: Holder, path: String)
        case system(SystemError)

        public var description: String {
            switch self {
            case .held(let holder, _): "the appliance is already running (\(holder))"
            case .system(let error): "cannot take the instance lock \(error)"
            }
        }
    }

    public let path: String
    private let file: FileDescriptor

    /// Takes the lock at `path` (created when missing) and writes this process's pid into it.
    public init(path: String) throws(Failure) {
        self.path = path
        let file: FileDescriptor
        do throws(SystemError) { file = try FileDescriptor(opening: path, Self.readWriteCreate, permissions: 0o644) } catch { throw .system(error) }
        let result = csignalfd_lock_exclusive(file.rawValue)
        if result == -EWOULDBLOCK {
            throw .held(by: Self.holder(from: file) ?? Holder(pid: 0, name: nil), path: path)
        }
        guard result == 0 else { throw .system(SystemError("lock", path: path, errno: Errno(-result))) }
        do throws(SystemError) {
            try file.truncate(to: 0)
            try file.write(Array("\(CurrentProcess.id)\n".utf8), at: 0)
        } catch { throw .system(error) }
        self.file = file
    }

    /// Unlocked explicitly, not only by the close: a child forked elsewhere in the process shares the open
    /// file description until its exec, and would hold the lock that long (flock(2)).
    deinit { _ = csignalfd_unlock(file.rawValue) }

    /// Who holds the lock at `path` now; nil when nobody does (or the file is missing).
    public static func holder(of path: String) -> Holder? {
        guard let file = try? FileDescriptor(opening: path, .readOnly) else { return nil }
        let result = csignalfd_lock_exclusive(file.rawValue)
        if result == 0 { _ = csignalfd_unlock(file.rawValue) }   // free: let the probe go at once (as above)
        guard result == -EWOULDBLOCK else { return nil }
        return holder(from: file)
    }

    /// The pid in the file (written by the holder) and that process's name.
    private static func holder(from file: borrowing FileDescriptor) -> Holder? {
        var bytes = [UInt8](repeating: 0, count: 32)
        let count = bytes.withUnsafeMutableBytes { buffer in
            do throws(SystemError) { return try file.read(into: buffer, at: 0) } catch { return 0 }
        }
        let text = String(decoding: bytes[..<count], as: UTF8.self).split(separator: "\n").first ?? ""
        guard let pid = Int32(text), pid > 0 else { return nil }
        let comm = (try? FileSystem.contents(of: "/proc/\(pid)/comm", limit: 64))
            .map { String(decoding: $0, as: UTF8.self).split(separator: "\n").first.map(String.init) ?? "" }
        return Holder(pid: pid, name: comm?.isEmpty == false ? comm : nil)
    }

    private static let readWriteCreate = FileDescriptor.Mode(flags: O_RDWR | O_CREAT)
}

extension FileDescriptor {
    /// Writes all of `bytes` at `offset`.
    borrowing func write(_ bytes: [UInt8], at offset: Int64) throws(SystemError) {
        let failure: SystemError? = bytes.withUnsafeBytes { buffer in
            do throws(SystemError) { try write(buffer, at: offset) } catch { return error }
            return nil
        }
        if let failure { throw failure }
    }
}
