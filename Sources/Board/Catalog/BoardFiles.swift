import Glibc

/// Why a board file or directory could not be read.
public struct BoardFileError: Error, Hashable, Sendable, CustomStringConvertible {
    public var path: String
    public var reason: String

    public init(path: String, reason: String) {
        self.path = path
        self.reason = reason
    }

    public var description: String { "cannot read '\(path)': \(reason)" }
}

/// The few file-system calls the board catalog needs, on Glibc directly (no Foundation in the firmware),
/// wrapped here and nowhere else.
enum BoardFiles {
    /// The whole file as UTF-8 text.
    static func read(_ path: String) throws(BoardFileError) -> String {
        let descriptor = open(path, O_RDONLY | O_CLOEXEC)
        guard descriptor >= 0 else { throw BoardFileError(path: path, reason: errnoText(errno)) }
        defer { close(descriptor) }
        var bytes: [UInt8] = []
        var chunk = [UInt8](repeating: 0, count: 4096)
        while true {
            let count = chunk.withUnsafeMutableBytes { Glibc.read(descriptor, $0.baseAddress, $0.count) }
            if count < 0 {
                if errno == EINTR { continue }
                throw BoardFileError(path: path, reason: errnoText(errno))
            }
            if count == 0 { break }
            bytes.append(contentsOf: chunk[0..<count])
            if bytes.count > 1 << 20 { throw BoardFileError(path: path, reason: "larger than 1 MiB, not a board file") }
        }
        return String(decoding: bytes, as: UTF8.self)
    }

    /// The names in a directory, sorted; nil when it does not exist or is not a directory.
    static func list(_ directory: String) -> [String]? {
        guard let stream = opendir(directory) else { return nil }
        defer { closedir(stream) }
        var names: [String] = []
        while let entry = readdir(stream) {
            let name = withUnsafePointer(to: entry.pointee.d_name) {
                $0.withMemoryRebound(to: CChar.self, capacity: 256) { String(cString: $0) }
            }
            if name != ".", name != ".." { names.append(name) }
        }
        return names.sorted()
    }

    static func isRegularFile(_ path: String) -> Bool {
        var info = stat()
        return stat(path, &info) == 0 && (info.st_mode & S_IFMT) == S_IFREG
    }

    static func environment(_ name: String) -> String? {
        getenv(name).map { String(cString: $0) }
    }

    static func errnoText(_ code: Int32) -> String {
        switch code {
        case ENOENT: "no such file or directory"
        case EACCES: "permission denied"
        case EISDIR: "is a directory"
        default: String(cString: strerror(code))
        }
    }
}
