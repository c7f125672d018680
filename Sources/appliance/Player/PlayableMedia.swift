import Queue

/// Which files the player offers and opens: the one place that knows the playable types. The containers
/// AudioFile opens, judged by extension for listings (opening the file decides in the end): WAV, RF64, AIFF,
/// AIFF-C, CAF, and the compressed ones (issue 14) .flac, .ogg/.oga/.opus (Opus or FLAC in Ogg), .mp3,
/// .m4a/.mp4 (AAC or Apple Lossless) and .aac (ADTS), as `AudioFileType(pathExtension:)` names them.
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
