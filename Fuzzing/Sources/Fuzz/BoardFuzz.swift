import Board

/// The board-file loader (`--board PATH`, /etc/appliance/boards): the input is a board file, loaded from disk
/// as the daemon loads it; a refusal is the expected outcome, a crash or hang the finding.
enum BoardFuzz {
    static func run(_ input: [UInt8]) {
        let path = FuzzScratch.file(named: "board.yaml", holding: input)
        _ = try? BoardCatalog.load(path: path)
    }
}
