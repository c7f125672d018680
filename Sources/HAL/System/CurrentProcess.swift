/// This process: its id and its environment.
public enum CurrentProcess {
    public static var id: Int32 { Syscalls.getpid() }

    /// Ends the process now with `status` (0: success).
    public static func exit(_ status: Int32) -> Never { Syscalls.exit(status) }

    /// An environment variable; nil when it is not set.
    public static func environment(_ name: String) -> String? {
        Syscalls.getenv(name).map { String(cString: $0) }
    }
}
