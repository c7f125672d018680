import Foundation
import TestSupport
@testable import Codec8_24

/// Helpers for the codec tests: a seeded generator, the reference tools (sox, ffmpeg), and just enough of
/// the WAV and CAF containers to hand encoded bytes to those tools and read theirs back. The real file
/// parsers live elsewhere; these stay minimal on purpose.
enum CodecTestSupport {
    // MARK: Deterministic randomness

    typealias SplitMix64 = NoiseGenerator

    /// Splits `total` into consecutive group sizes of 0...`maxGroup` (zero-size calls included on purpose).
    static func randomGroups(total: Int, maxGroup: Int, seed: UInt64) -> [Int] {
        var generator = SplitMix64(seed: seed)
        var groups: [Int] = []
        var left = total
        while left > 0 {
            let size = min(left, Int.random(in: 0...maxGroup, using: &generator))
            groups.append(size)
            left -= size
        }
        return groups
    }

    // MARK: Test signals

    /// Interleaved 16-bit test audio: per channel a sum of sines, a burst of clipped full-scale square wave
    /// (to drive the step index to its top and the predictor into its clamps), and seeded noise.
    static func testSignal(frames: Int, channels: Int, sampleRate: Double, seed: UInt64) -> [Int16] {
        var generator = SplitMix64(seed: seed)
        var samples = [Int16](repeating: 0, count: frames * channels)
        for channel in 0..<channels {
            let f1 = 440.0 * Double(channel + 1)
            let f2 = 1000.0 + 330.0 * Double(channel)
            for frame in 0..<frames {
                let t = Double(frame) / sampleRate
                var value = 0.45 * sin(2 * .pi * f1 * t) + 0.25 * sin(2 * .pi * f2 * t)
                let position = Double(frame) / Double(frames)
                if position > 0.40 && position < 0.48 {
                    value = sin(2 * .pi * 180 * t) >= 0 ? 1.3 : -1.3   // clipped square burst
                }
                if position > 0.70 && position < 0.80 {
                    value += 0.3 * (Double(generator.next() % 20_001) / 10_000 - 1)
                }
                samples[frame * channels + channel] = Int16(max(-32768, min(32767, (value * 32767).rounded())))
            }
        }
        return samples
    }

    /// Signal-to-noise ratio of `decoded` against `reference`, in dB, over all samples or the given fraction
    /// of them (the test signal's first 40% is plain sines).
    static func snr(reference: [Int16], decoded: [Int16], fraction: ClosedRange<Double> = 0...1) -> Double {
        precondition(reference.count == decoded.count)
        let range = Int(fraction.lowerBound * Double(reference.count))..<Int(fraction.upperBound * Double(reference.count))
        var signal = 0.0
        var noise = 0.0
        for (r, d) in zip(reference[range], decoded[range]) {
            signal += Double(r) * Double(r)
            noise += (Double(r) - Double(d)) * (Double(r) - Double(d))
        }
        return 10 * log10(signal / max(noise, 1e-9))
    }

    // MARK: Reference tools

    struct ToolError: Error, CustomStringConvertible {
        let description: String
    }

    /// The path of `name` on PATH, or an error saying how to install it: tests that need the reference
    /// tools fail loudly instead of skipping.
    static func toolPath(_ name: String) throws -> String {
        let path = ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin:/bin"
        for directory in path.split(separator: ":") {
            let candidate = "\(directory)/\(name)"
            if FileManager.default.isExecutableFile(atPath: candidate) { return candidate }
        }
        throw ToolError(description: """
            reference tool '\(name)' is not installed: run `image/host-deps.sh host` \
            (or `apt-get install -y sox ffmpeg`) before running these tests
            """)
    }

    /// Runs a reference tool and fails with its stderr if it exits non-zero.
    static func run(_ tool: String, _ arguments: [String]) throws {
        try Subprocess.check(try toolPath(tool), arguments)
    }

    /// sox decodes any file it reads to raw 16-bit little-endian samples.
    static func soxDecode(_ input: URL) throws -> [Int16] {
        let output = input.deletingPathExtension().appendingPathExtension("sox.raw")
        try run("sox", [input.path, "-t", "raw", "-e", "signed-integer", "-b", "16", "-L", output.path])
        return try readRawInt16(output)
    }

    /// ffmpeg decodes any file it reads to raw 16-bit little-endian samples.
    static func ffmpegDecode(_ input: URL) throws -> [Int16] {
        let output = input.deletingPathExtension().appendingPathExtension("ffmpeg.raw")
        try run("ffmpeg", ["-nostdin", "-loglevel", "error", "-y", "-i", input.path,
                           "-f", "s16le", "-c:a", "pcm_s16le", output.path])
        return try readRawInt16(output)
    }

    static func readRawInt16(_ url: URL) throws -> [Int16] {
        let bytes = [UInt8](try Data(contentsOf: url))
        return stride(from: 0, to: bytes.count - 1, by: 2).map {
            Int16(bitPattern: UInt16(bytes[$0]) | UInt16(bytes[$0 + 1]) << 8)
        }
    }

    /// A fresh directory for one test's files.
    static func temporaryDirectory(_ name: String) throws -> URL {
        let url = FileManager.default.temporaryDirectory
            .appendingPathComponent("codec8_24-\(name)-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
        return url
    }

    // MARK: Minimal WAV

    /// What the tests need from a WAV file: the fmt fields, the fact count, and the data bytes.
    struct WaveFile {
        var formatTag: UInt16
        var channelCount: Int
        var sampleRate: Int
        var blockAlign: Int
        var bitsPerSample: Int
        var samplesPerBlock: Int?   // from the fmt extension of format 0x11
        var factFrames: Int?
        var data: [UInt8]
    }

    static func parseWave(_ url: URL) throws -> WaveFile {
        let bytes = [UInt8](try Data(contentsOf: url))
        func le16(_ at: Int) -> Int { Int(bytes[at]) | Int(bytes[at + 1]) << 8 }
        func le32(_ at: Int) -> Int { le16(at) | le16(at + 2) << 16 }
        func tag(_ at: Int) -> String { String(decoding: bytes[at..<at + 4], as: UTF8.self) }
        guard bytes.count >= 12, tag(0) == "RIFF", tag(8) == "WAVE" else {
            throw ToolError(description: "\(url.lastPathComponent) is not a RIFF WAVE file")
        }
        var wave = WaveFile(formatTag: 0, channelCount: 0, sampleRate: 0, blockAlign: 0, bitsPerSample: 0,
                            samplesPerBlock: nil, factFrames: nil, data: [])
        var offset = 12
        var sawFormat = false
        var sawData = false
        while offset + 8 <= bytes.count {
            let id = tag(offset)
            let size = le32(offset + 4)
            let body = offset + 8
            switch id {
            case "fmt ":
                sawFormat = true
                wave.formatTag = UInt16(le16(body))
                wave.channelCount = le16(body + 2)
                wave.sampleRate = le32(body + 4)
                wave.blockAlign = le16(body + 12)
                wave.bitsPerSample = le16(body + 14)
                if size >= 20 && le16(body + 16) >= 2 { wave.samplesPerBlock = le16(body + 18) }
            case "fact":
                wave.factFrames = le32(body)
            case "data":
                sawData = true
                wave.data = Array(bytes[body..<min(body + size, bytes.count)])
            default:
                break
            }
            offset = body + size + (size & 1)
        }
        guard sawFormat, sawData else {
            throw ToolError(description: "\(url.lastPathComponent) lacks a fmt or data chunk")
        }
        return wave
    }

    private static func appendLE16(_ value: Int, to bytes: inout [UInt8]) {
        bytes += [UInt8(value & 0xFF), UInt8((value >> 8) & 0xFF)]
    }

    private static func appendLE32(_ value: Int, to bytes: inout [UInt8]) {
        appendLE16(value & 0xFFFF, to: &bytes)
        appendLE16((value >> 16) & 0xFFFF, to: &bytes)
    }

    private static func riffChunk(_ id: String, _ body: [UInt8]) -> [UInt8] {
        var chunk = Array(id.utf8)
        appendLE32(body.count, to: &chunk)
        chunk += body
        if body.count & 1 == 1 { chunk.append(0) }
        return chunk
    }

    private static func riffFile(_ chunks: [[UInt8]]) -> [UInt8] {
        let body = chunks.flatMap { $0 }
        var file = Array("RIFF".utf8)
        appendLE32(4 + body.count, to: &file)
        file += Array("WAVE".utf8)
        return file + body
    }

    /// A 16-bit PCM WAV file.
    static func writePCMWave(_ url: URL, samples: [Int16], channels: Int, sampleRate: Int) throws {
        var format: [UInt8] = []
        appendLE16(1, to: &format)
        appendLE16(channels, to: &format)
        appendLE32(sampleRate, to: &format)
        appendLE32(sampleRate * channels * 2, to: &format)
        appendLE16(channels * 2, to: &format)
        appendLE16(16, to: &format)
        var data: [UInt8] = []
        data.reserveCapacity(samples.count * 2)
        for sample in samples { appendLE16(Int(UInt16(bitPattern: sample)), to: &data) }
        try Data(riffFile([riffChunk("fmt ", format), riffChunk("data", data)])).write(to: url)
    }

    /// An IMA ADPCM WAV file as Microsoft defines it: fmt with wFormatTag 0x11, 4 bits per sample,
    /// cbSize 2 and wSamplesPerBlock; a fact chunk with the frame count; the blocks as data.
    static func writeIMAADPCMWave(
        _ url: URL, blocks: [UInt8], channels: Int, sampleRate: Int, blockAlign: Int, samplesPerBlock: Int,
        frames: Int
    ) throws {
        var format: [UInt8] = []
        appendLE16(0x11, to: &format)
        appendLE16(channels, to: &format)
        appendLE32(sampleRate, to: &format)
        appendLE32(sampleRate * blockAlign / samplesPerBlock, to: &format)   // nAvgBytesPerSec
        appendLE16(blockAlign, to: &format)
        appendLE16(4, to: &format)
        appendLE16(2, to: &format)   // cbSize
        appendLE16(samplesPerBlock, to: &format)
        var fact: [UInt8] = []
        appendLE32(frames, to: &fact)
        try Data(riffFile([riffChunk("fmt ", format), riffChunk("fact", fact), riffChunk("data", blocks)]))
            .write(to: url)
    }

    // MARK: Minimal CAF

    /// What the tests need from a CAF file: the 'desc' fields and the audio data.
    struct CAFFile {
        var formatID: String
        var bytesPerPacket: Int
        var framesPerPacket: Int
        var channelCount: Int
        var data: [UInt8]
    }

    static func parseCAF(_ url: URL) throws -> CAFFile {
        let bytes = [UInt8](try Data(contentsOf: url))
        func be32(_ at: Int) -> Int { (0..<4).reduce(0) { $0 << 8 | Int(bytes[at + $1]) } }
        func be64(_ at: Int) -> Int64 { (0..<8).reduce(Int64(0)) { $0 << 8 | Int64(bytes[at + $1]) } }
        func tag(_ at: Int) -> String { String(decoding: bytes[at..<at + 4], as: UTF8.self) }
        guard bytes.count >= 8, tag(0) == "caff" else {
            throw ToolError(description: "\(url.lastPathComponent) is not a CAF file")
        }
        var file = CAFFile(formatID: "", bytesPerPacket: 0, framesPerPacket: 0, channelCount: 0, data: [])
        var offset = 8
        while offset + 12 <= bytes.count {
            let id = tag(offset)
            let declared = be64(offset + 4)
            let body = offset + 12
            let size = declared < 0 ? bytes.count - body : Int(declared)   // -1: data runs to the end
            switch id {
            case "desc":
                file.formatID = tag(body + 8)
                file.bytesPerPacket = be32(body + 16)
                file.framesPerPacket = be32(body + 20)
                file.channelCount = be32(body + 24)
            case "data":
                file.data = Array(bytes[(body + 4)..<min(body + size, bytes.count)])   // skip mEditCount
            default:
                break
            }
            offset = body + size
        }
        return file
    }

    /// A CAF file of `ima4` packets: 'desc' (34·channels bytes and 64 frames per packet) and 'data'.
    /// Constant-size packets need no packet table.
    static func writeIMA4CAF(_ url: URL, packets: [UInt8], channels: Int, sampleRate: Double) throws {
        func be32(_ value: Int) -> [UInt8] { (0..<4).map { UInt8((value >> (24 - 8 * $0)) & 0xFF) } }
        func be64(_ value: UInt64) -> [UInt8] { (0..<8).map { UInt8((value >> (56 - 8 * UInt64($0))) & 0xFF) } }
        func chunk(_ id: String, _ body: [UInt8]) -> [UInt8] {
            Array(id.utf8) + be64(UInt64(body.count)) + body
        }
        var desc = be64(sampleRate.bitPattern)
        desc += Array("ima4".utf8)
        desc += be32(0) + be32(34 * channels) + be32(64) + be32(channels) + be32(0)
        let bytes = Array("caff".utf8) + [0, 1, 0, 0] + chunk("desc", desc) + chunk("data", be32(0) + packets)
        try Data(bytes).write(to: url)
    }
}
