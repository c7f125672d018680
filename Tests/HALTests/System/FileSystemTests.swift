import Foundation
import Testing
@testable import HAL

struct FileSystemTests {
    /// Files under /proc report size 0 to stat (the first expectation checks it), so they are read to the end.
    @Test func procFilesAreReadToTheEndThoughTheySaySizeZero() throws {
        #expect(FileStatus.of("/proc/self/status")?.size == 0)
        let text = String(decoding: try FileSystem.contents(of: "/proc/self/status"), as: UTF8.self)
        #expect(text.hasPrefix("Name:\t"))
        #expect(text.contains("\nPid:\t\(getpid())\n"))
    }

    @Test func aFileOverTheLimitIsRefusedWithEFBIG() throws {
        let directory = TemporaryDirectory()
        let path = directory.file("big")
        try Data(repeating: 0x20, count: 5000).write(to: URL(fileURLWithPath: path))
        #expect(try FileSystem.contents(of: path, limit: 5000).count == 5000)
        #expect(throws: SystemError("read more than 4096 bytes", path: path, errno: .fileTooLarge)) {
            try FileSystem.contents(of: path, limit: 4096)
        }
    }

    @Test func entriesAreSortedWithoutDotsAndLinksAreRead() throws {
        let directory = TemporaryDirectory()
        for name in ["b", "a", "c10", "c9"] { FileManager.default.createFile(atPath: directory.file(name), contents: nil) }
        try FileManager.default.createSymbolicLink(atPath: directory.file("card"), withDestinationPath: "card0")
        #expect(FileSystem.entries(in: directory.path) == ["a", "b", "c10", "c9", "card"])
        #expect(FileSystem.entries(in: directory.file("a")) == nil)
        #expect(FileSystem.linkTarget(of: directory.file("card")) == "card0")
        #expect(FileSystem.linkTarget(of: directory.file("a")) == nil)
    }
}
