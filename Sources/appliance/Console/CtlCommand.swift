import ArgumentParser
import HAL

/// `appliance ctl [--socket PATH] "vol 40"`: one console line to the running daemon over its control socket.
/// The reply's result lines go to standard output; the exit status says how it went: 0 on `OK`, 1 on
/// `ERR` (the `ERR` line on standard error), 2 when no daemon listens.
struct CtlCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "ctl",
        abstract: "Send one console command to the running appliance (e.g. appliance ctl vol 40).",
        discussion: "Exit status: 0 on OK, 1 on ERR (the ERR line on stderr), 2 when no appliance is running.")

    @Option(help: "The daemon's control socket (default: $APPLIANCE_SOCKET, else \(ControlSocket.defaultPath)).")
    var socket: String?

    @Argument(parsing: .captureForPassthrough, help: "The command line, in one argument or several words.")
    var words: [String] = []

    /// How long to wait for the final line (selftest and a recording's finalizing take a while).
    static let replyTimeoutMilliseconds: Int32 = 60_000

    func run() throws {
        let line = words.joined(separator: " ")
        guard !line.isEmpty else { fail(1, "no command given; try: appliance ctl help") }
        guard !line.contains("\n"), !line.contains("\r") else { fail(1, "the command must be one line") }
        let path = socket ?? ControlSocket.path
        let connection: UnixSocket
        do throws(UnixSocketError) {
            connection = try UnixSocket.connect(path: path)
        } catch .noListener {
            fail(2, "no appliance is running (no socket at \(path))")
        } catch .system(let error) where error.errno == .permissionDenied {
            fail(2, "cannot reach the appliance at \(path): \(error.errno); run as the service user or a member of its group")
        } catch {
            fail(2, "cannot reach the appliance: \(error)")
        }
        switch Self.exchange(line, over: connection, timeoutMilliseconds: Self.replyTimeoutMilliseconds) {
        case .reply(let lines, let final):
            if !lines.isEmpty { StandardStream.output.write(lines.map { $0 + "\n" }.joined()) }
            if final == "OK" { CurrentProcess.exit(0) }
            fail(1, final, prefixed: false)
        case .failed(let message):
            fail(1, message)
        }
    }

    enum Exchange: Equatable {
        /// Result lines, and the final `OK` or `ERR ...` line.
        case reply([String], final: String)
        case failed(String)
    }

    /// Sends `line` and reads up to the final line.
    static func exchange(_ line: String, over connection: UnixSocket, timeoutMilliseconds: Int32) -> Exchange {
        do throws(SystemError) {
            try connection.send(Array((line + "\n").utf8))
        } catch {
            return .failed("cannot send to the appliance: \(error.reason)")
        }
        var splitter = ConsoleLineSplitter(limit: 1 << 20)
        var lines: [String] = []
        while true {
            let ready: Bool
            do { ready = try connection.waitForInput(timeoutMilliseconds: timeoutMilliseconds) } catch { ready = false }
            guard ready else { return .failed("no answer from the appliance within \(timeoutMilliseconds / 1000) s") }
            let bytes: [UInt8]
            do throws(SystemError) { bytes = try connection.receive() } catch { return .failed("cannot read the answer: \(error.reason)") }
            guard !bytes.isEmpty else { return .failed("the appliance closed the connection before answering") }
            for piece in splitter.feed(bytes) {
                guard case .line(var raw) = piece else { continue }
                if raw.last == UInt8(ascii: "\r") { raw.removeLast() }
                let text = String(decoding: raw, as: UTF8.self)
                if text == "OK" || text.hasPrefix("ERR ") { return .reply(lines, final: text) }
                // Events are not asked for here; a stray one is not a result line.
                if !text.hasPrefix("EVENT ") { lines.append(text) }
            }
        }
    }

    private func fail(_ status: Int32, _ message: String, prefixed: Bool = true) -> Never {
        StandardStream.error.write((prefixed ? "appliance: " : "") + message + "\n")
        CurrentProcess.exit(status)
    }
}
