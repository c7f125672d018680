import HAL
import Queue

/// The media directory (and the recordings directory, shown as `recordings/NAME`): the only places the
/// player reads from or removes in. A user's path is taken relative to them, and refused (`denied`) when it
/// is absolute, has a `..` in it, or resolves (realpath(3), symbolic links followed) to somewhere outside;
/// a link inside that points inside is fine. Every open goes through `resolve` again, so a link changed
/// after listing is checked when it is used.
struct MediaLibrary {
    let mediaDirectory: String
    let recordingsDirectory: String?
    /// Whether the file at this resolved path is being recorded now (the recorder's, asked by `remove`).
    var isRecording: (String) -> Bool = { _ in false }

    /// The name under which the recordings appear in listings and paths.
    static let recordingsPrefix = "recordings"

    init(mediaDirectory: String, recordingsDirectory: String?, isRecording: @escaping (String) -> Bool = { _ in false }) {
        self.mediaDirectory = mediaDirectory
        self.recordingsDirectory = recordingsDirectory
        self.isRecording = isRecording
    }

    /// A path checked to lie inside one of the directories.
    struct Resolved: Hashable, Sendable {
        /// How the user names it: relative to the media directory, or `recordings/NAME`; "" for the media
        /// directory itself.
        let name: String
        /// The real path (links resolved), for opening.
        let path: String
        let isDirectory: Bool
    }

    /// One line of `ls`.
    struct Entry: Hashable, Sendable {
        let name: String
        let isDirectory: Bool
        /// Seconds, for playable files whose header could be read.
        let duration: Double?
    }

    /// Checks `userPath` (nil or empty: the media directory) and resolves it.
    func resolve(_ userPath: String?) throws(PlayerError) -> Resolved {
        let text = userPath ?? ""
        if text.hasPrefix("/") {
            throw PlayerError(.denied, "'\(text)' is an absolute path; name a file relative to the media directory")
        }
        let parts = text.split(separator: "/", omittingEmptySubsequences: true).map(String.init).filter { $0 != "." }
        if parts.contains("..") {
            throw PlayerError(.denied, "'\(text)' climbs out with '..'; name a file inside the media directory")
        }
        var base = mediaDirectory
        var inside = parts
        if let recordings = recordingsDirectory, parts.first == Self.recordingsPrefix {
            base = recordings
            inside = Array(parts.dropFirst())
        }
        let root: String
        do throws(SystemError) { root = try FileSystem.resolvedPath(base) } catch {
            throw PlayerError(.notFound, "the directory \(base) is missing (\(error.reason))")
        }
        let joined = inside.isEmpty ? root : root + "/" + inside.joined(separator: "/")
        let real: String
        do throws(SystemError) { real = try FileSystem.resolvedPath(joined) } catch {
            if error.errno == .noSuchFile || error.errno == .notDirectory {
                throw PlayerError(.notFound, "no such file: '\(text)'")
            }
            throw PlayerError(.io, "'\(text)': \(error.reason)")
        }
        guard real == root || real.hasPrefix(root == "/" ? "/" : root + "/") else {
            throw PlayerError(.denied, "'\(text)' leads outside the media directory (a link to \(real))")
        }
        guard let status = FileStatus.of(real) else { throw PlayerError(.notFound, "no such file: '\(text)'") }
        return Resolved(name: parts.joined(separator: "/"), path: real, isDirectory: status.kind == .directory)
    }

    /// The playable files a `play` names: the file itself, or a folder's playable files in natural order
    /// (not its subfolders).
    func playlist(for userPath: String?) throws(PlayerError) -> [String] {
        let target = try resolve(userPath)
        guard target.isDirectory else {
            guard PlayableMedia.isPlayable(name: FileSystem.split(target.path).name) else {
                throw PlayerError(.usage, "'\(target.name)' is not a file the player opens (WAV, AIFF, AIFF-C or CAF)")
            }
            return [target.name]
        }
        let files = try entries(of: target, durations: false).filter { !$0.isDirectory }.map(\.name)
        guard !files.isEmpty else {
            let folder = target.name.isEmpty ? mediaDirectory : mediaDirectory + "/" + target.name
            throw PlayerError(.notFound, "no playable files in \(folder): put WAV, AIFF, CAF, FLAC, MP3, Opus or M4A files there")
        }
        return files
    }

    /// `ls [DIR]`: folders (with a trailing `/`) and playable files with their durations; without a folder,
    /// the media directory followed by the recordings.
    func list(_ userPath: String?) throws(PlayerError) -> [Entry] {
        let target = try resolve(userPath)
        guard target.isDirectory else {
            return [Entry(name: target.name, isDirectory: false, duration: Self.duration(of: target.path))]
        }
        var result = try entries(of: target)
        if (userPath ?? "").isEmpty, recordingsDirectory != nil,
           let recordings = try? resolve(Self.recordingsPrefix), recordings.path != target.path {
            result += (try? entries(of: recordings).filter { !$0.isDirectory }) ?? []
        }
        return result
    }

    /// `rm PATH`: removes a file (never a folder, never the file being recorded).
    func remove(_ userPath: String) throws(PlayerError) -> Resolved {
        let target = try resolve(userPath)
        if target.name.isEmpty || target.name == Self.recordingsPrefix || target.isDirectory {
            throw PlayerError(.usage, "'\(userPath)' is a folder; rm removes files only")
        }
        if isRecording(target.path) {
            throw PlayerError(.state, "'\(target.name)' is being recorded; stop the recording first")
        }
        do throws(SystemError) { try FileSystem.remove(target.path) } catch {
            throw PlayerError(.io, "'\(target.name)': \(error.reason)")
        }
        try? FileSystem.synchronizeDirectory(FileSystem.split(target.path).directory)
        return target
    }

    /// A folder's subfolders and playable files, each in natural order, named as the user names them.
    /// A folder's subfolders and playable files; `durations` opens each file for its length (listings only).
    private func entries(of directory: Resolved, durations: Bool = true) throws(PlayerError) -> [Entry] {
        guard let names = FileSystem.entries(in: directory.path) else {
            throw PlayerError(.io, "cannot list '\(directory.name)'")
        }
        let prefix = directory.name.isEmpty ? "" : directory.name + "/"
        var folders: [Entry] = [], files: [Entry] = []
        for name in names.sorted(by: NaturalOrder.areInIncreasingOrder) where !name.hasPrefix(".") {
            // Each entry is checked as a path of its own, so a link pointing out is left out of listings too.
            guard let entry = try? resolve(prefix + name) else { continue }
            if entry.isDirectory {
                if directory.name.isEmpty && name == Self.recordingsPrefix && recordingsDirectory != nil { continue }
                folders.append(Entry(name: entry.name + "/", isDirectory: true, duration: nil))
            } else if PlayableMedia.isPlayable(name: name) {
                files.append(Entry(name: entry.name, isDirectory: false, duration: durations ? Self.duration(of: entry.path) : nil))
            }
        }
        return folders + files
    }

    static func duration(of path: String) -> Double? {
        (try? AudioFile.open(path: path))?.duration
    }
}
