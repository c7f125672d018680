#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif
import CSignalFD

/// A file or folder found inside a directory by the kernel's own confinement, not by comparing strings:
/// openat2(2) with RESOLVE_BENEATH walks the relative path from the directory's descriptor and refuses
/// (EXDEV) any step that would leave it: `..` above it, an absolute path, an absolute symbolic link, a relative
/// one that climbs out, and a link swapped in between a check and a use, since the check *is* the open.
/// RESOLVE_NO_MAGICLINKS refuses /proc-style links too. The result is an O_PATH descriptor: the entry found,
/// pinned; later uses go through it (`openPath`, `removeEntry`), never through the name again.
///
/// Linux 5.6 or later (the appliance's 6.12 kernels have it); glibc has no wrapper, hence the C shim.
public final class ConfinedPath: @unchecked Sendable {
    /// The O_PATH descriptor (-1 once closed).
    public private(set) var descriptor: Int32
    /// What fstat says the entry is.
    public let status: FileStatus
    /// The directory's descriptor when the entry is a name in it (for `removeEntry`), and that name.
    private let parent: Int32
    private let name: String

    private init(descriptor: Int32, status: FileStatus, parent: Int32, name: String) {
        self.descriptor = descriptor
        self.status = status
        self.parent = parent
        self.name = name
    }

    deinit { close() }

    /// How a path is walked: by the kernel (openat2, and the walk in user space where the kernel has no
    /// openat2: ENOSYS), or in user space only (`BeneathWalk`; for tests, so both walks are held to one set of
    /// expectations on a kernel that has openat2).
    public enum Resolution: Sendable, CaseIterable {
        case kernel, userSpace
    }

    /// Opens `relative` ("" for the directory itself) beneath `directory`. Errors carry the errno openat2 gave:
    /// `crossDevice` (EXDEV) when the path leads out of the directory, `noSuchFile`, `notDirectory`,
    /// ENAMETOOLONG, ELOOP... A `directory` that is itself a link (set by the administrator) is followed.
    public static func open(_ relative: String, beneath directory: String,
                            resolution: Resolution = .kernel) throws(SystemError) -> ConfinedPath {
        let root = Syscalls.open(directory, O_RDONLY | O_DIRECTORY | O_CLOEXEC, 0)
        guard root >= 0 else { throw SystemError.current("open the directory", path: directory) }
        // The entry is walked from the directory itself (a link in a subfolder may point to a sibling), and
        // its own folder is kept open beside it, so `removeEntry` unlinks the very name that was checked.
        let entry = Syscalls.openBeneath(root, relative.isEmpty ? "." : relative, directory: false, resolution)
        guard entry >= 0 else {
            _ = Syscalls.close(root)
            throw SystemError("open", path: relative, errno: Errno(-entry))
        }
        let (folder, name) = relative.isEmpty ? ("", ".") : FileSystem.split(relative)
        let parent = folder == "." || folder.isEmpty ? root : Syscalls.openBeneath(root, folder, directory: true, resolution)
        if parent != root { _ = Syscalls.close(root) }
        guard parent >= 0 else {
            _ = Syscalls.close(entry)
            throw SystemError("open", path: relative, errno: Errno(-parent))
        }
        var info = stat()
        guard Syscalls.fstat(entry, &info) == 0 else {
            let error = SystemError.current("examine", path: relative)
            _ = Syscalls.close(entry)
            _ = Syscalls.close(parent)
            throw error
        }
        return ConfinedPath(descriptor: entry, status: FileStatus(info), parent: parent, name: name)
    }

    /// A path that opens this very entry again (its /proc/self/fd link), whatever has been renamed or linked
    /// since: for code that opens by path (AudioFile, opendir). Valid while this object is open.
    public var openPath: String { "/proc/self/fd/\(descriptor)" }

    /// Where the entry is now, links resolved (for comparing with other paths and for messages).
    public var realPath: String { FileSystem.linkTarget(of: openPath) ?? "" }

    /// Removes the entry's name from the folder it was found in (unlinkat(2); a link is removed, never what it
    /// points to). Folders are refused (EISDIR).
    public func removeEntry() throws(SystemError) {
        guard status.kind != .directory else { throw SystemError("remove", path: name, errno: .isDirectory) }
        guard Syscalls.unlinkat(parent, name, 0) == 0 else { throw SystemError.current("remove", path: name) }
    }

    public func close() {
        if descriptor >= 0 { _ = Syscalls.close(descriptor) }
        if parent >= 0 && parent != descriptor { _ = Syscalls.close(parent) }
        descriptor = -1
    }
}

extension Syscalls {
    /// An O_PATH descriptor of `path` confined beneath `directory`, or -errno: by openat2(2) (through the C
    /// shim), or where it is missing (ENOSYS) or not wanted, by `BeneathWalk`.
    static func openBeneath(_ directory: Int32, _ path: String, directory isDirectory: Bool,
                            _ resolution: ConfinedPath.Resolution) -> Int32 {
        if resolution == .kernel {
            let descriptor = copenat2_beneath(directory, path, isDirectory ? 1 : 0)
            SystemCallRecorder.note(.open(path: path, descriptor: descriptor))
            if descriptor != -ENOSYS { return descriptor }
        }
        return BeneathWalk.open(directory, path, directory: isDirectory)
    }

    static func unlinkat(_ directory: Int32, _ name: String, _ flags: Int32) -> Int32 {
        SystemCallRecorder.note(.unlink(path: name))
        return Glibc.unlinkat(directory, name, flags)
    }
}
