/// The answer to one console command: result lines, then exactly one final line, `OK` or
/// `ERR <code> <message>`, so a script can read up to that line and know how it went.
struct ConsoleReply: Hashable, Sendable {
    var lines: [String]
    var outcome: Outcome

    enum Outcome: Hashable, Sendable {
        case ok
        case error(ConsoleErrorCode, String)
    }

    static func ok(_ lines: [String] = []) -> ConsoleReply { ConsoleReply(lines: lines, outcome: .ok) }

    static func error(_ code: ConsoleErrorCode, _ message: String) -> ConsoleReply {
        ConsoleReply(lines: [], outcome: .error(code, message))
    }

    /// The final line. A message is one line: newlines in it become spaces.
    var finalLine: String {
        switch outcome {
        case .ok:
            return "OK"
        case .error(let code, let message):
            let flat = message.split(whereSeparator: { $0 == "\n" || $0 == "\r" }).joined(separator: " ")
            return "ERR \(code.rawValue) \(flat)"
        }
    }

    /// Every line of the reply, the final one last. Result lines never begin with `OK`, `ERR` or `EVENT`
    /// on their own (a two-space indent is added), so a reader can always find the end.
    var wireLines: [String] {
        lines.map { line in
            let reserved = line == "OK" || line.hasPrefix("ERR ") || line.hasPrefix("EVENT ")
            return reserved ? "  " + line : line
        } + [finalLine]
    }
}

/// Stable codes for `ERR`, for scripts; the message after it is for people.
enum ConsoleErrorCode: String, Hashable, Sendable, CaseIterable {
    /// Not a command.
    case unknown
    /// A command with wrong or missing arguments.
    case usage
    /// The line is too long, or not text.
    case input
    /// Not possible now (nothing is playing, already recording).
    case state
    /// No such file, preset, button.
    case notFound = "not-found"
    /// Outside the media directory, or not allowed on this board.
    case denied
    /// The disk is full or below the free-space threshold.
    case full
    /// The device (codec, PCM, GPIO) failed.
    case device
    /// A file could not be read or written.
    case io
    /// A bug: something that should not happen.
    case `internal`
}
