import Codec8_24
import Foundation
import TestSupport
import Testing
@testable import Queue

/// MP3 files made at test time: sines by sox, encoded by lame (LAME 3.100 on Debian), and the ways the tests
/// read them back.
enum MP3Fixtures {
    /// A 16-bit sine of `frames` frames made by sox (`synth ... sine`), as a WAV at `path`.
    static func sine(_ path: String, frames: Int, rate: Int = 44100, channels: Int = 2, frequency: Int = 440) throws {
        // The rate and channels go before -n: synth counts its samples at the input's rate.
        try ReferenceTool.run("sox", ["-r", "\(rate)", "-c", "\(channels)", "-n", "-b", "16", path,
                                      "synth", "\(frames)s", "sine", "\(frequency)", "vol", "0.5"])
    }

    /// `wav` encoded by lame with `options` into `mp3`.
    static func encode(_ wav: String, _ mp3: String, _ options: [String]) throws {
        try ReferenceTool.run("lame", ["--quiet"] + options + [wav, mp3])
    }

    /// A sox sine encoded by lame with `options`: the MP3's path (in `directory`, under a fresh name).
    static func lameSine(_ directory: TemporaryDirectory, frames: Int, rate: Int = 44100, channels: Int = 2,
                         frequency: Int = 440, _ options: [String]) throws -> String {
        let name = "sine-\(rate)-\(channels)-" + UUID().uuidString
        let wav = directory.file(name + ".wav"), mp3 = directory.file(name + ".mp3")
        try sine(wav, frames: frames, rate: rate, channels: channels, frequency: frequency)
        try encode(wav, mp3, options)
        return mp3
    }

    static func open(_ path: String) throws -> MP3FileReader {
        try MP3FileReader(LibraryInput(FileDescriptor.open(path, writable: false)))
    }

    /// Every frame `reader` gives, as 8.24 raw values, read `chunk` frames at a time; the error that ended the
    /// reading, if one did.
    static func decode(_ reader: MP3FileReader, chunk: Int = 1000) -> (samples: [Int32], error: AudioFileError?) {
        let (samples, error) = readCompressed(reader, chunk: chunk)
        return (samples.map(\.raw), error)
    }

    /// FFmpeg's decode of `path` (which applies the LAME tag's delay and padding) in 8.24: its signed 32-bit
    /// samples shifted right by 7, as `Fixed824(int32:)` does, less the rounding.
    static func ffmpeg824(_ path: String) throws -> [Int32] {
        try ReferenceTool.ffmpegSamples(path).map { $0 >> 7 }
    }

    /// The largest difference between two signals over their common length.
    static func largestDifference(_ a: [Int32], _ b: [Int32]) -> Int64 {
        var largest: Int64 = 0
        for i in 0..<min(a.count, b.count) { largest = max(largest, abs(Int64(a[i]) - Int64(b[i]))) }
        return largest
    }

    /// The largest step between neighbouring frames of channel `channel` in `from ..< to`.
    static func largestStep(_ samples: [Int32], channels: Int, channel: Int = 0, from: Int = 1, to: Int? = nil) -> Int64 {
        let end = to ?? samples.count / channels
        var largest: Int64 = 0
        for f in max(from, 1)..<end {
            largest = max(largest, abs(Int64(samples[f * channels + channel]) - Int64(samples[(f - 1) * channels + channel])))
        }
        return largest
    }

    /// The packet sizes ffprobe reports for `path` (`-show_packets`), the LAME tag's frame excluded by FFmpeg.
    static func ffprobePacketSizes(_ path: String) throws -> [Int] {
        let text = String(decoding: try ReferenceTool.run("ffprobe", ["-v", "error", "-show_entries", "packet=size", "-of", "csv=p=0", path]), as: UTF8.self)
        // One "size" per line (some followed by a comma and side data), blank lines between.
        return text.split(separator: "\n").compactMap { Int($0.prefix { $0.isNumber }) }
    }
}
