#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif

extension FileSystem {
    /// mkdir -p: creates `path` and its missing parents (mode 0755); an existing directory is fine.
    public static func createDirectories(_ path: String) throws(SystemError) {
        if FileStatus.of(path)?.kind == .directory || path.isEmpty { return }
        let parent = split(path).directory
        if parent != path && parent != "." && parent != "/" { try createDirectories(parent) }
        if mkdir(path, 0o755) != 0 && Errno.current != .exists {
            throw SystemError.current("create the directory", path: path)
        }
    }
}

extension CurrentProcess {
    /// Whether this process runs as root (effective uid 0).
    public static var isRoot: Bool { geteuid() == 0 }

    /// The real user id, for per-user paths such as /tmp/appliance-UID.lock.
    public static var userID: UInt32 { UInt32(getuid()) }
}
