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
