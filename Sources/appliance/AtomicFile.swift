#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Writes a file so that readers see either the old file or the whole new one: the text goes to a
/// temporary file in the same directory, which is then renamed over the target.
enum AtomicFile {
    static func write(_ text: String, to path: String) throws {
        let slash = path.lastIndex(of: "/")
        let directory = slash.map { String(path[..<$0]) } ?? "."
        let name = slash.map { String(path[path.index(after: $0)...]) } ?? path
        guard !name.isEmpty else { throw EQCommandError.cannotWrite(path: path, reason: "the path names a directory") }
        let temporary = (directory.isEmpty ? "" : directory + "/") + ".\(name).\(getpid()).tmp"
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

    static func lastError() -> String {
        String(cString: strerror(errno))
    }
}
