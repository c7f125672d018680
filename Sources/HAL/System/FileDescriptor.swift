#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif

/// An open file descriptor and its one owner: closed exactly once, by `close()` or when the owner goes away.
/// Every call retries on `EINTR` and throws a `SystemError` naming the path it was opened with.
///
/// Plain stored properties and borrowing/consuming funcs only: Swift 6.0.3 miscompiles computed accessors
/// on non-copyable structs. A shared owner (a class) keeps it in an optional and `take()`s it to close.
public struct FileDescriptor: ~Copyable {
    /// The kernel's number; valid while this owner lives.
    public let rawValue: Int32
    /// The path it was opened with, for messages.
    public let path: String
    /// Set by `close()` so that the deinit that follows it does not close again.
    private var closed = false

    /// How to open: the access mode and the creation flags (`O_CLOEXEC` is always added).
    public struct Mode: Sendable, Hashable {
        let flags: Int32
        public static let readOnly = Mode(flags: O_RDONLY)
        public static let writeOnly = Mode(flags: O_WRONLY)
        public static let readWrite = Mode(flags: O_RDWR)
        /// Read/write, created or truncated.
        public static let createOrTruncate = Mode(flags: O_RDWR | O_CREAT | O_TRUNC)
        /// Read/write, created; fails with EEXIST when something is there (for temporary names).
        public static let createNew = Mode(flags: O_RDWR | O_CREAT | O_EXCL)
        /// A directory, opened only to sync it.
        public static let directory = Mode(flags: O_RDONLY | O_DIRECTORY)
        /// Adds `O_NONBLOCK`.
        public var nonBlocking: Mode { Mode(flags: flags | O_NONBLOCK) }
    }

    /// Opens `path`; files it creates get `permissions`.
    public init(opening path: String, _ mode: Mode, permissions: UInt32 = 0o644) throws(SystemError) {
        let descriptor = try retrying("open", path) { Syscalls.open(path, mode.flags | O_CLOEXEC, mode_t(permissions)) }
        self.rawValue = Int32(descriptor)
        self.path = path
    }

    /// Takes over a descriptor someone else opened (a pipe end); `path` names it in messages.
    public init(adopting rawValue: Int32, path: String) {
        self.rawValue = rawValue
        self.path = path
    }

    deinit { if !closed { _ = Syscalls.close(rawValue) } }

    /// Closes it now and says whether that worked (a failed close can be a lost write on NFS or FUSE).
    /// (Not `discard self`: Swift 6.0 allows that only on types whose stored properties are all trivial.)
    public consuming func close() throws(SystemError) {
        closed = true
        guard Syscalls.close(rawValue) == 0 else { throw SystemError.current("close", path: path) }
    }

    /// Reads what is there now, up to `buffer.count` bytes; 0 at the end of the file.
    public borrowing func read(into buffer: UnsafeMutableRawBufferPointer) throws(SystemError) -> Int {
        try retrying("read", path) { Syscalls.read(rawValue, buffer.baseAddress, buffer.count) }
    }

    /// Reads `buffer.count` bytes from `offset` (pread: the file position stays); fewer only at the end.
    public borrowing func read(into buffer: UnsafeMutableRawBufferPointer, at offset: Int64) throws(SystemError) -> Int {
        var done = 0
        while done < buffer.count {
            let count = try retrying("read", path) {
                Syscalls.pread(rawValue, buffer.baseAddress! + done, buffer.count - done, offset + Int64(done))
            }
            if count == 0 { break }
            done += count
        }
        return done
    }

    /// Writes all of `bytes` at the file position.
    public borrowing func write(_ bytes: UnsafeRawBufferPointer) throws(SystemError) {
        var done = 0
        while done < bytes.count {
            done += try retrying("write", path) { Syscalls.write(rawValue, bytes.baseAddress! + done, bytes.count - done) }
        }
    }

    /// Writes all of `bytes` at `offset` (pwrite: the file position stays).
    public borrowing func write(_ bytes: UnsafeRawBufferPointer, at offset: Int64) throws(SystemError) {
        var done = 0
        while done < bytes.count {
            done += try retrying("write", path) {
                Syscalls.pwrite(rawValue, bytes.baseAddress! + done, bytes.count - done, offset + Int64(done))
            }
        }
    }

    /// Moves the file position (`SEEK_SET`, `SEEK_CUR`, `SEEK_END`); returns the new one.
    @discardableResult
    public borrowing func seek(to offset: Int64, from whence: Int32 = SEEK_SET) throws(SystemError) -> Int64 {
        try retrying("seek", path) { Syscalls.lseek(rawValue, offset, whence) }
    }

    public borrowing func truncate(to length: Int64) throws(SystemError) {
        try retrying("truncate", path) { Syscalls.ftruncate(rawValue, length) }
    }

    /// fsync: data and metadata on the storage (for a directory: the names in it).
    public borrowing func synchronize() throws(SystemError) {
        try retrying("sync", path) { Syscalls.fsync(rawValue) }
    }

    /// fdatasync: the data and the size, not the timestamps.
    public borrowing func synchronizeData() throws(SystemError) {
        try retrying("sync", path) { Syscalls.fdatasync(rawValue) }
    }

    /// fstat: kind and size.
    public borrowing func status() throws(SystemError) -> FileStatus {
        var info = stat()
        try retrying("stat", path) { Syscalls.fstat(rawValue, &info) }
        return FileStatus(info)
    }
}

/// Runs a call until it does not fail with `EINTR`; a failure becomes a `SystemError` on `path`.
@discardableResult
func retrying<Result: BinaryInteger>(_ operation: String, _ path: String, _ call: () -> Result) throws(SystemError) -> Result {
    do { return try retryingOnInterrupt(call) } catch { throw SystemError(operation, path: path, errno: error) }
}
