import Codec8_24
import Foundation
import TestSupport
import Testing
@testable import Queue

/// A fresh directory per test, removed at the end.
final class TemporaryDirectory {
    let path: String
    init() {
        path = NSTemporaryDirectory() + "queue-tests-" + UUID().uuidString
        try? FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
    }
    deinit { try? FileManager.default.removeItem(atPath: path) }
    func file(_ name: String) -> String { path + "/" + name }
}

/// A deterministic test signal: a sine per channel plus seeded noise, peaking below full scale.
func testSignal(frames: Int, channels: Int, seed: UInt64 = 1) -> [Fixed824] {
    var noise = NoiseGenerator(seed: seed)
    var samples = [Fixed824](repeating: .zero, count: frames * channels)
    for f in 0..<frames {
        for c in 0..<channels {
            let sine = 0.6 * sin(2 * Double.pi * Double(f) * (0.01 + 0.013 * Double(c)))
            let n = Double(Int64(bitPattern: noise.next() >> 1) % 1_000_000) / 1_000_000 * 0.3
            samples[f * channels + c] = Fixed824(sine + n)
        }
    }
    return samples
}

/// Runs a tool, returns stdout; throws with stderr on failure.
@discardableResult
func run(_ tool: String, _ arguments: [String]) throws -> Data {
    try Subprocess.check("/usr/bin/" + tool, arguments)
}

struct ToolError: Error, CustomStringConvertible { let message: String; var description: String { message } }

/// Whether a reference tool is installed; a missing one fails the test that needs it (a reference check that
/// quietly does nothing would pass without checking anything). `make test` installs them (image/host-deps.sh).
func toolAvailable(_ tool: String) -> Bool {
    guard FileManager.default.isExecutableFile(atPath: "/usr/bin/" + tool) else {
        Issue.record("reference tool /usr/bin/\(tool) is missing: run image/host-deps.sh host")
        return false
    }
    return true
}

/// The samples sox decodes from `path`, as signed 32-bit (sox's internal format), interleaved.
func soxSamples(_ path: String) throws -> [Int32] {
    int32s(try run("sox", [path, "-t", "s32", "-e", "signed-integer", "-L", "-"]))
}

/// The samples ffmpeg decodes from `path`, as signed 32-bit little-endian, interleaved.
func ffmpegSamples(_ path: String) throws -> [Int32] {
    int32s(try run("ffmpeg", ["-v", "error", "-i", path, "-f", "s32le", "-"]))
}

func int32s(_ data: Data) -> [Int32] {
    data.withUnsafeBytes { raw in
        (0..<(raw.count / 4)).map { Int32(littleEndian: raw.loadUnaligned(fromByteOffset: 4 * $0, as: Int32.self)) }
    }
}

/// Every frame of a file, in 8.24, read in buffers of `chunk` frames.
func readAll(_ file: AudioFile, chunk: Int = 777) throws -> [Fixed824] {
    var result: [Fixed824] = []
    var buffer = [Fixed824](repeating: .zero, count: chunk * file.channelCount)
    while true {
        let n = try buffer.withUnsafeMutableBufferPointer { try file.readFrames(into: $0) }
        if n == 0 { break }
        result += buffer[0..<(n * file.channelCount)]
    }
    return result
}

func writeFile(_ path: String, type: AudioFileType, format: StreamFormat, samples: [Fixed824],
               options: AudioFileWriteOptions = AudioFileWriteOptions(), chunk: Int = 1000) throws {
    let file = try AudioFile.create(path: path, type: type, format: format, options: options)
    let step = chunk * format.channelsPerFrame
    var i = 0
    while i < samples.count {
        let end = min(samples.count, i + step)
        try samples[i..<end].withUnsafeBufferPointer { try file.writeFrames($0) }
        i = end
    }
    try file.close()
}

/// Largest absolute difference between 8.24 raw values (or between sox s32 and 8.24 scaled up by 2^7).
func maxDifference(_ a: [Int32], _ b: [Int32]) -> Int64 {
    zip(a, b).map { abs(Int64($0) - Int64($1)) }.max() ?? 0
}

extension Array where Element == Fixed824 {
    var raws: [Int32] { map(\.raw) }
    /// As sox's 32-bit samples (8.24 full scale is 1 << 24, sox's 1 << 31).
    var asSox: [Int32] { map { Int32(clamping: Int64($0.raw) << 7) } }
}

/// The `AudioFileError` `body` throws; records an issue when it throws nothing or something else.
/// (Swift Testing's `#expect(throws:)` returns the error only from Swift 6.1; the arm build is 6.0.3.)
func thrownAudioFileError(sourceLocation: SourceLocation = #_sourceLocation, _ body: () throws -> Void) -> AudioFileError? {
    do {
        try body()
        Issue.record("expected an AudioFileError, nothing was thrown", sourceLocation: sourceLocation)
    } catch let error as AudioFileError {
        return error
    } catch {
        Issue.record("expected an AudioFileError, got \(error)", sourceLocation: sourceLocation)
    }
    return nil
}
