/// Reads the small subset of YAML the board files use; anything outside it is an error naming the line, never
/// a silent guess (a board file decides which amplifier pin gets driven, so "mostly parsed" is not good enough).
///
/// The subset:
/// - block mappings `key: value`, nested by indenting with spaces (any consistent amount);
/// - block sequences `- item`, including sequences of mappings (`- name: a` with more keys indented to line up
///   with `name`), and a sequence at the same indent as its parent key (`key:` / `- item`);
/// - flow sequences of scalars on one line: `[a, b, "c"]`;
/// - scalars: plain (`wm8960`, `0x1a`, `-6.5`), single-quoted (`'it''s'`) and double-quoted with the escapes
///   `\"` `\\` `\n` `\t` and `\/`; integers are read later by the caller (decimal, or hexadecimal with `0x`);
/// - `#` comments at the start of a line or after whitespace, blank lines, and one `---` before the content.
///
/// Not in the subset, each reported as an error with its line: tabs in indentation, anchors `&a` and aliases
/// `*a`, tags `!t`, block scalars `|` and `>`, flow mappings `{...}`, nested flow sequences, multi-line scalars,
/// more than one document, duplicate keys, and indentation that does not line up.
///
/// Bounded, because a board file is small and a reader fed anything else must not take minutes or gigabytes
/// (fuzzing found both): at most `maximumDocumentBytes`, keys of at most `maximumKeyLength` characters, values of
/// at most `maximumValueLength`, at most `maximumKeysPerMapping` keys in one mapping; duplicate keys are found with
/// a table, in linear time.
public struct YAMLReader {
    /// Sixteen times the largest board file in board-configs/ (about 1.5 KiB).
    public static let maximumDocumentBytes = 64 << 10
    /// The longest key a board file uses is 11 characters.
    public static let maximumKeyLength = 64
    /// The board file's largest mapping has 13 keys.
    public static let maximumKeysPerMapping = 64
    /// The longest value in board-configs/ is a 76-character description; errors echo values, near-match
    /// looks them up.
    public static let maximumValueLength = 256

    private struct Line {
        var number: Int
        var indent: Int
        var text: [Character]
        var mark: YAMLMark { YAMLMark(line: number, column: indent + 1) }
    }

    private let file: String
    private var lines: [Line] = []
    private var index = 0

    private init(file: String) { self.file = file }

    /// The document in `text`; an empty document is an empty mapping. `file` only names the source in errors.
    public static func parse(_ text: String, file: String) throws(YAMLError) -> YAMLNode {
        var reader = YAMLReader(file: file)
        let size = text.utf8.count
        guard size <= maximumDocumentBytes else {
            throw reader.error(YAMLMark(line: 1, column: 1),
                               "the file is \(size) bytes; a board file is at most \(maximumDocumentBytes) (is it the right file?)")
        }
        try reader.split(text)
        guard let first = reader.lines.first else { return YAMLNode(.mapping([]), at: YAMLMark(line: 1, column: 1)) }
        guard first.indent == 0 else { throw reader.error(first.mark, "the document must start at column 1") }
        let root = try reader.block(indent: 0)
        if reader.index < reader.lines.count {
            let line = reader.lines[reader.index]
            throw reader.error(line.mark, "unexpected content after the document (check the indentation)")
        }
        return root
    }

    // MARK: Lines

    /// Cuts the text into significant lines: indentation measured, comments and trailing blanks removed.
    private mutating func split(_ text: String) throws(YAMLError) {
        var number = 0
        var seenContent = false
        for raw in text.split(separator: "\n", omittingEmptySubsequences: false) {
            number += 1
            var characters = Array(raw)
            if characters.last == "\r" { characters.removeLast() }
            var indent = 0
            while indent < characters.count, characters[indent] == " " { indent += 1 }
            if indent < characters.count, characters[indent] == "\t" {
                throw error(YAMLMark(line: number, column: indent + 1), "tab in indentation (indent with spaces)")
            }
            var content = try stripComment(Array(characters[indent...]), line: number, column: indent + 1)
            while let last = content.last, last == " " || last == "\t" { content.removeLast() }
            if content.isEmpty { continue }
            let mark = YAMLMark(line: number, column: indent + 1)
            if content == ["-", "-", "-"] {
                if seenContent || indent != 0 { throw error(mark, "only one document per file ('---' starts another)") }
                continue
            }
            if content == [".", ".", "."] { throw error(mark, "document end markers ('...') are not supported") }
            if content.first == "%" { throw error(mark, "directives ('%') are not supported") }
            seenContent = true
            lines.append(Line(number: number, indent: indent, text: content))
        }
    }

    /// The line without its comment. A quote opens a quoted scalar only where a scalar can start, so the
    /// apostrophe in `description: Pete's HAT` is text; `#` starts a comment only after whitespace.
    private func stripComment(_ text: [Character], line: Int, column: Int) throws(YAMLError) -> [Character] {
        var position = 0
        var tokenStart = true
        while position < text.count {
            let character = text[position]
            if tokenStart, character == "'" || character == "\"" {
                position = try endOfQuoted(text, from: position, mark: YAMLMark(line: line, column: column + position))
                tokenStart = false
                continue
            }
            if character == "#", position == 0 || text[position - 1] == " " || text[position - 1] == "\t" {
                return Array(text[..<position])
            }
            if character == " " || character == "\t" {
                // Whitespace keeps whatever came before: after ": " or "- " a scalar can start.
            } else if character == "[" || character == "," {
                tokenStart = true
            } else if (character == ":" || character == "-"),
                      position + 1 == text.count || text[position + 1] == " " {
                tokenStart = true
            } else {
                tokenStart = false
            }
            position += 1
        }
        return text
    }

    /// The index just past the closing quote of the quoted scalar opening at `start`.
    private func endOfQuoted(_ text: [Character], from start: Int, mark: YAMLMark) throws(YAMLError) -> Int {
        let quote = text[start]
        var position = start + 1
        while position < text.count {
            let character = text[position]
            if quote == "\"", character == "\\" {
                position += 2
                continue
            }
            if character == quote {
                if quote == "'", position + 1 < text.count, text[position + 1] == "'" {
                    position += 2
                    continue
                }
                return position + 1
            }
            position += 1
        }
        throw error(mark, "unterminated quoted string (quoted values must end on the same line)")
    }

    // MARK: Blocks

    /// The mapping or sequence whose lines start at `indent`.
    private mutating func block(indent: Int) throws(YAMLError) -> YAMLNode {
        let line = lines[index]
        if isSequenceItem(line.text) { return try sequence(indent: indent) }
        if try keySplit(line) != nil { return try mapping(indent: indent) }
        throw error(line.mark, "expected 'key: value' or '- item', found '\(String(line.text))'")
    }

    private func isSequenceItem(_ text: [Character]) -> Bool {
        text.first == "-" && (text.count == 1 || text[1] == " ")
    }

    private mutating func mapping(indent: Int) throws(YAMLError) -> YAMLNode {
        let start = lines[index].mark
        var entries: [YAMLEntry] = []
        var keyLines: [String: Int] = [:]
        while index < lines.count {
            let line = lines[index]
            if line.indent < indent { break }
            if line.indent > indent { throw error(line.mark, "bad indentation: expected column \(indent + 1)") }
            if isSequenceItem(line.text) {
                throw error(line.mark, "a list item where a key was expected (indent the list under its key)")
            }
            guard let (key, valueStart) = try keySplit(line) else {
                throw error(line.mark, "expected 'key: value', found '\(String(line.text))'")
            }
            guard key.count <= Self.maximumKeyLength else {
                throw error(line.mark, "a key of \(key.count) characters; keys are at most \(Self.maximumKeyLength)")
            }
            if let previous = keyLines[key] {
                throw error(line.mark, "duplicate key '\(key)' (first on line \(previous))")
            }
            guard entries.count < Self.maximumKeysPerMapping else {
                throw error(line.mark, "more than \(Self.maximumKeysPerMapping) keys in one mapping (from line \(start.line))")
            }
            keyLines[key] = line.number
            index += 1
            let value: YAMLNode
            let rest = Array(line.text[valueStart...].drop { $0 == " " })
            if rest.isEmpty {
                value = try nestedValue(under: line, parentIndent: indent, allowSameIndentSequence: true)
            } else {
                let column = line.indent + 1 + (line.text.count - rest.count)
                value = try inlineValue(rest, at: YAMLMark(line: line.number, column: column))
                if index < lines.count, lines[index].indent > indent {
                    throw error(lines[index].mark, "bad indentation: '\(key)' already has a value on line \(line.number)")
                }
            }
            entries.append(YAMLEntry(key: key, keyMark: line.mark, value: value))
        }
        return YAMLNode(.mapping(entries), at: start)
    }

    /// The block below `key:` or `-` with nothing after it: more indented lines, `key:` followed by a list at
    /// the key's own indent, or nothing (an empty value).
    private mutating func nestedValue(under line: Line, parentIndent: Int,
                                      allowSameIndentSequence: Bool) throws(YAMLError) -> YAMLNode {
        guard index < lines.count else { return YAMLNode(.empty, at: line.mark) }
        let next = lines[index]
        if next.indent > parentIndent { return try block(indent: next.indent) }
        if allowSameIndentSequence, next.indent == parentIndent, isSequenceItem(next.text) {
            return try sequence(indent: parentIndent)
        }
        return YAMLNode(.empty, at: line.mark)
    }

    private mutating func sequence(indent: Int) throws(YAMLError) -> YAMLNode {
        let start = lines[index].mark
        var items: [YAMLNode] = []
        while index < lines.count {
            let line = lines[index]
            if line.indent < indent { break }
            if line.indent > indent { throw error(line.mark, "bad indentation: expected column \(indent + 1)") }
            guard isSequenceItem(line.text) else { break }
            var offset = 1
            while offset < line.text.count, line.text[offset] == " " { offset += 1 }
            if offset == line.text.count {
                index += 1
                let value = try nestedValue(under: line, parentIndent: indent, allowSameIndentSequence: false)
                items.append(value)
                continue
            }
            // "- key: value": the rest of the line starts a mapping indented to where `key` stands.
            let inner = Line(number: line.number, indent: line.indent + offset, text: Array(line.text[offset...]))
            if isSequenceItem(inner.text) {
                throw error(inner.mark, "nested '- - item' lists are not supported (put the inner list under a key)")
            }
            if try keySplit(inner) != nil {
                lines[index] = inner
                items.append(try mapping(indent: inner.indent))
            } else {
                index += 1
                items.append(try inlineValue(inner.text, at: inner.mark))
                if index < lines.count, lines[index].indent > indent {
                    throw error(lines[index].mark, "bad indentation: the item on line \(line.number) already has a value")
                }
            }
        }
        return YAMLNode(.sequence(items), at: start)
    }

    // MARK: Keys and inline values

    /// `key` and where its value starts, if the line is `key: ...` or `key:` (the key plain or quoted).
    private func keySplit(_ line: Line) throws(YAMLError) -> (String, Int)? {
        let text = line.text
        if text.first == "'" || text.first == "\"" {
            let end = try endOfQuoted(text, from: 0, mark: line.mark)
            var position = end
            while position < text.count, text[position] == " " { position += 1 }
            guard position < text.count, text[position] == ":",
                  position + 1 == text.count || text[position + 1] == " " else { return nil }
            let key = try unquote(Array(text[..<end]), at: line.mark)
            return (key, position + 1)
        }
        if let first = text.first, "[{&*!|>".contains(first) { return nil }
        var position = 0
        while position < text.count {
            if text[position] == ":", position + 1 == text.count || text[position + 1] == " " {
                var key = Array(text[..<position])
                while key.last == " " { key.removeLast() }
                guard !key.isEmpty else { return nil }
                return (String(key), position + 1)
            }
            position += 1
        }
        return nil
    }

    /// A value written on the line of its key or dash: a scalar or a one-line flow sequence.
    private func inlineValue(_ text: [Character], at mark: YAMLMark) throws(YAMLError) -> YAMLNode {
        switch text.first {
        case "[": return try flowSequence(text, at: mark)
        case "{": throw error(mark, "flow mappings ('{...}') are not supported; write the keys on their own lines")
        case "&": throw error(mark, "anchors ('&') are not supported")
        case "*": throw error(mark, "aliases ('*') are not supported")
        case "!": throw error(mark, "tags ('!') are not supported")
        case "|", ">": throw error(mark, "block scalars ('|' and '>') are not supported; write the value on one line")
        default: return try scalar(text, at: mark)
        }
    }

    private func scalar(_ text: [Character], at mark: YAMLMark) throws(YAMLError) -> YAMLNode {
        guard text.count <= Self.maximumValueLength else {
            throw error(mark, "a value of \(text.count) characters; values are at most \(Self.maximumValueLength)")
        }
        if text.first == "'" || text.first == "\"" {
            let end = try endOfQuoted(text, from: 0, mark: mark)
            guard end == text.count else {
                throw error(mark, "unexpected text after the closing quote: '\(String(text[end...]))'")
            }
            let style: YAMLScalarStyle = text.first == "'" ? .singleQuoted : .doubleQuoted
            return YAMLNode(.scalar(try unquote(text, at: mark), style), at: mark)
        }
        if let first = text.first, "@`%".contains(first) {
            throw error(mark, "a plain value cannot start with '\(first)' (quote it)")
        }
        var position = 0
        while position < text.count {
            if text[position] == ":", position + 1 < text.count, text[position + 1] == " " {
                throw error(mark, "a plain value cannot contain ': ' (quote it, or nest the mapping on its own lines)")
            }
            position += 1
        }
        return YAMLNode(.scalar(String(text), .plain), at: mark)
    }

    /// The text of a quoted scalar, quotes removed and escapes resolved.
    private func unquote(_ text: [Character], at mark: YAMLMark) throws(YAMLError) -> String {
        let body = text.dropFirst().dropLast()
        var result = ""
        var iterator = body.makeIterator()
        if text.first == "'" {
            var pendingQuote = false
            for character in body {
                if character == "'" {
                    if pendingQuote { result.append("'"); pendingQuote = false } else { pendingQuote = true }
                } else {
                    result.append(character)
                }
            }
            return result
        }
        while let character = iterator.next() {
            guard character == "\\" else {
                result.append(character)
                continue
            }
            switch iterator.next() {
            case "\"": result.append("\"")
            case "\\": result.append("\\")
            case "/": result.append("/")
            case "n": result.append("\n")
            case "t": result.append("\t")
            case let other?: throw error(mark, "unsupported escape '\\\(other)' (use \\\" \\\\ \\n \\t or \\/)")
            case nil: throw error(mark, "unterminated escape at the end of a quoted string")
            }
        }
        return result
    }

    /// `[a, b, "c"]` on one line: scalars only.
    private func flowSequence(_ text: [Character], at mark: YAMLMark) throws(YAMLError) -> YAMLNode {
        var items: [YAMLNode] = []
        var position = 1
        var expectItem = true
        func column(_ offset: Int) -> YAMLMark { YAMLMark(line: mark.line, column: mark.column + offset) }
        while position < text.count {
            let character = text[position]
            if character == " " {
                position += 1
            } else if character == "]" {
                if expectItem, !items.isEmpty { throw error(column(position), "a list item is missing before ']'") }
                guard position + 1 == text.count else {
                    throw error(column(position + 1), "unexpected text after ']': '\(String(text[(position + 1)...]))'")
                }
                return YAMLNode(.sequence(items), at: mark)
            } else if character == "," {
                if expectItem { throw error(column(position), "a list item is missing before ','") }
                expectItem = true
                position += 1
            } else if character == "[" || character == "{" {
                throw error(column(position), "nested flow collections are not supported (only [a, b, c] of plain values)")
            } else {
                guard expectItem else { throw error(column(position), "expected ',' or ']' between list items") }
                var end = position
                if character == "'" || character == "\"" {
                    end = try endOfQuoted(text, from: position, mark: column(position))
                } else {
                    while end < text.count, text[end] != ",", text[end] != "]" { end += 1 }
                    while end > position, text[end - 1] == " " { end -= 1 }
                }
                let itemText = Array(text[position..<end])
                if let first = itemText.first, "&*!|>".contains(first) {
                    _ = try inlineValue(itemText, at: column(position))
                }
                items.append(try scalar(itemText, at: column(position)))
                expectItem = false
                position = end
            }
        }
        throw error(mark, "unterminated flow list: missing ']' (flow lists must end on the same line)")
    }

    private func error(_ mark: YAMLMark, _ message: String) -> YAMLError {
        YAMLError(file: file, mark: mark, message: message)
    }
}
