import HAL
import Queue

/// The media directory (and the recordings directory, shown as `recordings/NAME`): the only places the
/// player reads from or removes in. A user's path is taken relative to them and refused (`denied`) when it is
/// absolute, has a `..` in it, or holds a control character; then the kernel opens it beneath the directory
/// (`ConfinedPath`: openat2 with RESOLVE_BENEATH), refusing any link that leads out, any absolute link (even
/// one pointing back inside: links inside must be relative), and a link swapped in after a check, since the
/// check is the open. What is then read, listed or removed is that opened entry, never the name again.
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
        try confine(userPath).resolved
    }

    /// Checks `userPath` and opens it beneath its directory: what it is, and the entry itself, held open
    /// (read it through `entry.openPath`, remove it with `entry.removeEntry()`).
    func confine(_ userPath: String?) throws(PlayerError) -> (resolved: Resolved, entry: ConfinedPath) {
        let text = userPath ?? ""
        let shown = Self.shown(text)
        if text.unicodeScalars.contains(where: { $0.value < 0x20 || $0.value == 0x7F }) {
            throw PlayerError(.denied, "'\(shown)' holds a control character; name a file by its printable name")
        }
        if text.hasPrefix("/") {
            throw PlayerError(.denied, "'\(shown)' is an absolute path; name a file relative to the media directory")
        }
        let parts = text.split(separator: "/", omittingEmptySubsequences: true).map(String.init).filter { $0 != "." }
        if parts.contains("..") {
            throw PlayerError(.denied, "'\(shown)' climbs out with '..'; name a file inside the media directory")
        }
        var base = mediaDirectory
        var inside = parts
        if let recordings = recordingsDirectory, parts.first == Self.recordingsPrefix {
            base = recordings
            inside = Array(parts.dropFirst())
        }
        let entry: ConfinedPath
        do throws(SystemError) { entry = try ConfinedPath.open(inside.joined(separator: "/"), beneath: base) } catch {
            switch error.errno {
            case .crossDevice:
                throw PlayerError(.denied, "'\(shown)' leads outside the media directory (a link pointing out, or an absolute link: links inside must be relative)")
            case .noSuchFile, .notDirectory:
                if error.operation == "open the directory" { throw PlayerError(.notFound, "the directory \(base) is missing (\(error.reason))") }
                throw PlayerError(.notFound, "no such file: '\(shown)'")
            case .nameTooLong:
                throw PlayerError(.usage, "'\(shown)' is too long a name (at most 255 bytes a name)")
            case .tooManyLinks:
                throw PlayerError(.denied, "'\(shown)' goes through too many links")
            default:
                throw PlayerError(.io, "'\(shown)': \(error.reason)")
            }
        }
        let resolved = Resolved(name: parts.joined(separator: "/"), path: entry.realPath, isDirectory: entry.status.kind == .directory)
        return (resolved, entry)
    }

    /// A user's text as messages quote it: at most 80 characters, so an ERR line stays one readable line.
    static func shown(_ text: String) -> String {
        text.count > 80 ? String(text.prefix(80)) + "..." : text
    }

    /// Opens the audio file `userPath` names, through the entry `confine` opened (not by its name again).
    func openAudio(_ userPath: String) throws(PlayerError) -> (Resolved, AudioFile) {
        let (resolved, entry) = try confine(userPath)
        defer { entry.close() }
        guard !resolved.isDirectory else { throw PlayerError(.usage, "'\(Self.shown(userPath))' is a folder") }
        do {
            let type = AudioFileType(pathExtension: String(FileSystem.split(resolved.path).name.split(separator: ".").last ?? ""))
            return (resolved, try AudioFile.open(path: entry.openPath, typeHint: type))
        } catch {
            throw PlayerError(.io, "cannot open '\(Self.shown(userPath))': \(Self.replacingDescriptorPath(in: "\(error)", entry, resolved))")
        }
    }

    /// An error's text with the /proc/self/fd path it was opened by replaced by the file's own.
    private static func replacingDescriptorPath(in text: String, _ entry: ConfinedPath, _ resolved: Resolved) -> String {
        text.replacing(entry.openPath, with: resolved.path)
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
        let (target, entry) = try confine(userPath)
        if target.name.isEmpty || target.name == Self.recordingsPrefix || target.isDirectory {
            throw PlayerError(.usage, "'\(userPath)' is a folder; rm removes files only")
        }
        if isRecording(target.path) {
            throw PlayerError(.state, "'\(target.name)' is being recorded; stop the recording first")
        }
        do throws(SystemError) { try entry.removeEntry() } catch {
            throw PlayerError(.io, "'\(target.name)': \(error.reason)")
        }
        try? FileSystem.synchronizeDirectory(FileSystem.split(target.path).directory)
        return target
    }

    /// A folder's subfolders and playable files, each in natural order, named as the user names them.
    /// A folder's subfolders and playable files; `durations` opens each file for its length (listings only).
    private func entries(of directory: Resolved, durations: Bool = true) throws(PlayerError) -> [Entry] {
        let (_, entry) = try confine(directory.name)
        guard let names = FileSystem.entries(in: entry.openPath) else {
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
