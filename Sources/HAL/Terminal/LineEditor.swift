#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif
import CEdit

/// Line editing and history on a terminal, through libedit's readline-compatible callback interface: the
/// control loop calls `readAvailable()` when the terminal is readable and gets whole lines back, never
/// blocking on a half-typed one; `printAbove` puts asynchronous lines (EVENT ...) above the line being edited
/// without corrupting it.
///
/// libedit keeps one editor per process, so one `LineEditor` may be active at a time (`busy` otherwise).
public final class LineEditor: @unchecked Sendable {
    public enum Failure: Error, Hashable, Sendable, CustomStringConvertible {
        /// Another LineEditor is active in this process.
        case busy
        case notATerminal
        case cannotOpenStreams

        public var description: String {
            switch self {
            case .busy: "another line editor is active (libedit keeps one per process)"
            case .notATerminal: "line editing needs a terminal; plain lines are read otherwise"
            case .cannotOpenStreams: "cannot open the terminal's streams for libedit"
            }
        }
    }

    /// What the keys typed so far gave.
    public enum Input: Hashable, Sendable {
        case line(String)
        /// ^D on an empty line.
        case end
    }

    nonisolated(unsafe) private static var active = false
    private let input: Int32
    private var stopped = false

    /// Starts editing on terminal `input` (echo on `output`) with `prompt`; the history keeps the last
    /// `historySize` lines.
    public init(input: Int32, output: Int32, prompt: String, historySize: Int = 200) throws(Failure) {
        guard !Self.active else { throw .busy }
        guard Terminal.isTerminal(input) else { throw .notATerminal }
        // libedit's streams are FILEs over duplicates, so closing them never closes the caller's descriptors.
        let inputCopy = Syscalls.fcntl(input, F_DUPFD_CLOEXEC, 0)
        let outputCopy = Syscalls.fcntl(output, F_DUPFD_CLOEXEC, 0)
        guard inputCopy >= 0, outputCopy >= 0, cedit_start(inputCopy, outputCopy, prompt, Int32(historySize)) == 0 else {
            if inputCopy >= 0 { _ = Syscalls.close(inputCopy) }
            if outputCopy >= 0 { _ = Syscalls.close(outputCopy) }
            throw .cannotOpenStreams
        }
        self.input = input
        Self.active = true
    }

    deinit { stop() }

    /// Handles the keys waiting on the terminal (call when it is readable); returns the lines they finished,
    /// in order, the end of input last if it came. Lines that are not blank go into the history.
    public func readAvailable() -> [Input] {
        var results: [Input] = []
        // Bounded: a terminal that stays readable but gives libedit nothing (an error) cannot hold the loop.
        var keys = 0
        repeat {
            keys += 1
            switch cedit_read_character() {
            case CEDIT_LINE:
                guard let pointer = cedit_take_line() else { continue }
                let line = String(cString: pointer)
                free(pointer)
                if line.contains(where: { $0 != " " && $0 != "\t" }) { cedit_add_history(line) }
                results.append(.line(line))
            case CEDIT_END:
                results.append(.end)
                return results
            default:
                break
            }
        } while keys < 4096 && hasInput()
        return results
    }

    /// Prints `lines` above the prompt and the half-typed line, which are drawn again below them.
    public func printAbove(_ lines: [String]) {
        guard !stopped, !lines.isEmpty else { return }
        // libedit leaves output processing on (OPOST, ONLCR): "\n" goes out as CR LF.
        cedit_print_above(lines.map { $0 + "\n" }.joined())
    }

    /// Gives the terminal back its settings; the editor cannot be used after.
    public func stop() {
        guard !stopped else { return }
        stopped = true
        cedit_stop()
        Self.active = false
    }

    private func hasInput() -> Bool {
        var entries = [pollfd(fd: input, events: Int16(POLLIN), revents: 0)]
        guard let ready = try? Poll.wait(&entries, timeoutMilliseconds: 0), ready > 0 else { return false }
        return entries[0].revents & Int16(POLLIN) != 0
    }
}
