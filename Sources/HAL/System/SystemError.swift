/// A failed system call: what was being done, to which path (when there is one), the typed `errno`, and the
/// hint that goes with it. Layers above wrap it in their own errors or show it as it is.
public struct SystemError: Error, Hashable, Sendable, CustomStringConvertible {
    /// What failed, as a verb phrase: "open", "write", "rename to 'x.wav'".
    public let operation: String
    public let path: String
    public let errno: Errno

    public init(_ operation: String, path: String, errno: Errno) {
        self.operation = operation
        self.path = path
        self.errno = errno
    }

    /// The error the calling thread's `errno` holds right now.
    static func current(_ operation: String, path: String) -> SystemError {
        SystemError(operation, path: path, errno: .current)
    }

    /// "cannot <operation>: <message> (ENAME)", and the hint after a semicolon; the path is the caller's to show.
    public var reason: String {
        let hint = errno.hint
        return "cannot \(operation): \(errno)" + (hint.isEmpty ? "" : "; \(hint)")
    }

    public var description: String { "\(path): \(reason)" }
}
