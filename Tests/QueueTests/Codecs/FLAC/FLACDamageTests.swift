import Codec8_24
import Foundation
import TestSupport
import Testing
@testable import Queue

/// Damaged FLAC files: the audio before the damage, bit-exact, then one clear error; never a crash.
struct FLACDamageTests {
    @Test("a file cut short plays its whole frames, then says .truncated naming the frame", arguments: [0.35, 0.6, 0.97])
    func truncated(fraction: Double) throws {
        let fixture = try FLACFixture(seconds: 1)
        let bytes = try Data(contentsOf: URL(fileURLWithPath: fixture.path))
        let cut = Int64(Double(bytes.count) * fraction)
        try bytes.prefix(Int(cut)).write(to: URL(fileURLWithPath: fixture.path))
        // flac -a's frames that end before the cut are the ones that must come out.
        let whole = fixture.frames.filter { $0.offset + $0.bytes <= cut }
        let expectedFrames = whole.reduce(0) { $0 + $1.blockSize }
        let reader = try fixture.open()
        let (ours, error) = decodeFLAC(reader)
        #expect(ours.count == expectedFrames * 2)
        #expect(ReferenceTool.firstDifference(ours, Array(fixture.reference.prefix(ours.count))) == nil)
        #expect(error?.kind == .truncated, "\(error?.description ?? "no error")")
        #expect(error?.description.contains("frame \(whole.count)") == true, "\(error?.description ?? "")")
        // Then the end, quietly.
        #expect(decodeFLAC(reader).samples.isEmpty)
    }

    @Test("a corrupt frame gives .malformed at its offset once, then the next frames play on")
    func corruptFrame() throws {
        let fixture = try FLACFixture(seconds: 1)
        var bytes = try Data(contentsOf: URL(fileURLWithPath: fixture.path))
        let bad = fixture.frames[4]
        // Bytes in the middle of frame 4's audio: its CRC-16 (RFC 9639 section 9.3) fails.
        let middle = Int(bad.offset + bad.bytes / 2)
        for i in middle..<(middle + 3) { bytes[i] ^= 0x5A }
        try bytes.write(to: URL(fileURLWithPath: fixture.path))
        let reader = try fixture.open()
        let (before, error) = decodeFLAC(reader)
        let framesBefore = fixture.frames.prefix(4).reduce(0) { $0 + $1.blockSize }
        #expect(before.count == framesBefore * 2)
        #expect(ReferenceTool.firstDifference(before, Array(fixture.reference.prefix(before.count))) == nil)
        #expect(error?.kind == .malformed, "\(error?.description ?? "no error")")
        #expect(error?.offset == bad.offset, "\(error?.description ?? "")")
        let (after, secondError) = decodeFLAC(reader)
        #expect(secondError == nil, "\(secondError?.description ?? "")")
        let resume = (framesBefore + bad.blockSize) * 2
        #expect(after.count == fixture.reference.count - resume)
        #expect(ReferenceTool.firstDifference(after, Array(fixture.reference[resume...])) == nil)
        // Seeking into the corrupt frame says so; reading then goes on from the frame after it.
        #expect { try reader.seek(toFrame: Int64(framesBefore + 10)) } throws: { ($0 as? AudioFileError)?.kind == .malformed }
        let (again, _) = decodeFLAC(reader)
        #expect(again.count == after.count)
        #expect(ReferenceTool.firstDifference(again, after) == nil)
    }

    @Test("a file whose first frames are missing starts at the first frame in it, as ffmpeg plays it, and seeks by its frames' numbers")
    func firstFramesMissing() throws {
        let fixture = try FLACFixture(seconds: 1)
        // A stream recorded from its middle, or one that lost its start: frames 0 and 1 cut out, so the first
        // frame's header (RFC 9639 9.1.5, the frame number) says sample 2 x 4096 while STREAMINFO still
        // counts the whole stream from sample 0.
        try fixture.cutFrames(0..<2)
        let missing = fixture.frames[0].blockSize + fixture.frames[1].blockSize
        let expected = Array(fixture.reference[(missing * 2)...])
        // ffmpeg plays such a file from its first frame, without a gap.
        #expect(try ReferenceTool.ffmpegSamples(fixture.path).count == expected.count)
        let reader = try fixture.open()
        #expect(reader.info.frameCount == Int64(expected.count / 2))
        // A seek lands where the read from the start had the same frame (libFLAC seeks by the headers' numbers).
        try expectReadsAndSeeks(reader, expected, seeks: [0, 1000, 20_001, Int64(expected.count / 2) - 7])
    }

    @Test("a frame missing between two frames plays as silence in its place, as libFLAC fills the gap, and the frames around it whole")
    func frameMissingBetweenFrames() throws {
        let fixture = try FLACFixture(seconds: 1)
        try fixture.cutFrames(4..<5)
        let gone = fixture.frames[4]
        let silentFrom = fixture.frames.prefix(4).reduce(0) { $0 + $1.blockSize } * 2
        let silent = silentFrom..<(silentFrom + gone.blockSize * 2)
        // libFLAC hands over silence for the gap between frames 3 and 5 (1.4 without a word, 1.5 with its
        // MISSING_FRAME status, FLAC/stream_decoder.h): flac -F (decode through errors) writes what it handed over.
        // (1.4 zeroes frame 5 as well, a fault 1.5 fixed, so only the gap is compared.)
        let decoded = fixture.directory.file("through-errors.wav")
        try ReferenceTool.run("flac", ["-d", "-F", "-s", "-f", "-o", decoded, fixture.path])
        let libFLAC = try soxSamples(decoded)
        #expect(libFLAC.count == fixture.reference.count)
        #expect(libFLAC[silent].allSatisfy { $0 == 0 })
        #expect(ReferenceTool.firstDifference(Array(libFLAC[..<silentFrom]), Array(fixture.reference[..<silentFrom])) == nil)
        // Every frame in the file plays as flac -d decoded it before the cut; the missing one is silence.
        var expected = fixture.reference
        for i in silent { expected[i] = 0 }
        try expectReadsAndSeeks(try fixture.open(), expected, seeks: [Int64(silent.lowerBound / 2 + 50), Int64(silent.upperBound / 2 + 100), 1])
    }

    /// A stereo `reader` gives `expected` from the start without an error, and from each of `seeks` on after a seek.
    private func expectReadsAndSeeks(_ reader: FLACFileReader, _ expected: [Int32], seeks: [Int64]) throws {
        let (ours, error) = decodeFLAC(reader)
        #expect(error == nil, "\(error?.description ?? "")")
        #expect(ours.count == expected.count)
        #expect(ReferenceTool.firstDifference(ours, expected) == nil)
        for target in seeks {
            try reader.seek(toFrame: target)
            let (after, seekError) = decodeFLAC(reader)
            #expect(seekError == nil, "at \(target): \(seekError?.description ?? "")")
            #expect(ReferenceTool.firstDifference(after, Array(expected[Int(target * 2)...])) == nil, "at \(target)")
        }
    }

    @Test("a frame repeated is damage, said once where it comes, and the read goes on in the file's order")
    func frameRepeated() throws {
        let fixture = try FLACFixture(seconds: 1)
        let bytes = try Data(contentsOf: URL(fileURLWithPath: fixture.path))
        // Frame 2 twice: the copy's header (RFC 9639 9.1.5) numbers it before the end of the frames already read.
        let two = fixture.frames[2]
        let copy = bytes[Int(two.offset)..<Int(two.offset + two.bytes)]
        try (bytes.prefix(Int(two.offset + two.bytes)) + copy + bytes.suffix(from: Int(two.offset + two.bytes)))
            .write(to: URL(fileURLWithPath: fixture.path))
        let reader = try fixture.open()
        let (before, error) = decodeFLAC(reader)
        let upToCopy = fixture.frames.prefix(3).reduce(0) { $0 + $1.blockSize } * 2
        #expect(before.count == upToCopy)
        #expect(ReferenceTool.firstDifference(before, Array(fixture.reference.prefix(upToCopy))) == nil)
        #expect(error?.kind == .malformed, "\(error?.description ?? "no error")")
        #expect(error?.description.contains("out of order") == true, "\(error?.description ?? "")")
        // Then the copy and the frames after it, as flac -d decoded them from frame 2 on.
        let (after, secondError) = decodeFLAC(reader)
        #expect(secondError == nil, "\(secondError?.description ?? "")")
        let from = upToCopy - two.blockSize * 2
        #expect(after.count == fixture.reference.count - from)
        #expect(ReferenceTool.firstDifference(after, Array(fixture.reference[from...])) == nil)
    }

    @Test("flipped bytes anywhere in the audio never crash: exact audio up to the damage, then clear errors")
    func flippedBytes() throws {
        let fixture = try FLACFixture(seconds: 0.5, level: 0)
        let original = try Data(contentsOf: URL(fileURLWithPath: fixture.path))
        let audioStart = Int(fixture.frames[0].offset)
        var seed: UInt64 = 0x2545_F491_4F6C_DD1D
        func random(_ range: Range<Int>) -> Int {
            seed = seed &* 6364136223846793005 &+ 1442695040888963407
            return range.lowerBound + Int(seed >> 33) % range.count
        }
        for _ in 0..<12 {
            var bytes = original
            let at = random(audioStart..<bytes.count)
            bytes[at] ^= UInt8(random(1..<256))
            try bytes.write(to: URL(fileURLWithPath: fixture.path))
            let reader = try fixture.open()
            // A changed byte fails the frame's CRC-16 or its header's CRC-8 (RFC 9639 9.1.8, 9.3): everything
            // before that frame comes out exact.
            let (first, firstError) = decodeFLAC(reader)
            #expect(ReferenceTool.firstDifference(first, Array(fixture.reference.prefix(first.count))) == nil, "byte \(at)")
            #expect(firstError?.kind == .malformed || firstError?.kind == .truncated, "byte \(at): \(firstError?.description ?? "no error")")
            var errors = 1
            while errors < 10, let error = decodeFLAC(reader).error {
                #expect(error.kind == .malformed || error.kind == .truncated)
                errors += 1
            }
            #expect(errors < 10, "byte \(at)")
        }
    }

    @Test("a file cut inside its metadata is refused with .truncated; not FLAC at all with an error")
    func cutHeader() throws {
        let fixture = try FLACFixture(seconds: 0.2)
        let bytes = try Data(contentsOf: URL(fileURLWithPath: fixture.path))
        try bytes.prefix(30).write(to: URL(fileURLWithPath: fixture.path))
        #expect { try fixture.open() } throws: { ($0 as? AudioFileError)?.kind == .truncated }
        try Data("fLaC this is not a stream".utf8).write(to: URL(fileURLWithPath: fixture.path))
        #expect(throws: AudioFileError.self) { try fixture.open() }
    }
}
