#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif

/// Room left on a file system, as statvfs(3) reports it: what an unprivileged writer may still use
/// (`f_bavail`), not the blocks reserved for root.
public struct FileSystemSpace: Sendable, Hashable {
    /// Bytes a non-root writer can still use (f_bavail × f_frsize).
    public var availableBytes: Int64
    /// The file system's size (f_blocks × f_frsize).
    public var totalBytes: Int64

    public init(availableBytes: Int64, totalBytes: Int64) {
        self.availableBytes = availableBytes
        self.totalBytes = totalBytes
    }
}

extension FileSystem {
    /// The free space of the file system holding `path` (statvfs(3)); a recorder asks about once a second.
    public static func space(at path: String) throws(SystemError) -> FileSystemSpace {
        var info = statvfs()
        guard statvfs(path, &info) == 0 else { throw SystemError.current("statvfs", path: path) }
        let unit = Int64(info.f_frsize)
        return FileSystemSpace(availableBytes: Int64(info.f_bavail) * unit, totalBytes: Int64(info.f_blocks) * unit)
    }
}
