import HAL

/// The console's side of the daemon: the local console (standard input and output, or a serial device) and
/// every client of the control socket, all watched on the control loop. Each line is parsed; a command goes to
/// the daemon's `dispatch` and its reply back to the connection it came from; `events on|off` is answered
/// here (it is the connection's own state). Events are fanned out with `broadcast`.
///
/// Everything runs on the control loop's thread.
final class ConsoleServer {
    /// Runs a parsed command for a connection and answers it: the daemon's dispatcher.
    typealias Dispatch = (ConsoleCommand, ConsoleConnection) -> ConsoleReply

    private let loop: ControlLoop
    private let dispatch: Dispatch
    private var watches: [ObjectIdentifier: Int] = [:]
    private(set) var connections: [ConsoleConnection] = []
    private var listener: UnixSocket?
    private var listenerWatch: Int?
    private var accepted = 0
    /// Called when the local console ends (end of input, ^D, a hang-up); the daemon decides what that means
    /// (a script that ran out: shut down; a service: carry on with the socket).
    var onConsoleEnd: ((ConsoleConnection) -> Void)?

    init(loop: ControlLoop, dispatch: @escaping Dispatch) {
        self.loop = loop
        self.dispatch = dispatch
    }

    /// The console on standard input and output: libedit when both are terminals, plain lines otherwise.
    @discardableResult
    func attachStandardStreams(lineEditing: Bool = true) -> ConsoleConnection {
        attach(ConsoleConnection(input: StreamDescriptor(0, name: "standard input"),
                                 output: StreamDescriptor(1, name: "standard output"),
                                 name: "standard input", lineEditing: lineEditing))
    }

    /// The console on a serial device (`--console /dev/ttyAMA0 --baud 115200`).
    @discardableResult
    func attachSerial(path: String, baud: Int) throws(TerminalError) -> ConsoleConnection {
        let device = try Terminal(opening: path, baud: baud)
        let stream = StreamDescriptor(device.descriptor, name: path)
        return attach(ConsoleConnection(input: stream, output: stream, name: path, device: device))
    }

    /// Adds a connection made elsewhere (tests, a pipe) and watches it.
    @discardableResult
    func attach(_ connection: ConsoleConnection) -> ConsoleConnection {
        connections.append(connection)
        watches[ObjectIdentifier(connection)] = loop.watch(connection.descriptor) { [weak self, unowned connection] in
            self?.readable(connection)
        }
        return connection
    }

    /// Listens on the control socket at `path` (a stale socket of a dead daemon is replaced; a live one is
    /// `inUse`).
    func listen(path: String) throws(UnixSocketError) {
        let socket = try UnixSocket.listen(path: path)
        listener = socket
        listenerWatch = loop.watch(socket.descriptor) { [weak self] in self?.acceptWaiting() }
    }

    /// The control socket's path, while listening.
    var socketPath: String? { listener?.path }

    /// Sends `event` to every connection that said `events on`.
    func broadcast(_ event: ApplianceEvent) {
        for connection in connections where connection.eventsEnabled { connection.send(event) }
        removeClosed()
    }

    /// Closes every connection and the control socket (its path removed).
    func close() {
        for connection in connections { drop(connection) }
        connections.removeAll()
        if let listenerWatch { loop.unwatch(listenerWatch) }
        listenerWatch = nil
        listener?.close()
        listener = nil
    }

    /// One line, as if it had arrived on `connection`: parsed, run, answered.
    func handle(_ line: [UInt8], from connection: ConsoleConnection) {
        switch ConsoleParser.parse(line) {
        case .empty:
            return
        case .rejected(let reply):
            connection.write(reply)
        case .command(.events(let on)):
            connection.eventsEnabled = on
            connection.write(.ok())
        case .command(let command):
            connection.write(dispatch(command, connection))
        }
    }

    private func readable(_ connection: ConsoleConnection) {
        for incoming in connection.readAvailable() {
            guard !connection.isClosed else { break }
            switch incoming {
            case .line(let line):
                handle(line, from: connection)
            case .overlong(let count):
                connection.write(ConsoleParser.overlong(count))
            case .end:
                drop(connection)
                if !connection.isSocket { onConsoleEnd?(connection) }
            }
        }
        removeClosed()
    }

    /// The most control-socket clients served at once; one more is told so and closed, so a client that
    /// connects in a loop cannot exhaust the daemon's descriptors (each client holds one, and at most one
    /// line of `ConsoleParser.maximumLineBytes` buffered).
    static let maximumClients = 16

    private func acceptWaiting() {
        guard let listener else { return }
        while let socket = try? listener.accept() {
            accepted += 1
            if connections.filter(\.isSocket).count >= Self.maximumClients {
                let refusal = ConsoleReply.error(.state, "\(Self.maximumClients) control-socket clients are connected already; try again later")
                try? socket.setSendTimeout(milliseconds: 100)
                try? socket.send(Array(refusal.wireLines.map { $0 + "\n" }.joined().utf8))
                socket.close()
                continue
            }
            attach(ConsoleConnection(socket: socket, name: "control socket #\(accepted)"))
        }
    }

    private func drop(_ connection: ConsoleConnection) {
        if let token = watches.removeValue(forKey: ObjectIdentifier(connection)) { loop.unwatch(token) }
        connection.close()
    }

    /// Forgets closed connections; a console (not a socket peer) whose output failed has ended, like one
    /// whose input did.
    private func removeClosed() {
        for connection in connections where connection.isClosed {
            if let token = watches.removeValue(forKey: ObjectIdentifier(connection)) { loop.unwatch(token) }
            if connection.lostOutput && !connection.isSocket { onConsoleEnd?(connection) }
        }
        connections.removeAll { $0.isClosed }
    }
}
