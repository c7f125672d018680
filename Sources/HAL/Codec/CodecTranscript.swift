/// What a codec driver did on its control port, step by step: each recipe step with the exchanges it
/// caused on the wire (none when the cache already held the value, none for a wait), and the transfers
/// the driver made outside its recipes (reading an ID register). `CodecRecipe.run` returns one; a driver
/// collects them while its `transcript` is set, so `appliance codec trace` can show each write with its
/// reason and bytes from plain return values.
public struct CodecTranscript: Hashable, Sendable {
    public struct Entry: Hashable, Sendable {
        /// The recipe's name (or the operation's, for the driver's own transfers).
        public var recipe: String
        /// The step, or nil for a transfer the driver made outside its recipes.
        public var step: CodecStep?
        /// Why: the step's reason, or what the driver's own transfer was for.
        public var reason: String
        /// The exchanges on the wire, in order (failed attempts included).
        public var exchanges: [RegisterBusExchange]

        public init(recipe: String, step: CodecStep?, reason: String, exchanges: [RegisterBusExchange]) {
            self.recipe = recipe
            self.step = step
            self.reason = reason
            self.exchanges = exchanges
        }
    }

    public var entries: [Entry]

    public init(_ entries: [Entry] = []) { self.entries = entries }

    /// Every exchange, in order.
    public var exchanges: [RegisterBusExchange] { entries.flatMap(\.exchanges) }

    /// The time spent in the recipes' waits.
    public var totalDelay: Duration {
        entries.reduce(.zero) { total, entry in
            if case .delay(let duration, _)? = entry.step { return total + duration }
            return total
        }
    }

    public mutating func append(_ other: CodecTranscript) { entries += other.entries }

    /// Records a transfer the driver made itself, within `operation`, for `reason`.
    public mutating func append(driverTransfer exchanges: [RegisterBusExchange], in operation: String, reason: String) {
        entries.append(Entry(recipe: operation, step: nil, reason: reason, exchanges: exchanges))
    }
}
