import Foundation

/// Whether a codec part of issue 14 has landed: its reader is no longer the contract's placeholder. Tests of
/// the routing through a codec (AudioFile, AudioFileStream, the tools) are enabled by this, with the reason
/// shown while the part is still a placeholder, and run by themselves once it lands.
public enum CodecParts {
    /// `file` under Sources/Queue/Codecs/, e.g. "FLAC/FLACFileReader.swift".
    public static func landed(_ file: String) -> Bool {
        let path = SourceTree.root() + "/Sources/Queue/Codecs/" + file
        guard let text = try? String(contentsOfFile: path, encoding: .utf8) else { return false }
        return !text.contains("Placeholder until")
    }

    public static var flac: Bool { landed("FLAC/FLACFileReader.swift") }
    public static var mp3: Bool { landed("MPEG/MP3FileReader.swift") }
    public static var opus: Bool { landed("Opus/OpusFileReader.swift") }
    public static var ffmpeg: Bool { landed("FFmpeg/FFmpegFileReader.swift") }
}
