/// This process: its id and its environment.
public enum CurrentProcess {
    public static var id: Int32 { Syscalls.getpid() }

    /// An environment variable; nil when it is not set.
    public static func environment(_ name: String) -> String? {
        Syscalls.getenv(name).map { String(cString: $0) }
    }
}
