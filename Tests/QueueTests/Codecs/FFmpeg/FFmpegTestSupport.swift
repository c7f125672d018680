import Codec8_24
import Foundation
import TestSupport
import Testing
@testable import Queue

/// Helpers for the FFmpeg (AAC, Apple Lossless) tests: reference files made by sox and ffmpeg at test time.
enum FFmpegFixture {
    /// A stereo source made by sox: a different sine per channel plus white noise (so ALAC has work to do),
    /// `bits` deep, at 44.1 kHz.
    /// `noise: false` gives the two sines alone: AAC then codes no noise substitution (PNS), whose random
    /// generator runs across packets, so a decode after a seek matches a decode from the start bit for bit.
    static func source(_ directory: TemporaryDirectory, bits: Int = 16, seconds: Double = 1, noise: Bool = true,
                       name: String = "source.wav") throws -> String {
        let path = directory.file(name)
        try ReferenceTool.run("sox", ["-R", "-n", "-r", "44100", "-c", "2", "-b", "\(bits)", path, "synth", "\(seconds)",
                                      "sine", "440", "sine", "660"] + (noise ? ["whitenoise"] : []) + ["vol", "0.5"])
        return path
    }

    /// Encodes `source` with ffmpeg (`codec` and extra arguments) into `name`.
    static func encode(_ source: String, _ directory: TemporaryDirectory, _ name: String, _ arguments: [String]) throws -> String {
        let path = directory.file(name)
        try ReferenceTool.run("ffmpeg", ["-v", "error", "-nostdin", "-y", "-i", source] + arguments + [path])
        return path
    }

    static func open(_ path: String, _ type: AudioFileType) throws -> FFmpegFileReader {
        try FFmpegFileReader(try LibraryInput(try FileDescriptor.open(path, writable: false)), type: type)
    }

    /// Every frame the reader returns, in buffers of `chunk` frames.
    static func decodeAll(_ reader: FFmpegFileReader, chunk: Int = 1000) throws -> [Fixed824] {
        let channels = reader.info.format.channelsPerFrame
        var result: [Fixed824] = []
        var buffer = [Fixed824](repeating: .zero, count: chunk * channels)
        while true {
            let n = try buffer.withUnsafeMutableBufferPointer { try reader.read(into: $0) }
            if n == 0 { return result }
            result += buffer[0..<(n * channels)]
        }
    }

    /// Reads `frames` frames (fewer at the end).
    static func read(_ reader: FFmpegFileReader, frames: Int) throws -> [Fixed824] {
        let channels = reader.info.format.channelsPerFrame
        var result: [Fixed824] = []
        var buffer = [Fixed824](repeating: .zero, count: 333 * channels)
        while result.count < frames * channels {
            let want = min(333, frames - result.count / channels)
            let n = try buffer.withUnsafeMutableBufferPointer { try reader.read(into: UnsafeMutableBufferPointer(rebasing: $0[0..<(want * channels)])) }
            if n == 0 { break }
            result += buffer[0..<(n * channels)]
        }
        return result
    }

    /// How far our AAC decode (s32 units) may be from the ffmpeg command's. On the x86 host both are the same
    /// libavcodec, differing only in rounding float to 8.24 vs s32: one 8.24 step (128). Under qemu our side is
    /// the board's libavcodec (FFmpeg 7.1, aarch64) against the host's ffmpeg 5.1 on x86: different builds,
    /// different float rounding (measured 384-448), so the conformance bound applies: ISO/IEC 13818-4 and
    /// 14496-26's "full accuracy" criterion, at most 2^-14 of full scale from the reference (2^17 in s32).
    static var aacTolerance: Int64 {
        #if arch(x86_64)
        128
        #else
        1 << 17
        #endif
    }

    /// The largest difference between our 8.24 samples (as s32) and ffmpeg's s32 samples over `count` samples.
    static func maxDifference(_ ours: [Fixed824], _ theirs: [Int32], count: Int) -> Int64 {
        var worst: Int64 = 0
        for i in 0..<count { worst = max(worst, abs(Int64(ours[i].raw) << 7 - Int64(theirs[i]))) }
        return worst
    }
}
