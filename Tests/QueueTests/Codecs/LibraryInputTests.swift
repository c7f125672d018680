import Foundation
import TestSupport
import Testing
@testable import Queue

/// `LibraryInput` reads ahead (libraries ask for a byte or a few at a time); what a library sees must still be the
/// file's bytes at the position, whatever the sizes and seeks. The reference is the file as Foundation reads it.
@Suite struct LibraryInputTests {
    @Test(arguments: [0, 1, 100, LibraryInput.readAheadBytes - 1, LibraryInput.readAheadBytes, 3 * LibraryInput.readAheadBytes + 5])
    func readsAndSeeksGiveTheFilesBytes(size: Int) throws {
        let directory = TemporaryDirectory()
        let path = directory.file("bytes.bin")
        var generator = SystemRandomNumberGenerator()
        let bytes = (0..<size).map { _ in UInt8.random(in: 0...255, using: &generator) }
        try Data(bytes).write(to: URL(fileURLWithPath: path))
        let input = try LibraryInput(FileDescriptor.open(path, writable: false))
        #expect(input.length == Int64(size))
        var buffer = [UInt8](repeating: 0, count: 2 * LibraryInput.readAheadBytes + 7)
        // Small reads walk the whole file, as a library looking for a frame header does.
        var position = 0
        while position < size {
            let count = [1, 4, 3, 417, 2048][position % 5]
            let n = buffer.withUnsafeMutableBytes { input.read(into: $0.baseAddress!, count: count) }
            #expect(n == min(count, size - position))
            #expect(Array(buffer[0..<n]) == Array(bytes[position..<(position + n)]))
            position += n
        }
        #expect(buffer.withUnsafeMutableBytes { input.read(into: $0.baseAddress!, count: 10) } == 0)
        // Seeks back, forward and from the end, each followed by reads of every kind of size.
        for (offset, whence) in [(0, Int32(0)), (Int64(size / 2), 0), (-7, 2), (-Int64(size / 3), 1), (5, 1), (Int64(size) + 3, 0)] {
            guard let target = input.seek(offset, whence: whence) else { continue }
            for count in [1, 5, LibraryInput.readAheadBytes + 1, 2 * LibraryInput.readAheadBytes + 7] {
                let at = Int(input.position)
                let n = buffer.withUnsafeMutableBytes { input.read(into: $0.baseAddress!, count: count) }
                let expected = at < size ? min(count, size - at) : 0
                #expect(n == expected, "seek to \(target), read \(count)")
                if n > 0 { #expect(Array(buffer[0..<n]) == Array(bytes[at..<(at + n)]), "seek to \(target), read \(count)") }
            }
        }
        #expect(input.failure == nil)
    }

    /// Repair reads a file as if it ended early: the read-ahead stops there too.
    @Test func aShortenedLengthIsTheEnd() throws {
        let directory = TemporaryDirectory()
        let path = directory.file("bytes.bin")
        let bytes = (0..<5000).map { UInt8($0 % 251) }
        try Data(bytes).write(to: URL(fileURLWithPath: path))
        let input = try LibraryInput(FileDescriptor.open(path, writable: false), length: 3000)
        var buffer = [UInt8](repeating: 0, count: 4000)
        #expect(buffer.withUnsafeMutableBytes { input.read(into: $0.baseAddress!, count: 1) } == 1)
        #expect(buffer.withUnsafeMutableBytes { input.read(into: $0.baseAddress!, count: 4000) } == 2999)
        #expect(Array(buffer[0..<2999]) == Array(bytes[1..<3000]))
        #expect(input.isAtEnd)
    }
}
