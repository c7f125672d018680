/// Cuts the bytes a peer sends into lines (`\n`-terminated; a `\r` before it is the parser's to drop), holding
/// at most one line's worth: a line longer than the parser takes is not kept, only counted, and comes out
/// as `.overlong` when its end arrives, so a runaway sender cannot fill the daemon's memory.
struct ConsoleLineSplitter {
    enum Piece: Hashable, Sendable {
        case line([UInt8])
        /// A line of this many bytes (without its `\n`), too long to keep.
        case overlong(Int)
    }

    let limit: Int
    private var pending: [UInt8] = []
    /// The length of the line being dropped, once it went over `limit`.
    private var dropping: Int?

    init(limit: Int = ConsoleParser.maximumLineBytes) {
        self.limit = limit
    }

    mutating func feed(_ bytes: [UInt8]) -> [Piece] {
        var pieces: [Piece] = []
        var rest = bytes[...]
        while !rest.isEmpty {
            let newline = rest.firstIndex(of: UInt8(ascii: "\n"))
            let chunk = rest[..<(newline ?? rest.endIndex)]
            if let dropped = dropping {
                dropping = dropped + chunk.count
            } else if pending.count + chunk.count > limit + 1 {
                // One byte more than the limit is kept so a final `\r` can still be told apart.
                dropping = pending.count + chunk.count
                pending.removeAll()
            } else {
                pending += chunk
            }
            guard let newline else { break }
            pieces.append(takeLine())
            rest = rest[(newline + 1)...]
        }
        return pieces
    }

    /// The end of input: a last line without its `\n`, if there is one.
    mutating func finish() -> Piece? {
        guard dropping != nil || !pending.isEmpty else { return nil }
        return takeLine()
    }

    private mutating func takeLine() -> Piece {
        defer { pending.removeAll(); dropping = nil }
        if let dropped = dropping { return .overlong(dropped) }
        return .line(pending)
    }
}
