import ArgumentParser
import Queue

/// `appliance info FILE`: what is in an audio file, like afinfo.
struct InfoCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "info", abstract: "Show an audio file's formats, duration, channels, packets or codec details, markers and tags.")

    @Argument(help: "A WAV, RF64, AIFF, AIFF-C, CAF, FLAC, Ogg (Opus, FLAC), MP3, AAC (ADTS) or M4A file.")
    var file: String

    func run() throws {
        let audio = try AudioFile.open(path: file)
        for line in Self.describe(audio) { print(line) }
    }

    static func describe(_ audio: AudioFile) -> [String] {
        let format = audio.dataFormat
        var lines = ["File:           \(audio.path)",
                     "File type:      \(audio.fileType)",
                     "Data format:    \(format)"]
        if let layout = audio.channelLayout { lines.append("Channel layout: \(layout)") }
        let seconds = formatFixed(audio.duration, decimals: 3)
        lines.append("Duration:       \(seconds) s (\(audio.frameCount) frames)")
        if let info = audio.compressedInfo {
            lines += describe(info)
        } else {
            lines.append("Packets:        \(audio.packetCount) of \(format.bytesPerPacket) bytes, \(format.framesPerPacket) frames each")
            lines.append("Audio data:     \(audio.audioDataByteCount) bytes at offset \(audio.dataOffset)")
        }
        for marker in audio.markers {
            let length = marker.frameLength.map { ", \($0) frames long" + (marker.isLoop ? ", loop" : "") } ?? ""
            lines.append("Marker:         frame \(marker.framePosition)\(length) \"\(marker.name)\"")
        }
        // A library's encoder shows once, on its own line (FLAC's vendor string is also its "software").
        for (key, value) in audio.metadata.entries where !(key == "software" && value == audio.compressedInfo?.encoder) {
            lines.append((key.prefix(1).uppercased() + key.dropFirst() + ":").rightPadded(to: 16) + value)
        }
        lines += describeTags(audio.metadata)
        return lines
    }

    /// The codec's side of a compressed file: what the library reports.
    static func describe(_ info: CompressedFileInfo) -> [String] {
        let format = info.format
        var lines = ["Codec:          \(format.formatID)",
                     "Sample rate:    \(Int(format.sampleRate.rounded())) Hz",
                     "Channels:       \(format.channelsPerFrame)"]
        if format.bitsPerChannel > 0 { lines.append("Bit depth:      \(format.bitsPerChannel) bits") }
        if let bitRate = info.bitRate { lines.append("Bit rate:       \(formatFixed(Double(bitRate) / 1000, decimals: 1)) kb/s") }
        lines.append("Encoder delay:  \(info.encoderDelay) frames")
        lines.append("Padding:        \(info.padding) frames")
        if let encoder = info.encoder { lines.append("Encoder:        \(encoder)") }
        return lines
    }

    /// The tags WAV, AIFF and CAF do not carry: album, track, ReplayGain.
    static func describeTags(_ metadata: AudioFileMetadata) -> [String] {
        var lines: [String] = []
        if let album = metadata.album { lines.append("Album:          \(album)") }
        if let number = metadata.trackNumber {
            lines.append("Track:          \(number)" + (metadata.trackTotal.map { "/\($0)" } ?? ""))
        }
        let gain = metadata.replayGain
        func decibels(_ value: Double?) -> String? { value.map { formatDecibels($0, decimals: 2) } }
        func peak(_ value: Double?) -> String? { value.map { formatFixed($0, decimals: 6) } }
        if let text = [decibels(gain.trackGain), peak(gain.trackPeak).map { "peak \($0)" }].compactMap({ $0 }).joinedIfAny() {
            lines.append("ReplayGain track: \(text)")
        }
        if let text = [decibels(gain.albumGain), peak(gain.albumPeak).map { "peak \($0)" }].compactMap({ $0 }).joinedIfAny() {
            lines.append("ReplayGain album: \(text)")
        }
        return lines
    }
}

extension [String] {
    /// The strings joined by ", ", or nil when there are none.
    func joinedIfAny() -> String? { isEmpty ? nil : joined(separator: ", ") }
}
