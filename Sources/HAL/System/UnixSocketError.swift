/// Why a Unix socket could not be listened on or connected to, in terms a person can act on.
public enum UnixSocketError: Error, Hashable, Sendable, CustomStringConvertible {
    /// Nothing listens at the path (no socket file, or a stale one nobody accepts on).
    case noListener(path: String)
    /// Another process already listens at the path.
    case inUse(path: String)
    /// Something that is not a socket is at the path; it is left alone.
    case notASocket(path: String)
    /// sockaddr_un holds 107 bytes of path.
    case pathTooLong(path: String)
    case system(SystemError)

    public var description: String {
        switch self {
        case .noListener(let path): "\(path): nothing listens there"
        case .inUse(let path): "\(path): another process already listens there (is another instance running?)"
        case .notASocket(let path): "\(path): exists and is not a socket; remove it or choose another path"
        case .pathTooLong(let path): "\(path): a socket path may be at most 107 bytes long"
        case .system(let error): error.description
        }
    }
}
