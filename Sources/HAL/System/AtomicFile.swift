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

    /// Creates the temporary file for `target`. One left behind under the same name is a leftover of an
    /// earlier run that was cut off before its rename (an appliance boots the same way each time, so its
    /// daemon often gets the same pid again): it held nothing anyone reads, so it is removed and the name
    /// taken again, or every later write of `target` would fail until someone deleted it by hand. A process
    /// writes a given target from one place at a time, so the name is never another writer's live file.
    public static func createTemporary(for target: String) throws(SystemError) -> FileDescriptor {
        let temporary = temporaryPath(for: target)
        do throws(SystemError) {
            return try FileDescriptor(opening: temporary, .createNew)
        } catch where error.errno == .exists {
            abandon(temporary)
            return try FileDescriptor(opening: temporary, .createNew)
        }
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
