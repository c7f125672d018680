import Foundation
import Testing
@testable import HAL

struct FileDescriptorTests {
    @Test func positionalWritesAndReadsLeaveTheFilePositionAlone() throws {
        let directory = TemporaryDirectory()
        let file = try FileDescriptor(opening: directory.file("data"), .createOrTruncate)
        try write([1, 2, 3, 4], to: file)
        try write([9], to: file, at: 1)
        let position = try file.seek(to: 0, from: SEEK_CUR)
        #expect(position == 4)
        let buffer = UnsafeMutableRawBufferPointer.allocate(byteCount: 8, alignment: 1)
        defer { buffer.deallocate() }
        let count = try file.read(into: buffer, at: 0)
        #expect(count == 4)                                     // fewer only at the end of the file
        #expect(Array(buffer[..<4]) == [1, 9, 3, 4])
        let status = try file.status()
        #expect(status.kind == .regular && status.size == 4)
        try file.truncate(to: 2)
        let truncated = try file.status()
        #expect(truncated.size == 2)
        try file.close()
    }

    /// The descriptor is closed once: by `close()`, or when the owner goes away; never twice (a second close
    /// could close a number another thread has just been given).
    @Test func closesExactlyOnce() throws {
        let directory = TemporaryDirectory()
        let path = directory.file("once")
        var closes: [SystemCallRecorder.PathCall] = []
        closes = try SystemCallRecorder.recording(under: path) {
            let explicit = try FileDescriptor(opening: path, .createOrTruncate)
            try explicit.close()
            do { _ = try FileDescriptor(opening: path, .readOnly) }
        }.filter { if case .close = $0 { true } else { false } }
        #expect(closes == [.close(path), .close(path)])
    }

    @Test func openingWhatIsNotThereSaysWhatAndWhere() {
        do {
            _ = try FileDescriptor(opening: "/nonexistent/board.yaml", .readOnly)
            Issue.record("opened a file that does not exist")
        } catch {
            #expect(error.description == "/nonexistent/board.yaml: cannot open: No such file or directory (ENOENT); check that the path and its directories exist")
        }
    }
}
