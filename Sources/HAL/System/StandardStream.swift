/// Standard output and standard error, written unbuffered and whole (no Foundation in the firmware: it would
/// add tens of MB to a static build), for lines a rig or journald reads while the command still runs.
public enum StandardStream: Int32, Sendable {
    case output = 1
    case error = 2

    /// Writes all of `text`, retrying after signals; gives up silently if the stream is gone (a closed pipe).
    public func write(_ text: String) {
        var text = text
        text.withUTF8 { bytes in
            var offset = 0
            while offset < bytes.count {
                let written = Syscalls.write(rawValue, bytes.baseAddress! + offset, bytes.count - offset)
                if written < 0 && Errno.current == .interrupted { continue }
                if written <= 0 { return }
                offset += written
            }
        }
    }

    /// Whether a terminal reads it (progress bars only then).
    public var isTerminal: Bool { Syscalls.isatty(rawValue) }
}
