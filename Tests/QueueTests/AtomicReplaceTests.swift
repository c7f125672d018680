import Codec8_24
import Foundation
import Testing
@testable import HAL
@testable import Queue

/// `AudioFileWriteOptions.replaceAtomically`: the file grows under a temporary name; `close()` hands it to HAL's
/// atomic-write helper. Order per fsync(2) (the directory entry needs "an explicit fsync() on a file descriptor
/// for the directory") and rename(2): data, fsync(file), rename, fsync(directory).
struct AtomicReplaceTests {
    @Test func closeSyncsTheFileRenamesItThenSyncsTheDirectory() throws {
        let signal = testSignal(frames: 4800, channels: 2)
        let directory = TemporaryDirectory()
        let target = directory.file("take.wav")
        let temporary = directory.path + "/.take.wav.\(getpid()).tmp"
        let calls = try SystemCallRecorder.recording(under: directory.path) {
            let file = try AudioFile.create(path: target, type: .wave,
                                            format: .linearPCM(sampleRate: 48000, channels: 2, bits: 16),
                                            options: AudioFileWriteOptions(replaceAtomically: true))
            try signal.withUnsafeBufferPointer { try file.writeFrames($0) }
            #expect(!FileManager.default.fileExists(atPath: target))     // nothing at the target until close
            try file.close()
        }
        #expect(calls == [
            .open(temporary), .write(temporary), .fsync(temporary), .close(temporary),
            .rename(temporary, target),
            .open(directory.path), .fsync(directory.path), .close(directory.path),
        ], "\(calls)")
        let reopened = try AudioFile.open(path: target)
        #expect(reopened.frameCount == 4800)
        #expect(try FileManager.default.contentsOfDirectory(atPath: directory.path) == ["take.wav"])
    }

    @Test func aDiscardedAtomicWriteLeavesTheOldFile() throws {
        let directory = TemporaryDirectory()
        let target = directory.file("take.wav")
        try Data([1, 2, 3]).write(to: URL(fileURLWithPath: target))
        let file = try AudioFile.create(path: target, type: .wave, format: .linearPCM(sampleRate: 48000, channels: 1, bits: 16),
                                        options: AudioFileWriteOptions(replaceAtomically: true))
        file.discard()
        #expect(try Array(Data(contentsOf: URL(fileURLWithPath: target))) == [1, 2, 3])
        #expect(try FileManager.default.contentsOfDirectory(atPath: directory.path) == ["take.wav"])
    }

    /// A crash-safe recording in place (synchronizeOnCommit): its data is synced at each commit, and its new
    /// name must be too, or a power cut can leave the synced data without a directory entry. Expected order
    /// from fsync(2) as above: fsync(file) keeps the data, fsync(directory) the entry.
    @Test func aSynchronizedRecordingSyncsItsDirectoryWhenCreated() throws {
        let directory = TemporaryDirectory()
        let target = directory.file("recording.caf")
        let calls = try SystemCallRecorder.recording(under: directory.path) {
            let file = try AudioFile.create(path: target, type: .caf,
                                            format: .linearPCM(sampleRate: 48000, channels: 1, bits: 16),
                                            options: AudioFileWriteOptions(synchronizeOnCommit: true))
            file.discard()
        }
        #expect(calls == [
            .open(target), .write(target), .fsync(target),
            .open(directory.path), .fsync(directory.path), .close(directory.path),
            .close(target),
        ], "\(calls)")
    }
}
