/// The console's line splitter and parser, fed the input as a peer's bytes (serial line, stdin or the control
/// socket) in chunks: byte 0 chooses the chunk size (1...256). Every reply to a rejected line must be the one
/// `ERR` line the contract promises.
enum ConsoleFuzz {
    static func run(_ input: [UInt8]) {
        guard let first = input.first else { return }
        let chunk = Int(first) + 1
        var splitter = ConsoleLineSplitter()
        var offset = 1
        var lines: [ConsoleLineSplitter.Piece] = []
        while offset < input.count {
            let end = min(input.count, offset + chunk)
            lines += splitter.feed(Array(input[offset..<end]))
            offset = end
        }
        if let last = splitter.finish() { lines.append(last) }
        for piece in lines {
            check(outcome(of: piece))
        }
    }

    /// What the console does with one piece (ConsoleServer's order: an overlong line is refused unread).
    static func outcome(of piece: ConsoleLineSplitter.Piece) -> ConsoleParser.Outcome {
        switch piece {
        case .line(let bytes):
            precondition(bytes.count <= ConsoleParser.maximumLineBytes + 1, "the splitter kept a \(bytes.count)-byte line")
            return ConsoleParser.parse(bytes)
        case .overlong(let count):
            return .rejected(ConsoleParser.overlong(count))
        }
    }

    static func check(_ outcome: ConsoleParser.Outcome) {
        guard case .rejected(let reply) = outcome else { return }
        guard case .error = reply.outcome else { preconditionFailure("a rejected line was answered OK") }
        let line = reply.finalLine
        precondition(line.hasPrefix("ERR ") && !line.contains("\n") && !line.contains("\r"), "not one ERR line: \(line)")
    }
}
