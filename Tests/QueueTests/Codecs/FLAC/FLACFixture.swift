import Codec8_24
import Foundation
import TestSupport
import Testing
@testable import Queue

/// A FLAC file made at test time: sox's sine plus white noise, encoded by the `flac` tool, with what the
/// reference tools say of it: `flac -d`'s samples (read through sox: 16-bit v as v << 16, 24-bit as v << 8,
/// which is `Fixed824.int32` of an exact 8.24 sample) and `flac -a`'s frame list (offsets, sizes, block sizes).
struct FLACFixture {
    let directory = TemporaryDirectory()
    let rate: Int, channels: Int, bits: Int
    let ogg: Bool
    var wav: String { directory.file("signal.wav") }
    var path: String { directory.file(ogg ? "signal.oga" : "signal.flac") }
    /// `flac -d`'s decoding.
    let reference: [Int32]
    /// `flac -a`'s frames (native FLAC only): byte offset, byte size, block size.
    let frames: [(offset: Int64, bytes: Int64, blockSize: Int)]

    init(rate: Int = 44100, channels: Int = 2, bits: Int = 16, seconds: Double = 1, level: Int = 5, ogg: Bool = false) throws {
        self.rate = rate
        self.channels = channels
        self.bits = bits
        self.ogg = ogg
        let wav = directory.file("signal.wav"), path = directory.file(ogg ? "signal.oga" : "signal.flac")
        try ReferenceTool.run("sox", ["-R", "-n", "-r", "\(rate)", "-c", "\(channels)", "-b", "\(bits)", wav,
                                      "synth", "\(seconds)", "sine", "440", "synth", "\(seconds)", "whitenoise", "mix", "gain", "-4"])
        try ReferenceTool.run("flac", ["-s", "-f", "-\(level)"] + (ogg ? ["--ogg"] : []) + ["-o", path, wav])
        let decoded = directory.file("decoded.wav")
        try ReferenceTool.run("flac", ["-d", "-s", "-f", "-o", decoded, path])
        reference = try soxSamples(decoded)
        frames = ogg ? [] : try FLACFixture.analysis(path, directory: directory)
    }

    /// `flac -a`'s frame lines: "frame=N offset=O bits=B blocksize=S ...".
    static func analysis(_ path: String, directory: TemporaryDirectory) throws -> [(offset: Int64, bytes: Int64, blockSize: Int)] {
        let out = directory.file("analysis.txt")
        try ReferenceTool.run("flac", ["-s", "-f", "-a", "-o", out, path])
        let text = try String(contentsOfFile: out, encoding: .utf8)
        return text.split(separator: "\n").filter { $0.hasPrefix("frame=") }.map { line in
            var fields: [String: Int64] = [:]
            for part in line.split(separator: "\t") {
                let kv = part.split(separator: "=", maxSplits: 1)
                if kv.count == 2, let v = Int64(kv[1]) { fields[String(kv[0])] = v }
            }
            return (fields["offset"] ?? -1, (fields["bits"] ?? 0) / 8, Int(fields["blocksize"] ?? 0))
        }
    }

    func open() throws -> FLACFileReader { try openFLAC(path, ogg: ogg) }

    /// Rewrites the file without `cut`'s frames (indices into `frames`, native FLAC): frames lost from a stream.
    func cutFrames(_ cut: Range<Int>) throws {
        let bytes = try Data(contentsOf: URL(fileURLWithPath: path))
        let end = cut.upperBound < frames.count ? Int(frames[cut.upperBound].offset) : bytes.count
        try (bytes.prefix(Int(frames[cut.lowerBound].offset)) + bytes.suffix(from: end)).write(to: URL(fileURLWithPath: path))
    }
}

func openFLAC(_ path: String, ogg: Bool = false) throws -> FLACFileReader {
    try FLACFileReader(LibraryInput(FileDescriptor.open(path, writable: false)), ogg: ogg)
}

/// Every sample a reader gives until the end (or the first error, returned with what came before it), as
/// 32-bit values (`Fixed824.int32`, sox's scale).
func decodeFLAC(_ reader: FLACFileReader, chunk: Int = 1000) -> (samples: [Int32], error: AudioFileError?) {
    let channels = reader.info.format.channelsPerFrame
    var samples: [Int32] = []
    var buffer = [Fixed824](repeating: .zero, count: chunk * channels)
    while true {
        do {
            let n = try buffer.withUnsafeMutableBufferPointer { try reader.read(into: $0) }
            if n == 0 { return (samples, nil) }
            samples += buffer[0..<(n * channels)].map(\.int32)
        } catch let error as AudioFileError {
            return (samples, error)
        } catch {
            return (samples, AudioFileError(.io, "\(error)"))
        }
    }
}

/// `metaflac --show-total-samples`.
func metaflacTotalSamples(_ path: String) throws -> Int64 {
    let text = String(decoding: try ReferenceTool.run("metaflac", ["--show-total-samples", path]), as: UTF8.self)
    return Int64(text.trimmingCharacters(in: .whitespacesAndNewlines)) ?? -1
}
