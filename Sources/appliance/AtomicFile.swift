#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Writes a file so that readers see either the old file or the whole new one: the text goes to a
/// temporary file in the same directory, which is then renamed over the target.
enum AtomicFile {
    /// Checks, before any work is done, that `path` can plausibly be written: it names a file (not a
    /// directory) in an existing, writable directory.
    static func checkWritable(_ path: String) throws {
        let (directory, name) = split(path)
        guard !name.isEmpty else { throw EQCommandError.cannotWrite(path: path, reason: "the path names no file") }
        var info = stat()
        if stat(path, &info) == 0, (info.st_mode & S_IFMT) == S_IFDIR {
            throw EQCommandError.cannotWrite(path: path, reason: "it is a directory")
        }
        guard stat(directory, &info) == 0, (info.st_mode & S_IFMT) == S_IFDIR else {
            throw EQCommandError.cannotWrite(path: path, reason: "directory '\(directory)' does not exist")
        }
        guard access(directory, W_OK) == 0 else {
            throw EQCommandError.cannotWrite(path: path, reason: "directory '\(directory)' is not writable")
        }
    }

    static func write(_ text: String, to path: String) throws {
        let (directory, name) = split(path)
        guard !name.isEmpty else { throw EQCommandError.cannotWrite(path: path, reason: "the path names no file") }
        let temporary = (directory.hasSuffix("/") ? directory : directory + "/") + ".\(name).\(getpid()).tmp"
        let fd = open(temporary, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0o644)
        guard fd >= 0 else { throw EQCommandError.cannotWrite(path: path, reason: lastError()) }
        var bytes = Array(text.utf8)
        var written = 0
        while written < bytes.count {
            let result = bytes.withUnsafeMutableBytes { Glibc.write(fd, $0.baseAddress! + written, $0.count - written) }
            if result < 0 {
                if errno == EINTR { continue }
                let reason = lastError()
                close(fd)
                unlink(temporary)
                throw EQCommandError.cannotWrite(path: path, reason: reason)
            }
            written += result
        }
        bytes.removeAll()
        if fsync(fd) != 0 || close(fd) != 0 {
            let reason = lastError()
            unlink(temporary)
            throw EQCommandError.cannotWrite(path: path, reason: reason)
        }
        if rename(temporary, path) != 0 {
            let reason = lastError()
            unlink(temporary)
            throw EQCommandError.cannotWrite(path: path, reason: reason)
        }
    }

    /// The directory ("." for a bare name, "/" at the root) and the file name.
    static func split(_ path: String) -> (directory: String, name: String) {
        guard let slash = path.lastIndex(of: "/") else { return (".", path) }
        let directory = slash == path.startIndex ? "/" : String(path[..<slash])
        return (directory, String(path[path.index(after: slash)...]))
    }

    static func lastError() -> String {
        String(cString: strerror(errno))
    }
}
