import ArgumentParser
import Queue

/// `appliance info FILE`: what is in an audio file, like afinfo.
struct InfoCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "info", abstract: "Show an audio file's formats, duration, channels, packets, markers and metadata.")

    @Argument(help: "A WAV, RF64, AIFF, AIFF-C or CAF file.")
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
        lines.append("Packets:        \(audio.packetCount) of \(format.bytesPerPacket) bytes, \(format.framesPerPacket) frames each")
        lines.append("Audio data:     \(audio.audioDataByteCount) bytes at offset \(audio.dataOffset)")
        for marker in audio.markers {
            let length = marker.frameLength.map { ", \($0) frames long" + (marker.isLoop ? ", loop" : "") } ?? ""
            lines.append("Marker:         frame \(marker.framePosition)\(length) \"\(marker.name)\"")
        }
        for (key, value) in audio.metadata.entries {
            lines.append((key.prefix(1).uppercased() + key.dropFirst() + ":").rightPadded(to: 16) + value)
        }
        return lines
    }
}
