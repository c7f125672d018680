import Queue

/// Which files the player offers and opens: the one place that knows the playable types, so the compressed
/// formats of issue 14 are added here and nowhere else. Today: the containers AudioFile opens (WAV, RF64,
/// AIFF, AIFF-C, CAF), judged by extension for listings; opening the file decides in the end.
enum PlayableMedia {
    static func isPlayable(name: String) -> Bool {
        guard !name.hasPrefix("."), let dot = name.lastIndex(of: ".") else { return false }
        return AudioFileType(pathExtension: String(name[name.index(after: dot)...])) != nil
    }
}
