import Codec8_24
import Foundation
import TestSupport
import Testing
@testable import Queue

/// A FLAC recording cut by a power cut (a copy of the file taken while it was written, after some commits
/// and before `finish`, then cut inside a frame) is repaired to every frame before the cut.
struct FLACRepairTests {
    @Test("power cut: repaired files pass flac -t and hold every whole frame before the cut")
    func powerCut() throws {
        let directory = TemporaryDirectory()
        let (samples, values) = try FLACFileWriterTests.signal(directory, rate: 44100, channels: 2, bits: 16, seconds: 2)
        let path = directory.file("recording.flac")
        let format = StreamFormat.compressed(.flac, sampleRate: 44100, channels: 2, bitsPerChannel: 16)
        var options = AudioFileWriteOptions()
        options.synchronizeOnCommit = true
        let file = try FileDescriptor.create(path)
        let writer = try FLACFileWriter(LibraryOutput(file), format: format, options: options, ogg: false)
        // 1.6 s in 0.1 s buffers, committing every 0.5 s, then the "power cut": the file as it is on disk.
        var written = 0
        for i in 0..<16 {
            try samples[(written * 2)..<((written + 4410) * 2)].withUnsafeBufferPointer { try writer.write($0) }
            written += 4410
            if i % 5 == 4 { try writer.commit() }
        }
        try writer.commit()
        let snapshot = try Data(contentsOf: URL(fileURLWithPath: path))
        try samples[(written * 2)...].withUnsafeBufferPointer { try writer.write($0) }
        try writer.finish()
        // The finished file's frames (flac -a) are the same bytes the cut copy holds.
        let frames = try FLACFixture.analysis(path, directory: directory)
        #expect(frames.count > 8)
        let lastInSnapshot = frames.last { $0.offset + $0.bytes <= Int64(snapshot.count) }!
        let cuts: [Int64] = [Int64(snapshot.count), lastInSnapshot.offset + lastInSnapshot.bytes - 1,
                             frames[5].offset + frames[5].bytes / 2, frames[3].offset + 1, frames[2].offset + frames[2].bytes]
        for cut in cuts {
            let copy = directory.file("cut-\(cut).flac")
            try snapshot.prefix(Int(cut)).write(to: URL(fileURLWithPath: copy))
            let report = try FLACRepair.repair(try FileDescriptor.open(copy, writable: true))
            let whole = frames.filter { $0.offset + $0.bytes <= cut }
            let expected = whole.reduce(0) { $0 + $1.blockSize }
            #expect(report.frameCount == Int64(expected), "cut at \(cut)")
            #expect(!report.wasIntact)
            try ReferenceTool.run("flac", ["-t", "-s", copy])
            #expect(try metaflacTotalSamples(copy) == Int64(expected))
            let decoded = directory.file("cut-\(cut).wav")
            try ReferenceTool.run("flac", ["-d", "-s", "-f", "-o", decoded, copy])
            let theirs = try soxSamples(decoded)
            #expect(theirs.count == expected * 2)
            #expect(ReferenceTool.firstDifference(theirs, Array(values.prefix(theirs.count))) == nil, "cut at \(cut)")
        }
        // At most the frame in progress is lost: libFLAC holds back one block (4096 samples at -5, plus the one
        // sample it reads ahead) until it can encode it.
        let untouched = frames.filter { $0.offset + $0.bytes <= Int64(snapshot.count) }.reduce(0) { $0 + $1.blockSize }
        #expect(written - untouched <= 4097)
        // The finished file is left as it is.
        let intact = try FLACRepair.repair(try FileDescriptor.open(path, writable: true))
        #expect(intact.wasIntact)
        #expect(intact.frameCount == Int64(values.count / 2))
    }

    @Test("a file cut before its first frame cannot be repaired: .truncated")
    func cutInHeader() throws {
        let fixture = try FLACFixture(seconds: 0.2)
        let bytes = try Data(contentsOf: URL(fileURLWithPath: fixture.path))
        try bytes.prefix(100).write(to: URL(fileURLWithPath: fixture.path))
        #expect { try FLACRepair.repair(try FileDescriptor.open(fixture.path, writable: true)) } throws: {
            ($0 as? AudioFileError)?.kind == .truncated
        }
    }
}

extension FLACRepairTests {
    @Test("through AudioFile: a FLAC recording in place, cut mid-frame, repaired by AudioFile.repair and read back")
    func recorderPath() throws {
        let directory = TemporaryDirectory()
        let (samples, values) = try FLACFileWriterTests.signal(directory, rate: 48000, channels: 1, bits: 24, seconds: 1.5)
        let path = directory.file("take.flac")
        let options = AudioFileWriteOptions(commitInterval: 0.25, synchronizeOnCommit: true)
        let file = try AudioFile.create(path: path, type: .flac, format: .compressed(.flac, sampleRate: 48000, channels: 1, bitsPerChannel: 24),
                                        options: options)
        try samples[0..<48_000].withUnsafeBufferPointer { try file.writeFrames($0) }
        let snapshot = try Data(contentsOf: URL(fileURLWithPath: path))
        try samples[48_000...].withUnsafeBufferPointer { try file.writeFrames($0) }
        try file.close()
        let frames = try FLACFixture.analysis(path, directory: directory)
        // Cut 7 bytes before the end of the last frame the snapshot holds whole.
        let last = try #require(frames.last { $0.offset + $0.bytes <= Int64(snapshot.count) })
        let cut = last.offset + last.bytes - 7
        let copy = directory.file("cut.flac")
        try snapshot.prefix(Int(cut)).write(to: URL(fileURLWithPath: copy))
        let report = try AudioFile.repair(path: copy)
        let expected = frames.filter { $0.offset + $0.bytes <= cut }.reduce(0) { $0 + $1.blockSize }
        #expect(report.frameCount == Int64(expected))
        #expect(report.droppedBytes == cut - last.offset)
        try ReferenceTool.run("flac", ["-t", "-s", copy])
        let reopened = try AudioFile.open(path: copy)
        #expect(reopened.frameCount == Int64(expected))
        let ours = try readAll(reopened).map(\.int32)
        #expect(ours.count == expected)
        #expect(ReferenceTool.firstDifference(ours, Array(values.prefix(expected))) == nil)
    }
}
