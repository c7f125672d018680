import Foundation
import Testing
import TestSupport
@testable import Queue

/// Inputs fuzzing found (libFuzzer with ASan over repair), kept as crafted fixtures in Tests/QueueTests/Fixtures.
/// Each was built by hand from its format's specification; the expected audio is the bytes the fixture holds.
struct RepairFixtureTests {
    static let fixtures = SourceTree.root() + "/Tests/QueueTests/Fixtures/"

    /// A copy of the fixture to repair (the fixture itself stays as it is).
    static func copy(_ name: String, into directory: TemporaryDirectory) throws -> String {
        let path = directory.file(name)
        try FileManager.default.copyItem(atPath: fixtures + name, toPath: path)
        return path
    }

    /// Repair of a copy of the FLAC `fixture` must refuse it as damage at byte `offset` and leave its bytes as
    /// they were, and the reference decoder must refuse it too. Returns the copy's path and bytes.
    @discardableResult
    static func expectFLACRefusedAsDamage(_ fixture: String, at offset: Int64, in directory: TemporaryDirectory,
                                          sourceLocation: SourceLocation = #_sourceLocation) throws -> (path: String, bytes: Data) {
        let path = try copy(fixture, into: directory)
        let before = try Data(contentsOf: URL(fileURLWithPath: path))
        let error = thrownAudioFileError(sourceLocation: sourceLocation) { _ = try AudioFile.repair(path: path) }
        #expect(error?.kind == .malformed, sourceLocation: sourceLocation)
        #expect(error?.offset == offset, sourceLocation: sourceLocation)
        #expect(try Data(contentsOf: URL(fileURLWithPath: path)) == before, sourceLocation: sourceLocation)
        if toolAvailable("flac") {
            #expect(throws: (any Error).self, sourceLocation: sourceLocation) { try ReferenceTool.run("flac", ["-t", "-s", path]) }
        }
        return (path, before)
    }

    /// caff v1, desc (lpcm 8 kHz mono 16-bit little-endian), data of 4 frames, then a `free` chunk whose 64-bit
    /// size is Int64.max (Core Audio Format Specification: chunk header = type + SInt64 size). Repair computed
    /// offset + 12 + size and trapped on the overflow; the chunk cannot fit in the file, so it is cut off.
    @Test func aCAFChunkAfterTheAudioClaimingInt64MaxBytesIsCutOff() throws {
        let directory = TemporaryDirectory()
        let path = try Self.copy("caf-trailing-chunk-size-near-int64-max.caf", into: directory)
        let report = try AudioFile.repair(path: path)
        // 8 (file header) + 44 (desc) + 12 + 4 + 8 (data) = 76 bytes keep; the 16-byte chunk goes.
        #expect(report.frameCount == 4)
        #expect(report.droppedBytes == 16)
        #expect(try Data(contentsOf: URL(fileURLWithPath: path)).count == 76)
        let file = try AudioFile.open(path: path)
        // The samples the fixture holds: 1000, -1000, 32767, -32768 as 16-bit, i.e. raw << 9 in 8.24 (1.0 = 2^24).
        #expect(try readAll(file).raws == [1000 << 9, -1000 << 9, 32767 << 9, -32768 << 9])
    }

    /// RF64 (EBU Tech 3306) cut between writing `RF64` and turning the `JUNK` placeholder into `ds64`: 32-bit sizes
    /// for 4 committed frames, 2 more frames and 1 byte after them. Repair wrote the 64-bit sizes into the JUNK
    /// chunk without renaming it, and the repaired file no longer opened ("RF64 data size is in a ds64 chunk").
    @Test func repairingAnRF64FileWithJUNKAndNoDS64TurnsTheJUNKIntoDS64() throws {
        let directory = TemporaryDirectory()
        let path = try Self.copy("rf64-junk-without-ds64.wav", into: directory)
        let report = try AudioFile.repair(path: path)
        #expect(report.frameCount == 6)
        #expect(report.droppedBytes == 1)
        let bytes = [UInt8](try Data(contentsOf: URL(fileURLWithPath: path)))
        #expect(bytes.count == 92)
        // EBU Tech 3306 §2: the placeholder becomes ds64 { riffSize 84, dataSize 12, sampleCount 6, table 0 },
        // and the 32-bit RIFF and data sizes say 0xFFFFFFFF ("look in ds64").
        #expect(String(decoding: bytes[0..<4], as: UTF8.self) == "RF64")
        #expect(bytes[4..<8].elementsEqual([0xFF, 0xFF, 0xFF, 0xFF]))
        #expect(String(decoding: bytes[12..<16], as: UTF8.self) == "ds64")
        #expect(bytes[16..<20].elementsEqual([28, 0, 0, 0]))
        #expect(bytes[20..<48].elementsEqual([84, 0, 0, 0, 0, 0, 0, 0, 12, 0, 0, 0, 0, 0, 0, 0, 6, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0]))
        #expect(bytes[76..<80].elementsEqual([0xFF, 0xFF, 0xFF, 0xFF]))
        let expected: [Int32] = [1000, -1000, 32767, -32768, 12345, -12345]
        #expect(try readAll(try AudioFile.open(path: path)).raws == expected.map { $0 << 9 })
        // ffmpeg reads the repaired file too (its RF64 reader takes the sizes from ds64).
        if toolAvailable("ffmpeg") { #expect(try ffmpegSamples(path) == expected.map { $0 << 16 }) }
    }

    /// fLaC, a 34-byte STREAMINFO (4096-sample blocks, 44.1 kHz, 2 channels, 16 bits, 0 samples: RFC 9639
    /// section 8.2), then a second STREAMINFO block header of length 0, a last block of the reserved type 126
    /// and 8 bytes. Repair walked the blocks, found no frame, cut the file to them and said "0 frames recovered",
    /// but RFC 9639 section 8.1 allows one STREAMINFO only: libFLAC (and `flac -t`) refuse the metadata, so the
    /// "repaired" file did not open. Repair now refuses it as damage. Found by libFuzzer (Fuzzing/, repair).
    @Test func aFLACFileWithASecondSTREAMINFOIsRefusedNotRepairedIntoOneThatDoesNotOpen() throws {
        let directory = TemporaryDirectory()
        let (path, _) = try Self.expectFLACRefusedAsDamage("flac-second-streaminfo.flac", at: 42, in: directory)
        #expect(throws: AudioFileError.self) { _ = try AudioFile.open(path: path) }
    }

    /// fLaC, the same STREAMINFO, then a last VORBIS_COMMENT block of 8 bytes whose vendor length says 100
    /// (RFC 9639 section 8.6: a 32-bit little-endian length, then the vendor string), and 8 bytes. Repair took
    /// the block by its header alone and "repaired" a file libFLAC cannot open. Found by libFuzzer (repair).
    @Test func aFLACFileWhoseVorbisCommentRunsPastItsBlockIsRefused() throws {
        try Self.expectFLACRefusedAsDamage("flac-vorbis-comment-overrun.flac", at: 42, in: TemporaryDirectory())
    }

    /// fLaC, the same STREAMINFO, then an APPLICATION block of length 0 and a last PADDING block of 8 bytes. RFC
    /// 9639 section 8.4 starts an APPLICATION block with a 4-byte application id; libFLAC reads those 4 bytes
    /// even from a shorter block and fails the stream, so the file cannot open. Repair walked the blocks by their
    /// headers, said "0 frames recovered" and left a file that did not open; opening it said the file was cut
    /// inside its metadata, though it is whole (libFLAC had read all of it ahead). Found by libFuzzer (repair
    /// target, 2026-11-29, 99 s in). The same file with a 4-byte id is the control: it repairs and opens.
    @Test func aFLACApplicationBlockTooShortForItsIdIsRefusedAsDamage() throws {
        let directory = TemporaryDirectory()
        let (path, before) = try Self.expectFLACRefusedAsDamage("flac-application-shorter-than-its-id.flac", at: 42, in: directory)
        #expect {
            _ = try AudioFile.open(path: path)
        } throws: { error in (error as? AudioFileError)?.kind == .malformed }

        // The control: the block given the 4-byte id "test" (header length 4, RFC 9639 section 8.1).
        let control = directory.file("with-id.flac")
        var bytes = [UInt8](before)
        bytes.replaceSubrange(42..<46, with: [0x02, 0, 0, 4] + Array("test".utf8))
        try Data(bytes).write(to: URL(fileURLWithPath: control))
        if toolAvailable("flac") { try ReferenceTool.run("flac", ["-t", "-s", control]) }
        let report = try AudioFile.repair(path: control)
        #expect(report.frameCount == 0)
        #expect(try AudioFile.open(path: control).frameCount == 0)
    }

    /// fLaC, the same STREAMINFO, a SEEKTABLE of one placeholder point (RFC 9639 section 8.5: 18 bytes, sample
    /// number all ones), a second SEEKTABLE of length 0 and a last PADDING block of 8 bytes. Each block header is
    /// sound on its own, and libFLAC's `format.h` leaves more than one SEEKTABLE undefined: libFLAC 1.4.2 (this
    /// host, `flac -t`: MEMORY_ALLOCATION_ERROR) fails the stream, 1.5.0 (the board's Debian trixie, run by the
    /// aarch64 tests) reads it. Written after finding 9 as the case no header check covers: repair has the
    /// libFLAC at hand read the metadata it would keep, so it refuses exactly what that library refuses and
    /// repairs what it reads; either way the file repair leaves opens, or repair leaves it as it was.
    @Test func aFLACFileWhoseMetadataLibFLACRefusesIsNotRepaired() throws {
        let directory = TemporaryDirectory()
        let path = try Self.copy("flac-second-seektable-empty.flac", into: directory)
        let before = try Data(contentsOf: URL(fileURLWithPath: path))
        let opens = (try? AudioFile.open(path: path)) != nil
        if opens {
            let report = try AudioFile.repair(path: path)
            #expect(report.frameCount == 0)
            #expect(try AudioFile.open(path: path).frameCount == 0)
        } else {
            #expect {
                _ = try AudioFile.repair(path: path)
            } throws: { error in
                guard let error = error as? AudioFileError else { return false }
                return error.kind == .malformed && error.message.contains("libFLAC refused its metadata blocks")
            }
            #expect(try Data(contentsOf: URL(fileURLWithPath: path)) == before)
            #if arch(x86_64)
            // The reference tool is the host's, so it speaks for the library under test only in a native run.
            if toolAvailable("flac") { #expect(throws: (any Error).self) { try ReferenceTool.run("flac", ["-t", "-s", path]) } }
            #endif
        }
    }

    /// The repair fuzz target's input as it found it (stop 29, after 2.6 million executions): RIFF whose size is
    /// wrong, PCM `fmt ` (2 channels, 16 bits, block align 4: the RIFF/WAVE spec's WAVE_FORMAT_PCM), `data` of
    /// 3 bytes and its pad byte. The file is whole, with no whole frame. Repair wrote the data size down to the
    /// whole frames, 0, and a WAV reader takes a 0 size with no chunk after it for a streaming writer's
    /// placeholder: the "repaired" file then read as 1 frame (the 3 bytes and the pad). A whole file now keeps
    /// its declared size, so this one is left as it is: 0 frames, as sox reads it.
    @Test func aWholeWAVWithOnlyAPartialFrameKeepsItsDataSize() throws {
        let directory = TemporaryDirectory()
        let path = try Self.copy("wav-partial-frame-only.wav", into: directory)
        let before = try Data(contentsOf: URL(fileURLWithPath: path))
        let report = try AudioFile.repair(path: path)
        #expect(report.frameCount == 0)
        #expect(report.wasIntact)                                  // its data size already says what is there
        #expect(try Data(contentsOf: URL(fileURLWithPath: path)) == before)
        #expect(try AudioFile.open(path: path).frameCount == 0)
        // sox counts the whole frames the data chunk holds (ffmpeg refuses a packet under one frame).
        if toolAvailable("sox") {
            let samples = String(decoding: try ReferenceTool.run("sox", ["--i", "-s", path]), as: UTF8.self)
            #expect(samples.trimmingCharacters(in: .whitespacesAndNewlines) == "0")
        }
    }

    /// The control, with one whole frame (1000, -1000) before the 3 partial bytes: that frame is what repair
    /// reports and what reads back, as ffmpeg reads it (this passed before the change too: a size of 4 written
    /// there is no placeholder).
    @Test func aWholeWAVEndingInAPartialFrameKeepsItsWholeFrames() throws {
        let directory = TemporaryDirectory()
        var bytes = [UInt8](try Data(contentsOf: URL(fileURLWithPath: Self.fixtures + "wav-partial-frame-only.wav")))
        bytes.replaceSubrange(40..<48, with: [7, 0, 0, 0, 0xE8, 0x03, 0x18, 0xFC] + Array("abc".utf8) + [0])
        let path = directory.file("one-frame.wav")
        try Data(bytes).write(to: URL(fileURLWithPath: path))
        let report = try AudioFile.repair(path: path)
        #expect(report.frameCount == 1)
        let file = try AudioFile.open(path: path)
        #expect(file.frameCount == 1)
        #expect(try readAll(file).raws == [1000 << 9, -1000 << 9])
        if toolAvailable("ffmpeg") { #expect(try ffmpegSamples(path) == [1000 << 16, -1000 << 16]) }
    }

    /// The repair fuzz target's input as it found it (1217 bytes): RF64 whose ds64 says 512 data bytes and 1000
    /// samples (EBU Tech 3306), IMA ADPCM `fmt ` (tag 0x11, 256-byte blocks of 505 frames: RFC 2361), `fact`,
    /// `data`, then chunks after the audio: a `PAD ` and a second, damaged `fmt ` (an extensible one whose GUID is
    /// no format tag). Repair kept every whole chunk there and said 1000 frames, but the reader refused the second
    /// `fmt `, so the repaired file did not open. Repair now keeps only the chunks a recording carries after its
    /// audio and drops the rest.
    @Test func anRF64FileWithADamagedSecondFmtAfterTheAudioOpensOnceRepaired() throws {
        let directory = TemporaryDirectory()
        let path = try Self.copy("rf64-second-fmt-after-data.wav", into: directory)
        let report = try AudioFile.repair(path: path)
        // ds64 sampleCount 1000 is within the two blocks' 1010 frames, so it is the count kept.
        #expect(report.frameCount == 1000)
        let file = try AudioFile.open(path: path)
        #expect(file.frameCount == 1000)
        #expect(file.fileType == .rf64)
    }

    /// AIFF-C (ulaw, 8 kHz mono, 1000 frames), then three whole chunks after the audio: NAME "take", a MARK chunk
    /// whose count says 2 markers while its 10 bytes hold one (AIFF 1.3, Marker Chunk: id, position, pstring),
    /// and ANNO. Every chunk is whole and of a kind a recording carries, so repair called the file intact, yet the
    /// reader refuses the MARK chunk: the "repaired" file did not open (libFuzzer, repair target, 2026-11-29).
    /// Repair now asks the reader and keeps the chunks before the first it refuses.
    @Test func aMARKChunkDamagedInsideAfterTheAudioIsCutSoTheFileOpens() throws {
        let directory = TemporaryDirectory()
        let path = try Self.copy("aifc-mark-runs-past-its-chunk.aifc", into: directory)
        #expect(throws: AudioFileError.self) { try AudioFile.open(path: path) }
        let report = try AudioFile.repair(path: path)
        #expect(report.frameCount == 1000)
        #expect(report.droppedBytes == 18 + 14)   // MARK (8 + 10) and the ANNO after it (8 + 5 + pad)
        #expect(!report.wasIntact)
        let bytes = try [UInt8](Data(contentsOf: URL(fileURLWithPath: path)))
        #expect(bytes.count == 1124 - 32)
        // FORM's size now describes the file (AIFF 1.3: ckSize counts what follows the size field).
        #expect(Int(UInt32(bytes[4]) << 24 | UInt32(bytes[5]) << 16 | UInt32(bytes[6]) << 8 | UInt32(bytes[7])) == bytes.count - 8)
        let file = try AudioFile.open(path: path)
        #expect(file.frameCount == 1000)
        #expect(file.metadata.title == "take")
        #expect(try readAll(file).raws.count == 1000)
    }
}
