/// A file as a codec library's read callbacks see it: a position, sequential reads, seeks, the length.
/// Libraries (libFLAC, libmpg123, libopusfile, FFmpeg's AVIOContext) are opened on callbacks into this, never
/// on a path, so every system call stays HAL's (through `FileDescriptor`), and errors keep the file's path.
final class LibraryInput {
    let file: FileDescriptor
    let length: Int64
    private(set) var position: Int64 = 0
    /// The first error a callback met (the library only sees "failed"); readers rethrow it.
    var failure: AudioFileError?
    /// The file's bytes from `aheadStart`, `aheadCount` of them: libraries ask for a few bytes at a time
    /// (libmpg123 one byte per step while it looks for a frame header, then four for the header and the rest
    /// of the frame), and a system call each cost more than the decoding (the mp3 and opus fuzz targets spent
    /// 44 % of their time in the kernel, 190 preads an input).
    private let ahead: UnsafeMutableRawBufferPointer
    private var aheadStart: Int64 = 0
    private var aheadCount = 0
    /// Bytes read ahead at a time; a read at least this large goes straight to the caller's buffer.
    static let readAheadBytes = 16 * 1024

    /// `length`: read the file as if it ended there (repair asks a library about the part it would keep).
    init(_ file: FileDescriptor, length: Int64? = nil) throws {
        self.file = file
        let whole = try file.length
        self.length = min(length ?? whole, whole)
        ahead = .allocate(byteCount: Self.readAheadBytes, alignment: 16)
    }

    deinit { ahead.deallocate() }

    var path: String { file.path }
    var isAtEnd: Bool { position >= length }

    /// Reads up to `count` bytes at the position and advances past them (all of them unless the file ends
    /// first); 0 at the end, -1 on an error (kept in `failure`).
    func read(into buffer: UnsafeMutableRawPointer, count: Int) -> Int {
        guard count > 0, position < length else { return 0 }
        let wanted = Int(min(Int64(count), length - position))
        var done = 0
        do {
            while done < wanted {
                let offset = position - aheadStart
                if offset >= 0 && offset < Int64(aheadCount) {
                    let n = min(wanted - done, aheadCount - Int(offset))
                    (buffer + done).copyMemory(from: ahead.baseAddress! + Int(offset), byteCount: n)
                    done += n
                    position += Int64(n)
                } else if wanted - done >= Self.readAheadBytes {
                    let n = try file.read(into: buffer + done, count: wanted - done, at: position)
                    done += n
                    position += Int64(n)
                    break
                } else {
                    aheadStart = position
                    aheadCount = try file.read(into: ahead.baseAddress!, count: Int(min(Int64(ahead.count), length - position)), at: position)
                    if aheadCount == 0 { break }   // the file is shorter than it was at open
                }
            }
            return done
        } catch {
            aheadCount = 0
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
