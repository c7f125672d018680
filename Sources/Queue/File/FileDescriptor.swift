#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// An open file, closed when the owner goes away. Positional reads and writes (pread/pwrite) only, so a
/// header rewrite never disturbs the append position. Errors become `AudioFileError`s naming the path.
final class FileDescriptor {
    let path: String
    private(set) var fd: Int32

    private init(path: String, fd: Int32) {
        self.path = path
        self.fd = fd
    }

    deinit { if fd >= 0 { _ = Glibc.close(fd) } }

    static func open(_ path: String, writable: Bool) throws -> FileDescriptor {
        let fd = Glibc.open(path, (writable ? O_RDWR : O_RDONLY) | O_CLOEXEC)
        guard fd >= 0 else { throw error("cannot open", path) }
        var info = stat()
        if fstat(fd, &info) == 0, (info.st_mode & S_IFMT) == S_IFDIR {
            _ = Glibc.close(fd)
            throw AudioFileError(.io, "cannot open: it is a directory", path: path)
        }
        return FileDescriptor(path: path, fd: fd)
    }

    /// Creates (truncating) `path`; with `exclusive`, fails if it exists (for temporary names).
    static func create(_ path: String, exclusive: Bool = false) throws -> FileDescriptor {
        let flags = O_RDWR | O_CREAT | O_CLOEXEC | (exclusive ? O_EXCL : O_TRUNC)
        let fd = Glibc.open(path, flags, 0o644)
        guard fd >= 0 else { throw error("cannot create", path) }
        return FileDescriptor(path: path, fd: fd)
    }

    static func error(_ what: String, _ path: String) -> AudioFileError {
        AudioFileError(.io, "\(what): \(String(cString: strerror(errno)))", path: path)
    }

    var length: Int64 {
        get throws {
            var info = stat()
            guard fstat(fd, &info) == 0 else { throw Self.error("cannot stat", path) }
            return Int64(info.st_size)
        }
    }

    /// Reads up to `count` bytes at `offset`; fewer only at the end of the file.
    func read(into buffer: UnsafeMutableRawPointer, count: Int, at offset: Int64) throws -> Int {
        var done = 0
        while done < count {
            let n = pread(fd, buffer + done, count - done, off_t(offset + Int64(done)))
            if n < 0 {
                if errno == EINTR { continue }
                throw Self.error("cannot read", path)
            }
            if n == 0 { break }
            done += n
        }
        return done
    }

    func read(count: Int, at offset: Int64) throws -> [UInt8] {
        guard count > 0 else { return [] }
        var bytes = [UInt8](repeating: 0, count: count)
        let n = try bytes.withUnsafeMutableBytes { try read(into: $0.baseAddress!, count: count, at: offset) }
        if n < count { bytes.removeLast(count - n) }
        return bytes
    }

    func write(_ buffer: UnsafeRawPointer, count: Int, at offset: Int64) throws {
        var done = 0
        while done < count {
            let n = pwrite(fd, buffer + done, count - done, off_t(offset + Int64(done)))
            if n < 0 {
                if errno == EINTR { continue }
                throw Self.error("cannot write", path)
            }
            done += n
        }
    }

    func write(_ bytes: [UInt8], at offset: Int64) throws {
        try bytes.withUnsafeBytes { try write($0.baseAddress!, count: $0.count, at: offset) }
    }

    func truncate(to length: Int64) throws {
        guard ftruncate(fd, off_t(length)) == 0 else { throw Self.error("cannot truncate", path) }
    }

    func synchronize() throws {
        guard fdatasync(fd) == 0 else { throw Self.error("cannot sync", path) }
    }

    func close() throws {
        guard fd >= 0 else { return }
        let result = Glibc.close(fd)
        fd = -1
        guard result == 0 else { throw Self.error("cannot close", path) }
    }
}

/// A `ByteSource` over a whole file, for the container parsers.
struct FileByteSource: ByteSource {
    let file: FileDescriptor
    let length: Int64?

    init(_ file: FileDescriptor) throws {
        self.file = file
        length = try file.length
    }

    func bytes(at offset: Int64, count: Int) throws -> [UInt8]? {
        guard let length, offset < length, offset >= 0 else { return [] }
        return try file.read(count: Int(min(Int64(count), length - offset)), at: offset)
    }
}
