/// Replacing a file so that after a crash or a power cut readers find either the old file or the whole new
/// one, never a part: the new content goes to a temporary name in the same directory, is synced, renamed
/// over the target, and then the directory is synced so the rename itself survives: fsync(2) says syncing a
/// file "does not necessarily ensure that the entry in the directory containing the file has also reached
/// disk. For that an explicit fsync() on a file descriptor for the directory is also needed."
///
/// The one implementation: `write` for a whole buffer, `createTemporary` + `commit` for files written as
/// they grow (recordings).
public enum AtomicFile {
    /// The temporary name beside `target`: hidden, with this process's id.
    public static func temporaryPath(for target: String) -> String {
        let (directory, name) = FileSystem.split(target)
        let prefix = target.contains("/") ? (directory.hasSuffix("/") ? directory : directory + "/") : ""
        return "\(prefix).\(name).\(CurrentProcess.id).tmp"
    }

    /// Creates the temporary file for `target` (it must not exist yet).
    public static func createTemporary(for target: String) throws(SystemError) -> FileDescriptor {
        try FileDescriptor(opening: temporaryPath(for: target), .createNew)
    }

    /// Finishes a temporary file from `createTemporary`: fsync it, close it, rename it over `target`, fsync
    /// the directory. Before the rename a failure removes the temporary file and leaves the target as it was.
    public static func commit(_ file: consuming FileDescriptor, to target: String) throws(SystemError) {
        let temporary = file.path
        do {
            try file.synchronize()
            try file.close()
            try FileSystem.rename(temporary, to: target)
        } catch {
            abandon(temporary)
            throw error
        }
        try FileSystem.synchronizeDirectory(FileSystem.split(target).directory)
    }

    /// Removes a temporary file that will not be committed (errors ignored: it may be gone already).
    public static func abandon(_ temporary: String) {
        _ = Syscalls.unlink(temporary)
    }

    /// Replaces `target` with `bytes`.
    public static func write(_ bytes: [UInt8], to target: String) throws(SystemError) {
        let file = try createTemporary(for: target)
        let written: SystemError? = bytes.withUnsafeBytes { buffer in
            do throws(SystemError) { try file.write(buffer) } catch { return error }
            return nil
        }
        if let written {
            abandon(file.path)
            throw written
        }
        try commit(file, to: target)
    }

    /// Why `target` cannot be written, checked before any work is done; nil when it plausibly can: it names
    /// a file (not a directory) in an existing directory this process may write to.
    public static func problem(writing target: String) -> String? {
        let (directory, name) = FileSystem.split(target)
        if name.isEmpty { return "the path names no file" }
        if FileStatus.of(target)?.kind == .directory { return "it is a directory" }
        guard FileStatus.of(directory)?.kind == .directory else { return "directory '\(directory)' does not exist" }
        guard FileStatus.isWritableDirectory(directory) else { return "directory '\(directory)' is not writable" }
        return nil
    }
}
