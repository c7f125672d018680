import HAL
import Queue

/// Start-up recovery (issue 13, Deliver 1): files a power cut left unfinished in the recordings directory are
/// repaired in place (`AudioFile.repair`: sizes set from what reached the disk, a partial last packet cut),
/// so they open and play; intact files are left alone. A take in a self-delimiting container cut before its
/// first audio page reached the disk holds nothing to play and is removed, said as such (issue 16: a power cut
/// just after `record` left an Ogg Opus file of headers only, which no player opens).
enum RecordingRecovery {
    /// The containers a take is written in that a cut can leave unreadable: their sizes (WAV, AIFF, CAF) or
    /// STREAMINFO's length (FLAC) are set from what reached the disk. Ogg Opus is not among them: its pages
    /// delimit themselves, and a cut file reads to its last complete page as it is.
    static let repairable: Set<AudioFileType> = [.wave, .rf64, .aiff, .aifc, .caf, .flac]
    /// The take containers whose pages (Ogg) or fragments (fragmented M4A) delimit themselves: read as they are.
    static let selfDelimiting: Set<AudioFileType> = [.ogg, .m4a]

    /// One line per recording recovered ("recovered NAME: N s"), and one per file that could not be, for the
    /// daemon to log and print.
    static func run(directory: String) -> [String] {
        var lines: [String] = []
        for name in FileSystem.entries(in: directory) ?? [] {
            guard let type = PlayableMedia.type(of: name),
                  Self.repairable.contains(type) || Self.selfDelimiting.contains(type) else { continue }
            let path = "\(directory)/\(name)"
            guard FileStatus.of(path).map({ $0.kind == .regular }) ?? false else { continue }
            guard Self.repairable.contains(type) else {
                if let line = removeIfCutBeforeAudio(path, name: name) { lines.append(line) }
                continue
            }
            do {
                let report = try AudioFile.repair(path: path, typeHint: type)
                guard !report.wasIntact else { continue }
                let seconds = Double(report.frameCount) / report.dataFormat.sampleRate
                lines.append("recovered \(name): \((seconds * 10).rounded() / 10) s")
            } catch {
                lines.append("cannot recover \(name): \(error)")
            }
        }
        return lines
    }

    /// Removes a self-delimiting take that opens as cut before its first audio (headers only); the line saying
    /// so, or nil when the file opens (it plays to its last complete page or fragment).
    static func removeIfCutBeforeAudio(_ path: String, name: String) -> String? {
        do {
            let file = try AudioFile.open(path: path)
            try? file.close()
            return nil
        } catch let error as AudioFileError where error.kind == .truncated {
            do { try FileSystem.remove(path) } catch { return "cannot recover \(name): \(error)" }
            return "removed \(name): cut before any audio reached the disk"
        } catch {
            return "cannot recover \(name): \(error)"
        }
    }
}
