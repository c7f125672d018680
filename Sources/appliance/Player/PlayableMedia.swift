import Queue

/// Which files the player offers and opens: the one place that knows the playable types, so the compressed
/// formats of issue 14 are added here and nowhere else. Today: the containers AudioFile opens (WAV, RF64,
/// AIFF, AIFF-C, CAF), judged by extension for listings; opening the file decides in the end.
enum PlayableMedia {
    static func isPlayable(name: String) -> Bool {
        !name.hasPrefix(".") && type(of: name) != nil
    }

    /// The container a file name's extension names, if AudioFile opens it.
    static func type(of name: String) -> AudioFileType? {
        guard let dot = name.lastIndex(of: ".") else { return nil }
        return AudioFileType(pathExtension: String(name[name.index(after: dot)...]))
    }
}
