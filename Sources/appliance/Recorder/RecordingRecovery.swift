import HAL
import Queue

/// Start-up recovery (issue 13, Deliver 1): files a power cut left unfinished in the recordings directory are
/// repaired in place (`AudioFile.repair`: sizes set from what reached the disk, a partial last packet cut),
/// so they open and play; intact files are left alone.
enum RecordingRecovery {
    /// The containers a take is written in that a cut can leave unreadable: their sizes (WAV, AIFF, CAF) or
    /// STREAMINFO's length (FLAC) are set from what reached the disk. Ogg Opus is not among them: its pages
    /// delimit themselves, and a cut file reads to its last complete page as it is.
    static let repairable: Set<AudioFileType> = [.wave, .rf64, .aiff, .aifc, .caf, .flac]

    /// One line per recording recovered ("recovered NAME: N s"), and one per file that could not be, for the
    /// daemon to log and print.
    static func run(directory: String) -> [String] {
        var lines: [String] = []
        for name in FileSystem.entries(in: directory) ?? [] {
            guard let type = PlayableMedia.type(of: name), Self.repairable.contains(type) else { continue }
            let path = "\(directory)/\(name)"
            guard FileStatus.of(path).map({ $0.kind == .regular }) ?? false else { continue }
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
}
