/// A file as a codec library's read callbacks see it: a position, sequential reads, seeks, the length.
/// Libraries (libFLAC, libmpg123, libopusfile, FFmpeg's AVIOContext) are opened on callbacks into this, never
/// on a path, so every system call stays HAL's (through `FileDescriptor`), and errors keep the file's path.
final class LibraryInput {
    let file: FileDescriptor
    let length: Int64
    private(set) var position: Int64 = 0
    /// The first error a callback met (the library only sees "failed"); readers rethrow it.
    var failure: AudioFileError?

    /// `length`: read the file as if it ended there (repair asks a library about the part it would keep).
    init(_ file: FileDescriptor, length: Int64? = nil) throws {
        self.file = file
        let whole = try file.length
        self.length = min(length ?? whole, whole)
    }

    var path: String { file.path }
    var isAtEnd: Bool { position >= length }

    /// Reads up to `count` bytes at the position and advances past them; 0 at the end, -1 on an error (kept
    /// in `failure`).
    func read(into buffer: UnsafeMutableRawPointer, count: Int) -> Int {
        guard count > 0, position < length else { return 0 }
        do {
            let n = try file.read(into: buffer, count: Int(min(Int64(count), length - position)), at: position)
            position += Int64(n)
            return n
        } catch {
            failure = failure ?? (error as? AudioFileError) ?? AudioFileError(.io, "\(error)", path: path)
            return -1
        }
    }

    /// Moves to `offset` from the start (SEEK_SET), the position (SEEK_CUR) or the end (SEEK_END); the new
    /// position, or nil when it would be before the start.
    func seek(_ offset: Int64, whence: Int32) -> Int64? {
        guard let target = seekTarget(offset, whence: whence, position: position, length: length) else { return nil }
        position = target
        return target
    }
}

/// A file as a codec library's write callbacks see it (libFLAC's stream encoder, libopusenc, FFmpeg's
/// AVIOContext): writes at a position that seeks may move (headers rewritten at the end), through HAL.
final class LibraryOutput {
    let file: FileDescriptor
    private(set) var position: Int64 = 0
    /// The end of what has been written.
    private(set) var length: Int64 = 0
    var failure: AudioFileError?

    init(_ file: FileDescriptor) { self.file = file }

    var path: String { file.path }

    /// Writes `count` bytes at the position and advances; false on an error (kept in `failure`).
    func write(_ bytes: UnsafeRawPointer, count: Int) -> Bool {
        guard count > 0 else { return true }
        do {
            try file.write(bytes, count: count, at: position)
            position += Int64(count)
            length = max(length, position)
            return true
        } catch {
            failure = failure ?? (error as? AudioFileError) ?? AudioFileError(.io, "\(error)", path: path)
            return false
        }
    }

    /// Moves the write position (SEEK_SET, SEEK_CUR, SEEK_END as in `LibraryInput.seek`).
    func seek(_ offset: Int64, whence: Int32) -> Int64? {
        guard let target = seekTarget(offset, whence: whence, position: position, length: length) else { return nil }
        position = target
        return target
    }

    /// A writer's commit: a write a callback could not make is thrown now, then the data is synced when asked
    /// (fdatasync), so what the library has written so far survives a power cut.
    func commit(synchronizing: Bool) throws {
        if let failure { throw failure }
        if synchronizing { try file.synchronize() }
    }
}

/// Where a seek lands: `offset` from the start (SEEK_SET, 0), `position` (SEEK_CUR, 1) or `length` (SEEK_END,
/// 2); nil when before the start. One rule for the read and the write side.
func seekTarget(_ offset: Int64, whence: Int32, position: Int64, length: Int64) -> Int64? {
    let base: Int64 = switch whence {
    case 1: position
    case 2: length
    default: 0
    }
    let target = base + offset
    return target >= 0 ? target : nil
}
