import Codec8_24
import Foundation
import TestSupport
import Testing
@testable import Queue

/// Cut and corrupt Ogg Opus files: the audio before the damage, then one clear error; never a crash.
struct OpusDamageTests {
    /// A 3 s stereo file and its whole decode.
    static func source(_ directory: TemporaryDirectory) throws -> (path: String, bytes: [UInt8], whole: [Fixed824]) {
        let path = try OpusFixture.make(directory, seconds: 3, channels: 2, options: ["--bitrate", "64"])
        let whole = OpusFixture.decode(try OpusFixture.open(path)).samples
        return (path, try [UInt8](Data(contentsOf: URL(fileURLWithPath: path))), whole)
    }

    /// Offsets of the pages (RFC 3533: "OggS" with a valid header) in `bytes`.
    static func pageOffsets(_ bytes: [UInt8]) -> [Int] {
        var offsets: [Int] = []
        var at = 0
        while at + 27 <= bytes.count {
            let n = Int(bytes[at + 26])
            let size = 27 + n + bytes[(at + 27)..<(at + 27 + n)].reduce(0) { $0 + Int($1) }
            offsets.append(at)
            at += size
        }
        return offsets
    }

    @Test("a file cut mid-page plays to its last complete page, then says it is truncated")
    func truncated() throws {
        let directory = TemporaryDirectory()
        let (_, bytes, whole) = try Self.source(directory)
        let pages = Self.pageOffsets(bytes)
        #expect(pages.count >= 5, "opusenc writes pages of up to 1 s: 3 s make several")
        let cutPath = directory.file("cut.opus")
        // Cut 100 bytes into the second-to-last page.
        try Data(bytes[0..<(pages[pages.count - 2] + 100)]).write(to: URL(fileURLWithPath: cutPath))
        let reader = try OpusFixture.open(cutPath)
        let (samples, error) = OpusFixture.decode(reader)
        #expect(error?.kind == .truncated, "\(String(describing: error))")
        #expect(error?.description.contains("cut.opus") == true)
        // The last complete page's granule position (RFC 7845 4: at 48 kHz, pre-skip included) says how far
        // the cut file plays.
        let last = pages[pages.count - 3]
        let granule = bytes[(last + 6)..<(last + 14)].reversed().reduce(0) { $0 << 8 | Int($1) }
        #expect(samples.count == 2 * (granule - reader.info.encoderDelay))
        #expect(samples.count > 0)
        #expect(ReferenceTool.firstDifference(samples.map(\.raw), whole[0..<samples.count].map(\.raw)) == nil)
    }

    @Test("a file cut inside its first audio page is one truncated error")
    func truncatedBeforeAudio() throws {
        let directory = TemporaryDirectory()
        let (_, bytes, _) = try Self.source(directory)
        let pages = Self.pageOffsets(bytes)
        let cutPath = directory.file("early.opus")
        try Data(bytes[0..<(pages[2] + 50)]).write(to: URL(fileURLWithPath: cutPath))
        let error = OpusFixture.thrown { _ = try OpusFixture.open(cutPath) }
        #expect(error?.kind == .truncated)
    }

    @Test("a corrupt page: the audio before it, then a malformed error")
    func corruptPage() throws {
        let directory = TemporaryDirectory()
        let (_, bytes, whole) = try Self.source(directory)
        let pages = Self.pageOffsets(bytes)
        var damaged = bytes
        let page = pages[3]   // an audio page after the headers and the first audio page
        damaged[page + 27 + Int(bytes[page + 26]) + 40] ^= 0x55   // body byte: the CRC no longer matches
        let path = directory.file("corrupt.opus")
        try Data(damaged).write(to: URL(fileURLWithPath: path))
        let reader = try OpusFixture.open(path)
        let (samples, error) = OpusFixture.decode(reader)
        #expect(error?.kind == .malformed, "\(String(describing: error))")
        #expect(samples.count > 0 && samples.count < whole.count)
        #expect(ReferenceTool.firstDifference(samples.map(\.raw), whole[0..<samples.count].map(\.raw)) == nil)
    }

    @Test("not Opus, garbage after OggS, an empty file: one clear error each")
    func garbage() throws {
        let directory = TemporaryDirectory()
        for (name, bytes) in [("junk.opus", Array("OggS".utf8) + [UInt8](repeating: 0x5A, count: 500)), ("empty.opus", [])] {
            let path = directory.file(name)
            try Data(bytes).write(to: URL(fileURLWithPath: path))
            let error = OpusFixture.thrown { _ = try OpusFixture.open(path) }
            #expect(error?.description.contains(name) == true)
        }
    }
}
