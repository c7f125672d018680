/// One thing wrong in a board file, said so a person can fix it without reading the source:
/// `board-configs/foo.yaml:12: codec.address: 0x80 is not a 7-bit I2C address (0x08...0x77)`.
public struct BoardConfigError: Error, Hashable, Sendable, CustomStringConvertible {
    public var file: String
    public var line: Int
    /// The dotted path of the field (`codec.address`, `buttons[1].line`); empty for a YAML syntax error.
    public var field: String
    public var message: String
    /// What to write instead, or the valid range; empty when the message says it all.
    public var hint: String

    public init(file: String, line: Int, field: String, message: String, hint: String = "") {
        self.file = file
        self.line = line
        self.field = field
        self.message = message
        self.hint = hint
    }

    public var description: String {
        let location = field.isEmpty ? "\(file):\(line)" : "\(file):\(line): \(field)"
        return hint.isEmpty ? "\(location): \(message)" : "\(location): \(message) (\(hint))"
    }
}

/// Every error of one board file (a check reports them all at once, not one per run), in line order.
public struct BoardConfigErrors: Error, Hashable, Sendable, CustomStringConvertible {
    public var errors: [BoardConfigError]

    public init(_ errors: [BoardConfigError]) {
        self.errors = errors
    }

    /// One error per line.
    public var description: String { errors.map(\.description).joined(separator: "\n") }
}
