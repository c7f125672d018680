#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif

extension Syscalls {
    /// realpath(3) into a caller's buffer of PATH_MAX bytes.
    static func realpath(_ path: String, _ resolved: UnsafeMutablePointer<CChar>) -> UnsafeMutablePointer<CChar>? {
        Glibc.realpath(path, resolved)
    }
}

extension FileSystem {
    /// The absolute path `path` names once every symbolic link, `.` and `..` is resolved (realpath(3)): what
    /// a sandbox check must compare, since a link inside a directory may point anywhere. Throws when any part
    /// of the path does not exist (ENOENT) or cannot be searched (EACCES).
    public static func resolvedPath(_ path: String) throws(SystemError) -> String {
        var buffer = [CChar](repeating: 0, count: Int(PATH_MAX) + 1)
        let result = buffer.withUnsafeMutableBufferPointer { Syscalls.realpath(path, $0.baseAddress!) }
        guard result != nil else { throw SystemError.current("resolve", path: path) }
        let length = buffer.firstIndex(of: 0) ?? buffer.count
        return String(decoding: buffer[..<length].map { UInt8(bitPattern: $0) }, as: UTF8.self)
    }
}
