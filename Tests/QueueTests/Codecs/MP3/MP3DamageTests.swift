import Codec8_24
import Foundation
import TestSupport
import Testing
@testable import Queue

/// Cut and corrupted MP3s: the audio up to the damage, then one clear error; never a crash.
@Suite struct MP3DamageTests {
    static func cbr(_ directory: TemporaryDirectory, frames: Int = 57330) throws -> (path: String, bytes: Data) {
        let mp3 = try MP3Fixtures.lameSine(directory, frames: frames, ["-b", "128"])
        return (mp3, try Data(contentsOf: URL(fileURLWithPath: mp3)))
    }

    @Test func truncatedFilePlaysToTheCutThenSaysSo() throws {
        let directory = TemporaryDirectory()
        let (_, bytes) = try Self.cbr(directory)
        let cut = directory.file("cut.mp3")
        try bytes.prefix(12000).write(to: URL(fileURLWithPath: cut))
        let reader = try MP3Fixtures.open(cut)
        #expect(reader.info.frameCount == 57330)   // the LAME tag's promise: the length of the whole file
        let (samples, error) = MP3Fixtures.decode(reader)
        #expect(error?.kind == .truncated)
        #expect(error?.description.contains("cut.mp3") == true)
        // 128 kbit/s at 44.1 kHz: 417.96 bytes per 1152-sample frame, so 12000 bytes hold about 28 frames
        // (ISO/IEC 11172-3 frame length); all but the incomplete last are played.
        #expect(samples.count / 2 > 25 * 1152 - 576 - 529)
        // What was played is what FFmpeg decodes from the same cut file.
        let reference = try MP3Fixtures.ffmpeg824(cut)
        let common = min(samples.count, reference.count) - 2 * 1152
        #expect(MP3Fixtures.largestDifference(Array(samples.prefix(common)), Array(reference.prefix(common))) <= MP3FileReaderTests.tolerance)
    }

    @Test func garbageInTheMiddleIsSkippedAndReported() throws {
        let directory = TemporaryDirectory()
        let (path, bytes) = try Self.cbr(directory)
        var damaged = bytes
        var noise = NoiseGenerator(seed: 14)
        for i in 8000..<11000 { damaged[i] = UInt8(truncatingIfNeeded: noise.next()) }
        let bad = directory.file("garbage.mp3")
        try damaged.write(to: URL(fileURLWithPath: bad))
        let reader = try MP3Fixtures.open(bad)
        #expect(reader.info.frameCount == 57330)   // the LAME tag's promise
        let (samples, error) = MP3Fixtures.decode(reader)
        #expect(error?.kind == .malformed)
        #expect(error?.description.contains("garbage.mp3") == true)
        // Before the damage (byte 8000 of 22 kB: about frame 17 of 51), the intact file's audio.
        let intact = try MP3Fixtures.ffmpeg824(path)
        let before = 2 * 12 * 1152
        #expect(samples.count > before)
        #expect(MP3Fixtures.largestDifference(Array(samples.prefix(before)), Array(intact.prefix(before))) <= MP3FileReaderTests.tolerance)
    }

    /// A whole file whose tag's byte count is too large (as encoders that count their ID3 tag in write it)
    /// is not mistaken for a cut one: all its frames decode.
    @Test func wrongByteCountInTheTagIsNoDamage() throws {
        let directory = TemporaryDirectory()
        let (_, bytes) = try Self.cbr(directory)
        let path = directory.file("bytes.mp3")
        try Self.patchingInfoField(bytes, .byteCount) { $0 + 1000 }.write(to: URL(fileURLWithPath: path))
        let reader = try MP3Fixtures.open(path)
        #expect(reader.info.frameCount == 57330)
        let (samples, error) = MP3Fixtures.decode(reader)
        #expect(error == nil)
        #expect(samples.count == 2 * 57330)
    }

    /// The Info tag's 32-bit big-endian fields (the Mp3 Info Tag spec: "Info", 4 flag bytes, the frame count,
    /// then the byte count), by their offset from "Info".
    enum InfoField: Int {
        case frameCount = 8, byteCount = 12
    }

    /// `bytes` with the Info tag's `field` replaced by `change` of its value.
    static func patchingInfoField(_ bytes: Data, _ field: InfoField, _ change: (Int) -> Int) throws -> Data {
        var patched = [UInt8](bytes)
        let info = try #require(patched.indices.first { patched[$0..<($0 + 4)].elementsEqual("Info".utf8) })
        #expect(patched[info + 7] & 0x3 == 0x3)   // frames and bytes present
        let at = info + field.rawValue
        let value = change(patched[at..<(at + 4)].reduce(0) { $0 << 8 | Int($1) })
        for i in 0..<4 { patched[at + i] = UInt8(truncatingIfNeeded: value >> (24 - 8 * i)) }
        return Data(patched)
    }

    /// A tag counting fewer frames than the stream holds describes another stream (a damaged count): every
    /// frame plays, trimmed as the intact file is, with no hole where the tag's count ends. A count too small to
    /// hold the tag's own delay and padding (0 or 1 frame) once gave a negative length and an empty decode;
    /// 5 frames, libmpg123's own trimming cut 443 samples out at the fifth frame (found by reading the reader,
    /// while the mp3 target ran).
    @Test(arguments: [0, 1, 5, 20])
    func aTagCountingFewerFramesThanTheStreamPlaysThemAll(count: Int) throws {
        let directory = TemporaryDirectory()
        let (intact, bytes) = try Self.cbr(directory)
        let path = directory.file("count-\(count).mp3")
        try Self.patchingInfoField(bytes, .frameCount) { _ in count }.write(to: URL(fileURLWithPath: path))
        let reader = try MP3Fixtures.open(path)
        #expect(reader.info.frameCount == 57330)   // the frames sox made
        let (samples, error) = MP3Fixtures.decode(reader)
        #expect(error == nil)
        #expect(samples.count == 2 * 57330)
        // FFmpeg's decode of the intact file, sample for sample, over the whole length.
        let reference = try MP3Fixtures.ffmpeg824(intact)
        #expect(reference.count == samples.count)
        #expect(MP3Fixtures.largestDifference(samples, reference) <= MP3FileReaderTests.tolerance)
        // Seeks land where the decode from the start has that frame (the reader trims the priming itself here).
        var buffer = [Fixed824](repeating: .zero, count: 2 * 700)
        for target in [40000, 1, 1152, 0, 57000] {
            try reader.seek(toFrame: Int64(target))
            let n = try buffer.withUnsafeMutableBufferPointer { try reader.read(into: $0) }
            #expect(n == min(700, 57330 - target))
            let expected = Array(samples[(2 * target)..<(2 * (target + n))])
            #expect(MP3Fixtures.largestDifference(buffer[0..<(2 * n)].map(\.raw), expected) <= MP3FileReaderTests.seekTolerance,
                    "after a seek to \(target)")
        }
    }

    /// Two files joined end to end (`cat a.mp3 b.mp3`): the first one's tag counts only its own frames, and
    /// both play; the second's audio, at the end, is the intact file's.
    @Test func twoFilesJoinedEndToEndBothPlay() throws {
        let directory = TemporaryDirectory()
        let (intact, bytes) = try Self.cbr(directory)
        let path = directory.file("joined.mp3")
        try (bytes + bytes).write(to: URL(fileURLWithPath: path))
        let reader = try MP3Fixtures.open(path)
        #expect(reader.info.frameCount > 2 * 57330)
        let (samples, error) = MP3Fixtures.decode(reader)
        #expect(error == nil)
        #expect(samples.count == 2 * Int(reader.info.frameCount))
        let reference = try MP3Fixtures.ffmpeg824(intact)
        // The last second of the second file, as FFmpeg decodes the intact one.
        let tail = 2 * 44100
        #expect(MP3Fixtures.largestDifference(Array(samples.suffix(tail)), Array(reference.suffix(tail))) <= MP3FileReaderTests.tolerance)
    }

    @Test func notMPEGAudioIsRefusedWithOneError() throws {
        let directory = TemporaryDirectory()
        // An ID3v2 header (synchsafe size 20) followed by noise: no frame to find.
        var bytes: [UInt8] = Array("ID3".utf8) + [4, 0, 0, 0, 0, 0, 20] + [UInt8](repeating: 0, count: 20)
        var noise = NoiseGenerator(seed: 3)
        bytes += (0..<5000).map { _ in UInt8(truncatingIfNeeded: noise.next() % 255) }
        let path = directory.file("noise.mp3")
        try Data(bytes).write(to: URL(fileURLWithPath: path))
        #expect(throws: AudioFileError.self) { _ = try MP3Fixtures.open(path) }
        let empty = directory.file("empty.mp3")
        try Data(bytes.prefix(30)).write(to: URL(fileURLWithPath: empty))
        #expect(throws: AudioFileError.self) { _ = try MP3Fixtures.open(empty) }
    }
}
