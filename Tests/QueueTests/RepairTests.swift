import Codec8_24
import Foundation
import Testing
@testable import Queue

/// Recordings cut off by power loss: the header stays valid while writing, and `AudioFile.repair` recovers all
/// whole packets up to the cut.
struct RepairTests {
    static let cases: [(AudioFileType, StreamFormat)] = [
        (.wave, .linearPCM(sampleRate: 8000, channels: 2, bits: 16)),
        (.wave, .linearPCM(sampleRate: 8000, channels: 1, bits: 24)),
        (.wave, .microsoftIMAADPCM(sampleRate: 8000, channels: 2, blockAlign: 64)),
        (.rf64, .linearPCM(sampleRate: 8000, channels: 2, bits: 32, isFloat: true)),
        (.aiff, .linearPCM(sampleRate: 8000, channels: 2, bits: 16, isBigEndian: true)),
        (.aifc, .muLaw(sampleRate: 8000, channels: 1)),
        (.caf, .linearPCM(sampleRate: 8000, channels: 2, bits: 16)),
        (.caf, .appleIMA4(sampleRate: 8000, channels: 2)),
    ]

    /// Writes `frames` without closing and returns the bytes on disk, as a power cut would leave them.
    static func interruptedRecording(_ type: AudioFileType, _ format: StreamFormat, frames: Int, directory: TemporaryDirectory)
        throws -> (bytes: Data, file: AudioFile) {
        let path = directory.file("recording")
        let file = try AudioFile.create(path: path, type: type, format: format, options: AudioFileWriteOptions(commitInterval: 0.05))
        let samples = testSignal(frames: frames, channels: format.channelsPerFrame)
        for start in stride(from: 0, to: frames, by: 100) {
            let end = min(frames, start + 100) * format.channelsPerFrame
            try samples[(start * format.channelsPerFrame)..<end].withUnsafeBufferPointer { try file.writeFrames($0) }
        }
        return (try Data(contentsOf: URL(fileURLWithPath: path)), file)
    }

    @Test("files cut at random offsets are recovered up to the cut", arguments: 0..<cases.count)
    func recoversCutFiles(index: Int) throws {
        let (type, format) = Self.cases[index]
        let directory = TemporaryDirectory()
        let (bytes, recorder) = try Self.interruptedRecording(type, format, frames: 3000, directory: directory)
        let dataOffset = Int(recorder.dataOffset)
        // What a whole recording holds, frame by frame, for comparison.
        let complete = directory.file("complete")
        try writeFile(complete, type: type, format: format, samples: testSignal(frames: 3000, channels: format.channelsPerFrame))
        let reference = try readAll(try AudioFile.open(path: complete))
        var generator = NoiseGenerator(seed: UInt64(index + 1))
        for trial in 0..<12 {
            let cut = dataOffset + Int(generator.next() % UInt64(bytes.count - dataOffset + 1))
            let path = directory.file("cut\(trial)")
            try bytes.prefix(cut).write(to: URL(fileURLWithPath: path))
            // Before repair the file already opens: the header is valid as committed.
            let before = try AudioFile.open(path: path, typeHint: type)
            #expect(before.frameCount <= Int64(3000))
            let report = try AudioFile.repair(path: path, typeHint: type)
            let packets = (cut - dataOffset) / format.bytesPerPacket
            #expect(report.frameCount == Int64(packets * format.framesPerPacket), "\(type) cut at \(cut)")
            #expect(report.droppedBytes == Int64((cut - dataOffset) % format.bytesPerPacket) - (packets * format.bytesPerPacket % 2 == 1 && type.family != .caf ? 1 : 0))
            let repaired = try AudioFile.open(path: path)
            #expect(repaired.frameCount == report.frameCount)
            let samples = try readAll(repaired)
            #expect(samples == Array(reference.prefix(samples.count)), "\(type) \(format.formatID) cut at \(cut)")
            // A repaired file is consistent: a second repair changes nothing.
            #expect(try AudioFile.repair(path: path).wasIntact)
        }
        recorder.discard()
    }

    @Test func aClosedFileIsIntactAndACutTrailerIsDropped() throws {
        let directory = TemporaryDirectory()
        let path = directory.file("closed.wav")
        let samples = testSignal(frames: 1000, channels: 2)
        try writeFile(path, type: .wave, format: .linearPCM(sampleRate: 8000, channels: 2, bits: 16), samples: samples,
                      options: AudioFileWriteOptions(metadata: AudioFileMetadata(title: "A long enough title", comment: "x")))
        #expect(try AudioFile.repair(path: path).wasIntact)
        let bytes = try Data(contentsOf: URL(fileURLWithPath: path))
        try bytes.prefix(bytes.count - 5).write(to: URL(fileURLWithPath: path))
        let report = try AudioFile.repair(path: path)
        #expect(!report.wasIntact)
        #expect(report.frameCount == 1000)
        let file = try AudioFile.open(path: path)
        #expect(try readAll(file) == samples.map { Fixed824(int16: $0.int16) })
        #expect(try readAll(file).isEmpty)   // at the end
        if toolAvailable("sox") { #expect(try soxSamples(path).count == 2000) }
    }

    @Test func aCutInsideTheHeaderCannotBeRepaired() throws {
        let directory = TemporaryDirectory()
        for type in [AudioFileType.wave, .aiff, .caf] {
            let format: StreamFormat = .linearPCM(sampleRate: 8000, channels: 1, bits: 16, isBigEndian: type == .aiff)
            let (bytes, recorder) = try Self.interruptedRecording(type, format, frames: 10, directory: directory)
            let path = directory.file("header-cut")
            try bytes.prefix(Int(recorder.dataOffset) - 3).write(to: URL(fileURLWithPath: path))
            do {
                _ = try AudioFile.repair(path: path)
                Issue.record("repair of a file cut in its header succeeded")
            } catch let error as AudioFileError {
                #expect(error.kind == .truncated)
                #expect(error.description.contains("before any audio"))
            }
            recorder.discard()
        }
    }

    @Test func commitsKeepTheHeaderValidWhileRecording() throws {
        guard toolAvailable("sox") else { return }
        let directory = TemporaryDirectory()
        let (_, recorder) = try Self.interruptedRecording(.wave, .linearPCM(sampleRate: 8000, channels: 1, bits: 16), frames: 1000,
                                                          directory: directory)
        // Commits every 0.05 s = 400 frames, checked after each 100-frame write: the last at 800 frames.
        #expect(try soxSamples(directory.file("recording")).count == 800)
        try recorder.commit()
        #expect(try soxSamples(directory.file("recording")).count == 1000)
        try recorder.close()
    }
}
