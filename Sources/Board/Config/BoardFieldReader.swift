/// Reads typed fields out of YAML nodes and collects what is wrong instead of stopping at the first error.
/// Every getter returns nil after recording an error, so the caller can go on and find the next one.
final class BoardFieldReader {
    let file: String
    private(set) var errors: [BoardConfigError] = []

    init(file: String) {
        self.file = file
    }

    func report(_ line: Int, _ field: String, _ message: String, hint: String = "") {
        errors.append(BoardConfigError(file: file, line: line, field: field, message: message, hint: hint))
    }

    /// `node` as a mapping whose keys are all in `known`; unknown keys are reported with a "did you mean".
    func mapping(_ node: YAMLNode, _ field: String, known: [String]) -> YAMLNode? {
        guard let entries = node.entries else {
            report(node.line, field, "expected a mapping of keys, found \(node.kindName)",
                   hint: "keys: \(known.joined(separator: ", "))")
            return nil
        }
        for entry in entries where !known.contains(entry.key) {
            let path = field.isEmpty ? entry.key : "\(field).\(entry.key)"
            if let close = NearMatch.closest(to: entry.key, in: known) {
                report(entry.keyMark.line, path, "unknown key", hint: "did you mean '\(close)'?")
            } else {
                report(entry.keyMark.line, path, "unknown key", hint: "known keys: \(known.joined(separator: ", "))")
            }
        }
        return node
    }

    /// The value under `key`, or nil; a missing required key is reported at the mapping's line.
    func value(_ parent: YAMLNode, _ key: String, _ field: String, required: Bool, hint: String = "") -> YAMLNode? {
        guard let node = parent[key], node.content != .empty else {
            if required {
                let line = parent.entries?.first { $0.key == key }?.keyMark.line ?? parent.line
                report(line, path(field, key), "required key is missing", hint: hint)
            }
            return nil
        }
        return node
    }

    func path(_ field: String, _ key: String) -> String { field.isEmpty ? key : "\(field).\(key)" }

    // MARK: Typed scalars

    func string(_ parent: YAMLNode, _ key: String, _ field: String, required: Bool, hint: String = "") -> String? {
        guard let node = value(parent, key, field, required: required, hint: hint) else { return nil }
        guard let text = node.scalarText else {
            report(node.line, path(field, key), "expected text, found \(node.kindName)", hint: hint)
            return nil
        }
        if text.isEmpty {
            report(node.line, path(field, key), "must not be empty", hint: hint)
            return nil
        }
        return text
    }

    /// A decimal or 0x-hexadecimal integer in `range`.
    func integer(_ parent: YAMLNode, _ key: String, _ field: String, required: Bool, range: ClosedRange<Int>,
                 hex: Bool = false, what: String = "", hint: String = "") -> Int? {
        guard let node = value(parent, key, field, required: required, hint: hint) else { return nil }
        return integer(node, path(field, key), range: range, hex: hex, what: what)
    }

    func integer(_ node: YAMLNode, _ field: String, range: ClosedRange<Int>, hex: Bool = false,
                 what: String = "") -> Int? {
        guard case .scalar(let text, let style) = node.content else {
            report(node.line, field, "expected an integer, found \(node.kindName)")
            return nil
        }
        guard style == .plain else {
            report(node.line, field, "'\(text)' is quoted text, not a number", hint: "remove the quotes")
            return nil
        }
        guard let value = Self.parseInteger(text) else {
            report(node.line, field, "'\(text)' is not an integer", hint: "write decimal digits or 0x and hex digits")
            return nil
        }
        guard range.contains(value) else {
            let shown = hex ? Self.hex(value) : "\(value)"
            let bounds = hex ? "\(Self.hex(range.lowerBound))...\(Self.hex(range.upperBound))"
                             : "\(range.lowerBound)...\(range.upperBound)"
            let message = what.isEmpty ? "\(shown) is out of range" : "\(shown) is not \(what)"
            report(node.line, field, message, hint: bounds)
            return nil
        }
        return value
    }

    /// A decimal number such as `-6.5` in `range`.
    func number(_ parent: YAMLNode, _ key: String, _ field: String, required: Bool, range: ClosedRange<Double>,
                unit: String, hint: String = "") -> Double? {
        guard let node = value(parent, key, field, required: required, hint: hint) else { return nil }
        let path = path(field, key)
        guard case .scalar(let text, let style) = node.content else {
            report(node.line, path, "expected a number, found \(node.kindName)")
            return nil
        }
        guard style == .plain else {
            report(node.line, path, "'\(text)' is quoted text, not a number", hint: "remove the quotes")
            return nil
        }
        let allowed = "0123456789.-+"
        guard !text.isEmpty, text.allSatisfy({ allowed.contains($0) }), let value = Double(text), value.isFinite else {
            report(node.line, path, "'\(text)' is not a number", hint: "for example -6 or -6.5")
            return nil
        }
        guard range.contains(value) else {
            report(node.line, path, "\(text) \(unit) is out of range",
                   hint: "\(Self.decimal(range.lowerBound))...\(Self.decimal(range.upperBound)) \(unit)")
            return nil
        }
        return value
    }

    /// One of the words in `options` (`provider`, `consumer`, ...).
    func choice<T>(_ parent: YAMLNode, _ key: String, _ field: String, required: Bool,
                   options: [(String, T)]) -> T? {
        let names = options.map(\.0)
        guard let node = value(parent, key, field, required: required, hint: "one of: \(names.joined(separator: ", "))")
        else { return nil }
        return choice(node, path(field, key), options: options)
    }

    func choice<T>(_ node: YAMLNode, _ field: String, options: [(String, T)]) -> T? {
        let names = options.map(\.0)
        guard let text = node.scalarText else {
            report(node.line, field, "expected one of \(names.joined(separator: ", ")), found \(node.kindName)")
            return nil
        }
        if let match = options.first(where: { $0.0 == text }) { return match.1 }
        if let close = NearMatch.closest(to: text, in: names) {
            report(node.line, field, "unknown value '\(text)'", hint: "did you mean '\(close)'?")
        } else {
            report(node.line, field, "unknown value '\(text)'", hint: "one of: \(names.joined(separator: ", "))")
        }
        return nil
    }

    /// The options of a string-backed enum, spelled as its raw values.
    static func options<E: RawRepresentable & CaseIterable>(_ type: E.Type) -> [(String, E)] where E.RawValue == String {
        E.allCases.map { ($0.rawValue, $0) }
    }

    // MARK: Formatting

    static func parseInteger(_ text: String) -> Int? {
        if text.hasPrefix("0x") || text.hasPrefix("0X") {
            let digits = text.dropFirst(2)
            guard !digits.isEmpty, digits.allSatisfy(\.isHexDigit) else { return nil }
            return Int(digits, radix: 16)
        }
        var digits = Substring(text)
        if digits.first == "-" || digits.first == "+" { digits = digits.dropFirst() }
        guard !digits.isEmpty, digits.allSatisfy({ $0 >= "0" && $0 <= "9" }) else { return nil }
        return Int(text)
    }

    /// `0x1a`, the way i2cdetect prints addresses.
    static func hex(_ value: Int) -> String {
        let digits = String(value, radix: 16)
        return "0x" + (digits.count < 2 ? "0" + digits : digits)
    }

    /// `12`, `-6.5`: no trailing `.0`.
    static func decimal(_ value: Double) -> String {
        value == value.rounded() && abs(value) < 1e15 ? "\(Int(value))" : "\(value)"
    }
}
