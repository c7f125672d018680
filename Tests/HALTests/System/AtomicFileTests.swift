import Foundation
import Testing
@testable import HAL

/// The atomic-write helper, observed through the System layer's recording seam.
///
/// The expected order comes from the Linux man pages, not from our code: fsync(2) — "Calling fsync() does not
/// necessarily ensure that the entry in the directory containing the file has also reached disk. For that an
/// explicit fsync() on a file descriptor for the directory is also needed." — and rename(2), which replaces
/// the target in one step only with a name in the same file system (so the temporary file sits beside it).
/// Data first (write, fsync the file), then the name (rename), then the name's durability (fsync the directory).
struct AtomicFileTests {
    @Test func writeSyncsTheFileThenRenamesThenSyncsTheDirectory() throws {
        let directory = TemporaryDirectory()
        let target = directory.file("settings.json")
        let temporary = directory.path + "/.settings.json.\(getpid()).tmp"
        let calls = try SystemCallRecorder.recording(under: directory.path) {
            try AtomicFile.write(Array("{\"volume\": -12}".utf8), to: target)
        }
        #expect(calls == [
            .open(temporary), .write(temporary), .fsync(temporary), .close(temporary),
            .rename(temporary, target),
            .open(directory.path), .fsync(directory.path), .close(directory.path),
        ], "\(calls)")
        #expect(try String(contentsOfFile: target, encoding: .utf8) == "{\"volume\": -12}")
        #expect(!FileManager.default.fileExists(atPath: temporary))
    }

    @Test func replacesAnExistingFileWhole() throws {
        let directory = TemporaryDirectory()
        let target = directory.file("eq.svg")
        try AtomicFile.write(Array(repeating: 0x41, count: 10_000), to: target)
        try AtomicFile.write(Array("<svg/>".utf8), to: target)
        #expect(try String(contentsOfFile: target, encoding: .utf8) == "<svg/>")
        #expect(try FileManager.default.contentsOfDirectory(atPath: directory.path) == ["eq.svg"])
    }

    @Test func aMissingDirectoryIsATypedErrorWithAHint() throws {
        let directory = TemporaryDirectory()
        let target = directory.file("missing/out.wav")
        #expect(AtomicFile.problem(writing: target) == "directory '\(directory.path)/missing' does not exist")
        do {
            try AtomicFile.write([1, 2, 3], to: target)
            Issue.record("wrote into a directory that does not exist")
        } catch {
            #expect(error.errno == .noSuchFile)
            #expect(error.path == directory.path + "/missing/.out.wav.\(getpid()).tmp")
            #expect(error.reason == "cannot open: No such file or directory (ENOENT); check that the path and its directories exist")
        }
    }

    /// A power cut between the temporary file's creation and its rename leaves it behind; the next boot's
    /// daemon often has the same pid, so the same temporary name. That must not block every later write.
    @Test func aTemporaryFileLeftByAnEarlierRunDoesNotBlockTheNextWrite() throws {
        let directory = TemporaryDirectory()
        let target = directory.file("settings.json")
        FileManager.default.createFile(atPath: AtomicFile.temporaryPath(for: target), contents: Data([1, 2, 3]))
        try AtomicFile.write(Array("{}".utf8), to: target)
        #expect(try String(contentsOfFile: target, encoding: .utf8) == "{}")
        #expect(try FileManager.default.contentsOfDirectory(atPath: directory.path) == ["settings.json"])
    }

    @Test func aTemporaryFileThatIsAbandonedLeavesTheTargetAsItWas() throws {
        let directory = TemporaryDirectory()
        let target = directory.file("take.wav")
        try AtomicFile.write([1, 2, 3], to: target)
        let file = try AtomicFile.createTemporary(for: target)
        let temporary = file.path
        try write([9, 9], to: file)
        AtomicFile.abandon(temporary)
        try file.close()
        #expect(try Array(Data(contentsOf: URL(fileURLWithPath: target))) == [1, 2, 3])
        #expect(try FileManager.default.contentsOfDirectory(atPath: directory.path) == ["take.wav"])
    }
}

/// Writes `bytes` through `file` (at `offset`, or at the file position), from a buffer of its own: no closure
/// captures the non-copyable descriptor.
func write(_ bytes: [UInt8], to file: borrowing FileDescriptor, at offset: Int64? = nil) throws {
    let buffer = UnsafeMutableRawBufferPointer.allocate(byteCount: bytes.count, alignment: 1)
    defer { buffer.deallocate() }
    buffer.copyBytes(from: bytes)
    if let offset { try file.write(UnsafeRawBufferPointer(buffer), at: offset) } else { try file.write(UnsafeRawBufferPointer(buffer)) }
}
