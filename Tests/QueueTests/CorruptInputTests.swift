import Foundation
import Testing
@testable import Queue

/// Hostile and damaged headers, one per parser branch: each gives a clear error with the offset (from
/// `AudioFile.open` and from `AudioFileStream` alike), never a crash, a hang or a huge allocation.
struct CorruptInputTests {
    struct Fixture: Sendable {
        let name: String
        let type: AudioFileType
        let format: StreamFormat
        let patches: [(offset: Int, bytes: [UInt8])]
        let expected: String
        var cut: Int? = nil
        /// What the stream says when it differs (it has no file length and no hint).
        var streamExpected: String? = nil
    }

    static let wav16 = StreamFormat.linearPCM(sampleRate: 8000, channels: 2, bits: 16)
    static let aiff16 = StreamFormat.linearPCM(sampleRate: 8000, channels: 2, bits: 16, isBigEndian: true)
    static func le32(_ v: UInt32) -> [UInt8] { FieldWriter.u32le(v) }
    static func be32(_ v: UInt32) -> [UInt8] { FieldWriter.u32be(v) }
    // WAV layout here: RIFF 0, JUNK 12, fmt 48 (body 56), data 72 (body 80).
    // AIFF: COMM 12 (body 20: channels 20, frames 22, bits 26, rate 28), SSND 38 (body 46).
    // CAF: desc 8 (body 20: rate 20, id 28, flags 32, bpp 36, fpp 40, ch 44, bits 48), data 52 (size 56).
    static let fixtures: [Fixture] = [
        Fixture(name: "unknown magic", type: .wave, format: wav16, patches: [(0, Array("RIFX".utf8))], expected: "not a WAVE file: it starts with 'RIFX'", streamExpected: "it starts with 'RIFX'"),
        Fixture(name: "short fmt", type: .wave, format: wav16, patches: [(52, le32(10))], expected: "fmt chunk is 10 bytes"),
        Fixture(name: "zero channels", type: .wave, format: wav16, patches: [(58, [0, 0])], expected: "0 channels"),
        Fixture(name: "mp3 tag", type: .wave, format: wav16, patches: [(56, [0x55, 0])], expected: "(MP3) is not supported"),
        Fixture(name: "bad block align", type: .wave, format: wav16, patches: [(68, [3, 0])], expected: "cannot have 3-byte frames"),
        Fixture(name: "zero rate", type: .wave, format: wav16, patches: [(60, le32(0))], expected: "sample rate 0.0 Hz"),
        Fixture(name: "float of 16 bits", type: .wave, format: wav16, patches: [(56, [3, 0])], expected: "float with 16 bits"),
        Fixture(name: "g711 block align", type: .wave, format: wav16, patches: [(56, [7, 0])], expected: "one byte per channel"),
        Fixture(name: "data before fmt", type: .wave, format: wav16, patches: [(48, Array("fmx ".utf8))], expected: "data chunk comes before any fmt"),
        Fixture(name: "no data chunk", type: .wave, format: wav16, patches: [(72, Array("datx".utf8))], expected: "no data chunk"),
        Fixture(name: "huge fmt claim", type: .wave, format: wav16, patches: [(52, le32(0xFFFF_FFF0))], expected: "no data chunk before the end of the file (at byte 4294967336)", streamExpected: "header runs past 16777216 bytes"),
        Fixture(name: "rf64 without ds64", type: .wave, format: wav16, patches: [(0, Array("RF64".utf8)), (76, le32(0xFFFF_FFFF))], expected: "data size is in a ds64 chunk, and there is none"),
        Fixture(name: "header cut", type: .wave, format: wav16, patches: [], expected: "ends inside the fmt chunk", cut: 60),
        Fixture(name: "short COMM", type: .aiff, format: aiff16, patches: [(16, be32(10))], expected: "COMM chunk is 10 bytes"),
        Fixture(name: "AIFF zero channels", type: .aiff, format: aiff16, patches: [(20, [0, 0])], expected: "0 channels"),
        Fixture(name: "AIFF infinite rate", type: .aiff, format: aiff16, patches: [(28, [0x7F, 0xFF])], expected: "sample rate"),
        Fixture(name: "AIFF 40-bit", type: .aiff, format: aiff16, patches: [(26, [0, 40])], expected: "40-bit samples"),
        Fixture(name: "SSND offset past chunk", type: .aiff, format: aiff16, patches: [(46, be32(0x7FFF_0000))], expected: "data offset"),
        Fixture(name: "SSND before COMM", type: .aiff, format: aiff16, patches: [(12, Array("COMX".utf8))], expected: "before any COMM"),
        Fixture(name: "AIFC MACE", type: .aifc, format: aiff16, patches: [(50, Array("MAC3".utf8))], expected: "'MAC3' is not supported"),
        Fixture(name: "CAF version 2", type: .caf, format: wav16, patches: [(4, [0, 2])], expected: "CAF version 2"),
        Fixture(name: "CAF first chunk", type: .caf, format: wav16, patches: [(8, Array("free".utf8))], expected: "CAF requires 'desc'"),
        Fixture(name: "CAF short desc", type: .caf, format: wav16, patches: [(12, [0, 0, 0, 0, 0, 0, 0, 16])], expected: "desc chunk is 16 bytes"),
        Fixture(name: "CAF AMR", type: .caf, format: wav16, patches: [(28, Array("samr".utf8))], expected: "'samr' is not supported"),
        Fixture(name: "CAF zero channels", type: .caf, format: wav16, patches: [(44, be32(0))], expected: "0 channels"),
        Fixture(name: "CAF packet size", type: .caf, format: wav16, patches: [(36, be32(5))], expected: "cannot have 5-byte packets"),
        Fixture(name: "CAF negative size", type: .caf, format: wav16, patches: [(56, [0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xF0])], expected: "negative size"),
        Fixture(name: "CAF impossible size", type: .caf, format: wav16, patches: [(56, [0x7F, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xF0])], expected: "impossible"),
        Fixture(name: "CAF ima4 packet", type: .caf, format: .appleIMA4(sampleRate: 8000, channels: 2), patches: [(36, be32(34))], expected: "desc says 64 in 34"),
    ]

    @Test("corrupt headers give a clear error with the offset", arguments: 0..<fixtures.count)
    func rejects(index: Int) throws {
        let fixture = Self.fixtures[index]
        let directory = TemporaryDirectory()
        let path = directory.file("bad")
        try writeFile(path, type: fixture.type, format: fixture.format, samples: testSignal(frames: 256, channels: 2))
        var bytes = Array(try Data(contentsOf: URL(fileURLWithPath: path)))
        for (offset, patch) in fixture.patches { bytes.replaceSubrange(offset..<(offset + patch.count), with: patch) }
        if let cut = fixture.cut { bytes.removeLast(bytes.count - cut) }
        try Data(bytes).write(to: URL(fileURLWithPath: path))
        do {
            _ = try AudioFile.open(path: path, typeHint: fixture.type)
            Issue.record("\(fixture.name): opened")
        } catch let error as AudioFileError {
            #expect(error.description.contains(fixture.expected), "\(fixture.name): \(error)")
            #expect(error.offset != nil, "\(fixture.name): no offset in \(error)")
            #expect(error.description.hasPrefix(path))
            #expect(!error.description.contains("\n"))
        }
        // The stream either reports the same problem or (for a cut) is still waiting for bytes.
        let stream = AudioFileStream(onProperty: { _ in }, onPackets: { _, _ in })
        do {
            try stream.parse(bytes)
            #expect(!stream.isReadyToProducePackets || fixture.name == "no data chunk", "\(fixture.name)")
        } catch let error as AudioFileError {
            #expect(error.description.contains(fixture.streamExpected ?? fixture.expected), "\(fixture.name) (stream): \(error)")
        }
    }

    @Test func hugeDeclaredDataIsClampedToTheFile() throws {
        let directory = TemporaryDirectory()
        let path = directory.file("liar.wav")
        try writeFile(path, type: .wave, format: Self.wav16, samples: testSignal(frames: 100, channels: 2))
        var bytes = Array(try Data(contentsOf: URL(fileURLWithPath: path)))
        bytes.replaceSubrange(76..<80, with: Self.le32(0x7FFF_FFFF))
        try Data(bytes).write(to: URL(fileURLWithPath: path))
        let file = try AudioFile.open(path: path)
        #expect(file.frameCount == 100)
        #expect(try readAll(file).count == 200)
    }
}
