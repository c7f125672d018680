/// Where a node starts in its file (1-based), so every error can point at the line a person has to edit.
public struct YAMLMark: Hashable, Sendable, CustomStringConvertible {
    public var line: Int
    public var column: Int

    public init(line: Int, column: Int) {
        self.line = line
        self.column = column
    }

    public var description: String { "\(line):\(column)" }
}

/// How a scalar was written: quoting decides whether `0x1a` is a number or text and `""` is empty, not absent.
public enum YAMLScalarStyle: Hashable, Sendable {
    case plain
    case singleQuoted
    case doubleQuoted
}

/// One key of a mapping with its value; the key's own mark names the line of a duplicate or unknown key.
public struct YAMLEntry: Hashable, Sendable {
    public var key: String
    public var keyMark: YAMLMark
    public var value: YAMLNode

    public init(key: String, keyMark: YAMLMark, value: YAMLNode) {
        self.key = key
        self.keyMark = keyMark
        self.value = value
    }
}

/// A node of the YAML subset `YAMLReader` reads: a scalar, a mapping (keys in file order) or a sequence.
public struct YAMLNode: Hashable, Sendable {
    public indirect enum Content: Hashable, Sendable {
        case scalar(String, YAMLScalarStyle)
        /// `key:` with nothing after it and nothing indented below it.
        case empty
        case mapping([YAMLEntry])
        case sequence([YAMLNode])
    }

    public var content: Content
    public var mark: YAMLMark

    public init(_ content: Content, at mark: YAMLMark) {
        self.content = content
        self.mark = mark
    }

    public var line: Int { mark.line }

    /// The scalar's text, whatever its style; nil for mappings, sequences and empty values.
    public var scalarText: String? {
        if case .scalar(let text, _) = content { return text }
        return nil
    }

    public var entries: [YAMLEntry]? {
        if case .mapping(let entries) = content { return entries }
        return nil
    }

    public var items: [YAMLNode]? {
        if case .sequence(let items) = content { return items }
        return nil
    }

    /// The value under `key` of a mapping.
    public subscript(key: String) -> YAMLNode? {
        entries?.first { $0.key == key }?.value
    }

    /// What the node is, for "expected a number, found a mapping" messages.
    public var kindName: String {
        switch content {
        case .scalar: "a value"
        case .empty: "nothing"
        case .mapping: "a mapping"
        case .sequence: "a list"
        }
    }
}
