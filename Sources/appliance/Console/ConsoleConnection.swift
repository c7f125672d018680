import HAL

/// One peer of the console: the terminal or serial line a person types on, standard input from a script,
/// or one client of the control socket. It turns what arrives into lines and writes replies and events back,
/// as `ConsoleReply.wireLines` and `EVENT` lines.
///
/// On a terminal, libedit edits the line (prompt `appliance> `, history, cursor keys) and asynchronous lines
/// are printed above the line being typed, which is drawn again below them. Elsewhere lines are plain.
/// Everything runs on the control loop's thread.
final class ConsoleConnection {
    /// What reading brought.
    enum Incoming: Hashable, Sendable {
        case line([UInt8])
        /// A line too long to keep (its length in bytes).
        case overlong(Int)
        /// The peer is gone (end of input, ^D, a hang-up, a read error): close the connection.
        case end
    }

    private enum Endpoint {
        /// A terminal with libedit on it.
        case edited(LineEditor, input: StreamDescriptor, output: StreamDescriptor)
        case stream(input: StreamDescriptor, output: StreamDescriptor)
        case socket(UnixSocket)
    }

    /// For messages and logs: "standard input", "/dev/ttyAMA0", "control socket #3".
    let name: String
    /// `events on|off`: whether `EVENT` lines go to this peer.
    var eventsEnabled = false
    private(set) var isClosed = false
    /// Closed because a write failed (EPIPE: the reader went away), not because its input ended.
    private(set) var lostOutput = false
    private let endpoint: Endpoint
    private var splitter = ConsoleLineSplitter()
    /// Keeps the serial device open as long as the connection lives.
    private let device: Terminal?

    static let prompt = "appliance> "

    /// A console on `input` / `output` (standard input and output, or a serial device's descriptor twice):
    /// edited with libedit when both are terminals, plain lines otherwise (or when `lineEditing` is false).
    init(input: StreamDescriptor, output: StreamDescriptor, name: String, device: Terminal? = nil, lineEditing: Bool = true) {
        self.name = name
        self.device = device
        if lineEditing, input.isTerminal, output.isTerminal,
           let editor = try? LineEditor(input: input.rawValue, output: output.rawValue, prompt: Self.prompt) {
            endpoint = .edited(editor, input: input, output: output)
        } else {
            endpoint = .stream(input: input, output: output)
        }
    }

    /// One client of the control socket.
    init(socket: UnixSocket, name: String) {
        self.name = name
        device = nil
        endpoint = .socket(socket)
        try? socket.setSendTimeout(milliseconds: 1000)
    }

    deinit { close() }

    /// The descriptor to watch on the control loop.
    var descriptor: Int32 {
        switch endpoint {
        case .edited(_, let input, _), .stream(let input, _): input.rawValue
        case .socket(let socket): socket.descriptor
        }
    }

    /// A control-socket client (rather than the local console).
    var isSocket: Bool {
        if case .socket = endpoint { return true }
        return false
    }

    /// Whether libedit edits the lines (a person at a terminal).
    var isEdited: Bool {
        if case .edited = endpoint { return true }
        return false
    }

    /// Reads what the peer sent (call when the descriptor is readable) and returns it as lines, `.end` last
    /// when the peer is gone.
    func readAvailable() -> [Incoming] {
        guard !isClosed else { return [.end] }
        switch endpoint {
        case .edited(let editor, let input, _):
            // Checked before libedit reads: a hung-up terminal stays readable and gives it nothing.
            if Poll.isHungUp(input.rawValue) { return [.end] }
            return editor.readAvailable().map { input in
                switch input {
                case .line(let line): .line(Array(line.utf8))
                case .end: .end
                }
            }
        case .stream(let input, _):
            let bytes: [UInt8]
            do { bytes = try input.read() } catch { bytes = [] }
            return pieces(bytes)
        case .socket(let socket):
            let bytes: [UInt8]
            do { bytes = try socket.receive() } catch { bytes = [] }
            return pieces(bytes)
        }
    }

    /// Writes the reply: its result lines, then `OK` or `ERR ...`.
    func write(_ reply: ConsoleReply) {
        write(lines: reply.wireLines)
    }

    /// Writes an `EVENT` line if this peer asked for events.
    func send(_ event: ApplianceEvent) {
        guard eventsEnabled else { return }
        write(lines: [event.line])
    }

    /// Stops reading and writing; a socket is closed, a serial device too; standard input and output stay
    /// open (they are the process's). The terminal gets its settings back.
    func close() {
        guard !isClosed else { return }
        isClosed = true
        switch endpoint {
        case .edited(let editor, _, _): editor.stop()
        case .stream: break
        case .socket(let socket): socket.close()
        }
        device?.close()
    }

    private func pieces(_ bytes: [UInt8]) -> [Incoming] {
        guard !bytes.isEmpty else {
            // End of input: a last line without its newline still counts (`printf 'status' | ...`).
            return (splitter.finish().map { [incoming($0)] } ?? []) + [.end]
        }
        return splitter.feed(bytes).map(incoming)
    }

    private func incoming(_ piece: ConsoleLineSplitter.Piece) -> Incoming {
        switch piece {
        case .line(let line): .line(line)
        case .overlong(let count): .overlong(count)
        }
    }

    /// A peer that cannot take the lines (gone, or not reading within the send timeout) is closed.
    private func write(lines: [String]) {
        guard !isClosed, !lines.isEmpty else { return }
        do throws(SystemError) {
            switch endpoint {
            case .edited(let editor, _, _):
                editor.printAbove(lines)
            case .stream(_, let output):
                try output.write(Array(lines.map { $0 + "\n" }.joined().utf8))
            case .socket(let socket):
                try socket.send(Array(lines.map { $0 + "\n" }.joined().utf8))
            }
        } catch {
            lostOutput = true
            close()
        }
    }
}
