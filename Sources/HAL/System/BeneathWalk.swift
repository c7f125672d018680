#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif
import CSignalFD

/// openat2(2)'s RESOLVE_BENEATH done one step at a time, for where the call is missing (ENOSYS: a kernel
/// before 5.6, a seccomp sandbox that does not know it, qemu-user before 9.0, which runs the aarch64 tests).
///
/// The walk starts at the directory's descriptor and opens each component with openat(2) and
/// `O_PATH | O_NOFOLLOW`, so every step is relative to a descriptor already checked and a name swapped for a link
/// meanwhile is seen as the link, never followed unseen. A symbolic link is read (readlinkat(2) on its own
/// O_PATH descriptor) and its target walked in its place. It gives the errors openat2(2) documents for the same
/// paths: EXDEV for an absolute path or link and for a `..` above the directory, ELOOP past 40 links (the
/// kernel's MAXSYMLINKS), ENAMETOOLONG for a path of PATH_MAX bytes or more, and whatever openat(2) says of a
/// component (ENOENT, ENOTDIR, ENAMETOOLONG for a name over NAME_MAX, EACCES).
/// A /proc "magic" link reads as an absolute path or as text that names nothing here, so it is refused too.
enum BeneathWalk {
    /// The kernel's limit on links followed in one lookup (include/linux/namei.h, MAXSYMLINKS).
    static let maximumLinks = 40
    /// O_PATH, from the C headers (Swift's Glibc module leaves it out).
    static let pathOnly = copen_path_flag()

    /// An O_PATH descriptor of `path` beneath `directory` (which stays open and the caller's), or -errno.
    static func open(_ directory: Int32, _ path: String, directory wantsDirectory: Bool) -> Int32 {
        // The kernel takes the whole path first and refuses one that does not fit PATH_MAX with its NUL.
        if path.utf8.count >= Int(PATH_MAX) { return -ENAMETOOLONG }
        if path.hasPrefix("/") { return -EXDEV }
        // Directories walked so far, the first the caller's; `pending` is what is left, in order.
        var trail: [Int32] = [directory]
        var pending = Array(path.split(separator: "/", omittingEmptySubsequences: true).map(String.init).reversed())
        var links = 0
        func release() { for descriptor in trail.dropFirst() { _ = Syscalls.close(descriptor) } }

        while let name = pending.popLast() {
            if name == "." { continue }
            if name == ".." {
                guard trail.count > 1 else { release(); return -EXDEV }
                _ = Syscalls.close(trail.removeLast())
                continue
            }
            let step = Syscalls.openat(trail.last!, name, pathOnly | O_NOFOLLOW | O_CLOEXEC)
            guard step >= 0 else { let error = errno; release(); return -error }
            var info = stat()
            guard Syscalls.fstat(step, &info) == 0 else {
                let error = errno; _ = Syscalls.close(step); release(); return -error
            }
            switch info.st_mode & S_IFMT {
            case S_IFLNK:
                links += 1
                let target = Syscalls.readlinkat(step, "")
                _ = Syscalls.close(step)
                guard links <= maximumLinks else { release(); return -ELOOP }
                guard let target else { let error = errno; release(); return -error }
                if target.hasPrefix("/") { release(); return -EXDEV }
                pending += target.split(separator: "/", omittingEmptySubsequences: true).map(String.init).reversed()
            case S_IFDIR:
                trail.append(step)
            default:
                // A file ends the walk; with a component still to come it is ENOTDIR, as for openat(2).
                if !pending.isEmpty || wantsDirectory { _ = Syscalls.close(step); release(); return -ENOTDIR }
                release()
                return step
            }
        }
        // The walk ended on a directory: a descriptor of its own for the caller (the directory itself again when
        // the path named it).
        let found = Syscalls.openat(trail.last!, ".", pathOnly | O_DIRECTORY | O_CLOEXEC)
        let error = errno
        release()
        return found >= 0 ? found : -error
    }
}

extension Syscalls {
    static func openat(_ directory: Int32, _ path: String, _ flags: Int32) -> Int32 {
        let descriptor = Glibc.openat(directory, path, flags)
        SystemCallRecorder.note(.open(path: path, descriptor: descriptor))
        return descriptor
    }

    /// readlinkat(2): a link's text (from its own descriptor when `path` is ""), nil with errno set.
    static func readlinkat(_ directory: Int32, _ path: String) -> String? {
        var buffer = [CChar](repeating: 0, count: Int(PATH_MAX) + 1)
        let length = Glibc.readlinkat(directory, path, &buffer, buffer.count - 1)
        guard length >= 0 else { return nil }
        return String(decoding: buffer[..<length].map { UInt8(bitPattern: $0) }, as: UTF8.self)
    }
}
