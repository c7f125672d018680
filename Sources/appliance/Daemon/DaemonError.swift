import HAL

/// Why the daemon cannot start, or why a command it handles itself failed; each maps onto one console error
/// code, and each message says what to do.
enum DaemonError: Error, Hashable, Sendable, CustomStringConvertible {
    /// Another process owns the codec and the PCM.
    case alreadyRunning(InstanceLock.Holder)
    case system(SystemError)
    case board(String)
    case denied(String)
    case notFound(String)
    case notAvailable(String)
    case device(String)

    var description: String {
        switch self {
        case .alreadyRunning(let holder): "the appliance is already running (\(holder)); stop it first (systemctl stop appliance)"
        case .system(let error): "\(error)"
        case .board(let message), .denied(let message), .notFound(let message), .notAvailable(let message),
             .device(let message): message
        }
    }

    /// The reply for a console command that failed this way.
    var reply: ConsoleReply {
        switch self {
        case .denied(let message): .error(.denied, message)
        case .notFound(let message): .error(.notFound, message)
        case .notAvailable(let message): .error(.state, message)
        case .device(let message), .board(let message): .error(.device, message)
        case .system(let error): .error(error.errno == .noSpace ? .full : .io, "\(error)")
        case .alreadyRunning: .error(.state, description)
        }
    }
}
