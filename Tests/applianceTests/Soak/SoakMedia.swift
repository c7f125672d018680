import Foundation
import TestSupport

/// The soak's media directory: a few short tracks, made by sox at test time, so a track ends (and the
/// playlist moves on, repeats or stops) within the seconds the soak renders while playing. Two formats and
/// rates (a queue boundary between them), a folder played as a gapless album, a FLAC among WAVs.
enum SoakMedia {
    /// (path in the media directory, sox arguments after the output's format options)
    static let tracks: [(path: String, format: [String], synth: [String])] = [
        ("tone-a.wav", ["-r", "48000", "-c", "2", "-b", "16"], ["synth", "4", "sine", "440", "gain", "-12"]),
        ("tone-b.wav", ["-r", "44100", "-c", "1", "-b", "16"], ["synth", "3", "sine", "660", "gain", "-12"]),
        ("album/01 first.wav", ["-r", "48000", "-c", "2", "-b", "24"], ["synth", "2.5", "sine", "220", "gain", "-12"]),
        ("album/02 second.wav", ["-r", "48000", "-c", "2", "-b", "24"], ["synth", "2.5", "sine", "330", "gain", "-12"]),
        ("album/03 third.flac", ["-r", "48000", "-c", "2", "-b", "16"], ["synth", "3", "sine", "550", "gain", "-12"]),
    ]

    static var files: [String] { tracks.map(\.path) }

    static func write(into media: String) throws {
        try FileManager.default.createDirectory(atPath: media + "/album", withIntermediateDirectories: true)
        for track in tracks {
            try ReferenceTool.run("sox", ["-n"] + track.format + [media + "/" + track.path] + track.synth)
        }
    }
}
