import HAL
import Queue

/// Start-up recovery (issue 13, Deliver 1): files a power cut left unfinished in the recordings directory are
/// repaired in place (`AudioFile.repair`: sizes set from what reached the disk, a partial last packet or page
/// cut), so they open and play; intact files are left alone. A take cut before any of its audio reached the
/// disk (its header only, or nothing) holds nothing to play and never will: it is removed, and said so
/// (issue 16: a kill just after `record` left an Ogg Opus file of headers only, which no player opens, and a
/// file that cannot be recovered would be reported again at every start).
enum RecordingRecovery {
    /// The containers a take is written in that a cut can leave unfinished: their sizes (WAV, AIFF, CAF),
    /// STREAMINFO's length (FLAC) or the end-of-stream page (Ogg Opus) are set from what reached the disk.
    static let repairable: Set<AudioFileType> = [.wave, .rf64, .aiff, .aifc, .caf, .flac, .ogg]
    /// Fragmented M4A (an empty index up front, a fragment per commit) delimits itself: it reads to its last
    /// complete fragment as it is; one cut before its first fragment (the empty index only) holds no audio.
    static let selfDelimiting: Set<AudioFileType> = [.m4a]

    /// One line per recording recovered ("recovered NAME: N s") or removed, and one per file that could not
    /// be, for the daemon to log and print.
    static func run(directory: String) -> [String] {
        var lines: [String] = []
        for name in FileSystem.entries(in: directory) ?? [] {
            guard let type = PlayableMedia.type(of: name),
                  Self.repairable.contains(type) || Self.selfDelimiting.contains(type) else { continue }
            let path = "\(directory)/\(name)"
            guard FileStatus.of(path).map({ $0.kind == .regular }) ?? false else { continue }
            do {
                guard Self.repairable.contains(type) else {
                    let file = try AudioFile.open(path: path)
                    let frames = file.frameCount
                    try file.close()
                    if frames == 0 { lines.append(removeCutBeforeAudio(path, name: name)) }
                    continue
                }
                let report = try AudioFile.repair(path: path, typeHint: type)
                guard !report.wasIntact else { continue }
                // Cut after its header but before a whole frame: as empty as one cut inside the header (and an
                // empty AIFF is one sox refuses: "Missing SSND chunk").
                if report.frameCount == 0 {
                    lines.append(removeCutBeforeAudio(path, name: name))
                    continue
                }
                let seconds = Double(report.frameCount) / report.dataFormat.sampleRate
                lines.append("recovered \(name): \((seconds * 10).rounded() / 10) s")
            } catch let error as AudioFileError where error.kind == .truncated {
                lines.append(removeCutBeforeAudio(path, name: name))
            } catch {
                lines.append("cannot recover \(name): \(error)")
            }
        }
        return lines
    }

    /// Removes a take cut before its first audio; the line saying so.
    static func removeCutBeforeAudio(_ path: String, name: String) -> String {
        do { try FileSystem.remove(path) } catch { return "cannot remove \(name), cut before any audio: \(error)" }
        return "removed \(name): cut before any audio reached the disk"
    }
}
