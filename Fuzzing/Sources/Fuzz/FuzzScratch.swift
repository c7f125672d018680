#if canImport(Glibc)
import Glibc
#endif

/// The one scratch directory of a fuzz process (in /dev/shm when there is one: no disk wear at 10^7 writes),
/// where file-reading targets put the input.
enum FuzzScratch {
    nonisolated(unsafe) static var directory = "/tmp"

    static func prepare() {
        let base = access("/dev/shm", W_OK) == 0 ? "/dev/shm" : "/tmp"
        directory = "\(base)/appliance-fuzz-\(getpid())"
        mkdir(directory, 0o700)
        atexit {
            // Only this process's own scratch directory (the daemon's state under it first).
            for sub in ["daemon/media", "daemon/recordings", "daemon"] {
                FuzzScratch.removeFiles(in: FuzzScratch.directory + "/" + sub)
                rmdir(FuzzScratch.directory + "/" + sub)
            }
            FuzzScratch.removeFiles(in: FuzzScratch.directory)
            rmdir(FuzzScratch.directory)
        }
    }

    /// Unlinks the files directly in `path` (not its subdirectories).
    static func removeFiles(in path: String) {
        guard let dir = opendir(path) else { return }
        while let entry = readdir(dir) {
            let name = withUnsafeBytes(of: entry.pointee.d_name) { String(cString: $0.bindMemory(to: CChar.self).baseAddress!) }
            if name != "." && name != ".." { unlink(path + "/" + name) }
        }
        closedir(dir)
    }

    /// Writes `bytes` to the scratch file `name` (replacing it) and returns its path.
    static func file(named name: String, holding bytes: [UInt8]) -> String {
        let path = directory + "/" + name
        let fd = open(path, O_WRONLY | O_CREAT | O_TRUNC, 0o600)
        precondition(fd >= 0, "fuzz: cannot create \(path)")
        var written = 0
        bytes.withUnsafeBytes { raw in
            while written < raw.count {
                let n = write(fd, raw.baseAddress! + written, raw.count - written)
                precondition(n > 0, "fuzz: cannot write \(path)")
                written += n
            }
        }
        close(fd)
        return path
    }
}

extension FuzzScratch {
    /// Removes the scratch file `name` if it is there.
    static func remove(_ name: String) {
        unlink(directory + "/" + name)
    }
}
