#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif

/// Operations on paths (not on open files): whole small files, directory listings, renames, removal.
public enum FileSystem {
    /// The whole file, read until its end (procfs and sysfs files say size 0); refused past `limit` bytes.
    public static func contents(of path: String, limit: Int = 1 << 20) throws(SystemError) -> [UInt8] {
        let file = try FileDescriptor(opening: path, .readOnly)
        var bytes: [UInt8] = []
        var chunk = [UInt8](repeating: 0, count: 4096)
        while true {
            let result: Result<Int, SystemError> = chunk.withUnsafeMutableBytes { buffer in
                do throws(SystemError) { return .success(try file.read(into: buffer)) } catch { return .failure(error) }
            }
            let count = try result.get()
            if count == 0 { return bytes }
            bytes += chunk[..<count]
            if bytes.count > limit { throw SystemError("read more than \(limit) bytes", path: path, errno: .fileTooLarge) }
        }
    }

    /// The names in a directory (without "." and ".."), sorted; nil when it cannot be listed.
    public static func entries(in directory: String) -> [String]? {
        guard let stream = Syscalls.opendir(directory) else { return nil }
        defer { _ = Syscalls.closedir(stream) }
        var names: [String] = []
        while let entry = Syscalls.readdir(stream) {
            let name = withUnsafeBytes(of: entry.pointee.d_name) { String(decoding: $0.prefix { $0 != 0 }, as: UTF8.self) }
            if name != "." && name != ".." { names.append(name) }
        }
        return names.sorted()
    }

    /// Where a symbolic link points; nil when `path` is not one.
    public static func linkTarget(of path: String) -> String? {
        var buffer = [CChar](repeating: 0, count: 4096)
        let length = Syscalls.readlink(path, &buffer, buffer.count - 1)
        guard length > 0 else { return nil }
        return String(decoding: buffer[..<length].map { UInt8(bitPattern: $0) }, as: UTF8.self)
    }

    /// Renames `from` over `to` in one step (same file system). Not durable until the directory is synced.
    public static func rename(_ from: String, to: String) throws(SystemError) {
        guard Syscalls.rename(from, to) == 0 else { throw SystemError.current("rename to '\(to)'", path: from) }
    }

    public static func remove(_ path: String) throws(SystemError) {
        guard Syscalls.unlink(path) == 0 else { throw SystemError.current("remove", path: path) }
    }

    /// fsync on a directory: the names created, renamed or removed in it reach the storage. A file system that
    /// cannot sync directories says EINVAL (fsync(2): "fd is bound to a special file ... which does not support
    /// synchronization"); there is nothing more to do then, so that is not an error.
    public static func synchronizeDirectory(_ path: String) throws(SystemError) {
        let directory = try FileDescriptor(opening: path, .directory)
        do throws(SystemError) { try directory.synchronize() } catch where error.errno == .invalidArgument {}
        try directory.close()
    }

    /// The directory ("." for a bare name, "/" at the root) and the last name of `path`.
    public static func split(_ path: String) -> (directory: String, name: String) {
        guard let slash = path.lastIndex(of: "/") else { return (".", path) }
        let directory = slash == path.startIndex ? "/" : String(path[..<slash])
        return (directory, String(path[path.index(after: slash)...]))
    }
}
