/// Log lines on standard error with the priority prefixes journald reads (sd-daemon(3): "<3>" error,
/// "<4>" warning, "<6>" informational), so `journalctl -p warning` finds the appliance's warnings. On a
/// terminal (a developer run) the prefixes are left out.
public struct ServiceLog: Sendable {
    public enum Priority: Int, Sendable {
        case error = 3
        case warning = 4
        case info = 6
    }

    private let prefixed: Bool
    private let write: @Sendable (String) -> Void

    /// Standard error; prefixes unless it is a terminal.
    public init() {
        self.init(prefixed: !StandardStream.error.isTerminal) { StandardStream.error.write($0) }
    }

    public init(prefixed: Bool, write: @escaping @Sendable (String) -> Void) {
        self.prefixed = prefixed
        self.write = write
    }

    /// The text as it goes out: one line per line of `message`, each with the prefix.
    public func format(_ priority: Priority, _ message: String) -> String {
        let lines = message.split(separator: "\n", omittingEmptySubsequences: false)
        let prefix = prefixed ? "<\(priority.rawValue)>" : ""
        return lines.map { prefix + $0 + "\n" }.joined()
    }

    public func log(_ priority: Priority, _ message: String) { write(format(priority, message)) }
    public func error(_ message: String) { log(.error, message) }
    public func warning(_ message: String) { log(.warning, message) }
    public func info(_ message: String) { log(.info, message) }
}
