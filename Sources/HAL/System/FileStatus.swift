#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif

/// What `stat` says about a path: its kind and size.
public struct FileStatus: Sendable, Hashable {
    public enum Kind: Sendable, Hashable { case regular, directory, other }

    public let kind: Kind
    public let size: Int64

    init(_ info: stat) {
        switch info.st_mode & S_IFMT {
        case S_IFREG: kind = .regular
        case S_IFDIR: kind = .directory
        default: kind = .other
        }
        size = Int64(info.st_size)
    }

    /// The status of `path` (following links); nil when there is nothing there or it cannot be reached.
    public static func of(_ path: String) -> FileStatus? {
        var info = stat()
        guard Syscalls.statPath(path, &info) == 0 else { return nil }
        return FileStatus(info)
    }

    /// Whether this process may create files in the directory `path`.
    public static func isWritableDirectory(_ path: String) -> Bool {
        of(path)?.kind == .directory && Syscalls.access(path, W_OK) == 0
    }
}
