import HAL

/// An open audio file's descriptor, shared by the `AudioFile` and its parsers, closed when the last of them
/// goes away. Positional reads and writes (pread/pwrite) only, so a header rewrite never disturbs the append
/// position. The system calls are HAL's (`HAL.FileDescriptor`); errors become `AudioFileError`s naming the path.
final class FileDescriptor {
    let path: String
    private var descriptor: HAL.FileDescriptor?

    private init(path: String, descriptor: consuming HAL.FileDescriptor) {
        self.path = path
        self.descriptor = consume descriptor
    }

    static func open(_ path: String, writable: Bool) throws -> FileDescriptor {
        let file: FileDescriptor
        do throws(SystemError) {
            file = FileDescriptor(path: path, descriptor: try HAL.FileDescriptor(opening: path, writable ? .readWrite : .readOnly))
        } catch {
            throw failure(error)
        }
        if try file.withDescriptor({ (open) throws(SystemError) in try open.status().kind }) == .directory {
            throw AudioFileError(.io, "cannot open: it is a directory", path: path)
        }
        return file
    }

    /// Creates (truncating) `path`.
    static func create(_ path: String) throws -> FileDescriptor {
        do throws(SystemError) {
            return FileDescriptor(path: path, descriptor: try HAL.FileDescriptor(opening: path, .createOrTruncate))
        } catch {
            throw failure(error)
        }
    }

    /// Creates the temporary file an atomic write of `target` goes to (`AtomicFile`); its `path` is that name.
    static func createTemporary(for target: String) throws -> FileDescriptor {
        do throws(SystemError) {
            let descriptor = try AtomicFile.createTemporary(for: target)
            let path = descriptor.path
            return FileDescriptor(path: path, descriptor: descriptor)
        } catch {
            throw failure(error)
        }
    }

    /// Syncs the directory holding `path`, so that a file just created there keeps its name after a power cut.
    static func synchronizeDirectory(of path: String) throws {
        do throws(SystemError) { try FileSystem.synchronizeDirectory(FileSystem.split(path).directory) } catch {
            throw failure(error)
        }
    }

    static func failure(_ error: SystemError) -> AudioFileError {
        AudioFileError(.io, error.reason, path: error.path)
    }

    /// Runs `body` on the open descriptor; a closed one is a misuse.
    private func withDescriptor<T>(_ body: (borrowing HAL.FileDescriptor) throws(SystemError) -> T) throws -> T {
        let result: Result<T, SystemError>? = switch descriptor {
        case .some(let open): Result { () throws(SystemError) in try body(open) }
        case .none: nil
        }
        guard let result else { throw AudioFileError(.misuse, "the file is closed", path: path) }
        do throws(SystemError) { return try result.get() } catch { throw Self.failure(error) }
    }

    var length: Int64 {
        get throws { try withDescriptor { (file) throws(SystemError) in try file.status().size } }
    }

    /// Reads up to `count` bytes at `offset`; fewer only at the end of the file.
    func read(into buffer: UnsafeMutableRawPointer, count: Int, at offset: Int64) throws -> Int {
        try withDescriptor { (file) throws(SystemError) in
            try file.read(into: UnsafeMutableRawBufferPointer(start: buffer, count: count), at: offset)
        }
    }

    func read(count: Int, at offset: Int64) throws -> [UInt8] {
        guard count > 0 else { return [] }
        var bytes = [UInt8](repeating: 0, count: count)
        let n = try bytes.withUnsafeMutableBytes { try read(into: $0.baseAddress!, count: count, at: offset) }
        if n < count { bytes.removeLast(count - n) }
        return bytes
    }

    func write(_ buffer: UnsafeRawPointer, count: Int, at offset: Int64) throws {
        try withDescriptor { (file) throws(SystemError) in
            try file.write(UnsafeRawBufferPointer(start: buffer, count: count), at: offset)
        }
    }

    func write(_ bytes: [UInt8], at offset: Int64) throws {
        try bytes.withUnsafeBytes { try write($0.baseAddress!, count: $0.count, at: offset) }
    }

    func truncate(to length: Int64) throws {
        try withDescriptor { (file) throws(SystemError) in try file.truncate(to: length) }
    }

    func synchronize() throws {
        try withDescriptor { (file) throws(SystemError) in try file.synchronizeData() }
    }

    /// False once closed (by `close`, `commit`, or a codec library that closes the file it wrote).
    var isOpen: Bool {
        switch descriptor {
        case .some: true
        case .none: false
        }
    }

    func close() throws {
        guard let open = descriptor.take() else { return }
        do throws(SystemError) { try open.close() } catch { throw Self.failure(error) }
    }

    /// Finishes an atomic write (`createTemporary`): syncs, closes and renames this file over `target`, then
    /// syncs the directory (`AtomicFile.commit`).
    func commit(to target: String) throws {
        guard let open = descriptor.take() else { throw AudioFileError(.misuse, "the file is closed", path: path) }
        do throws(SystemError) { try AtomicFile.commit(open, to: target) } catch { throw Self.failure(error) }
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

    /// The file as if it ended at `length` (what it will hold once cut there).
    init(_ file: FileDescriptor, endingAt length: Int64) {
        self.file = file
        self.length = length
    }

    func bytes(at offset: Int64, count: Int) throws -> [UInt8]? {
        guard let length, offset < length, offset >= 0 else { return [] }
        return try file.read(count: Int(min(Int64(count), length - offset)), at: offset)
    }
}
