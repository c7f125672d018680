import Testing
@testable import Board

@Suite("YAML subset reader")
struct YAMLReaderTests {
    func parse(_ text: String) throws -> YAMLNode { try YAMLReader.parse(text, file: "t.yaml") }

    @Test func mappingsSequencesAndScalarsKeepTheirLinesAndColumns() throws {
        let text = """
        # a comment line
        name: demo   # trailing comment
        codec:
          chip: wm8960
          address: 0x1a

        buttons:
          - name: a
            line: 17
          - name: b
            line: 27
        tags: [one, 'two, three', "fo\\"ur"]
        list:
        - x
        - 'it''s'
        empty:
        url: http://example.com/a#b
        """
        let root = try parse(text)
        #expect(root.entries?.map(\.key) == ["name", "codec", "buttons", "tags", "list", "empty", "url"])
        #expect(root["name"]?.scalarText == "demo")
        #expect(root["name"]?.mark == YAMLMark(line: 2, column: 7))
        #expect(root["codec"]?["address"]?.scalarText == "0x1a")
        #expect(root["codec"]?["address"]?.mark == YAMLMark(line: 5, column: 12))
        #expect(root.entries?[1].keyMark == YAMLMark(line: 3, column: 1))
        let buttons = try #require(root["buttons"]?.items)
        #expect(buttons.count == 2)
        #expect(buttons[0].mark == YAMLMark(line: 8, column: 5))
        #expect(buttons[1]["line"]?.scalarText == "27")
        #expect(buttons[1]["line"]?.line == 11)
        let tags = try #require(root["tags"]?.items)
        #expect(tags.map(\.scalarText) == ["one", "two, three", "fo\"ur"])
        #expect(tags.map(\.mark.column) == [8, 13, 27])
        #expect(tags[1].content == .scalar("two, three", .singleQuoted))
        #expect(root["list"]?.items?.map(\.scalarText) == ["x", "it's"])
        #expect(root["empty"]?.content == .empty)
        #expect(root["url"]?.scalarText == "http://example.com/a#b")
    }

    @Test func apostropheInsideAPlainValueIsText() throws {
        let root = try parse("description: Pete's HAT # note\nsingle: ''\nescaped: \"a\\tb\\\\c\\/d\\ne\"")
        #expect(root["description"]?.scalarText == "Pete's HAT")
        #expect(root["single"]?.content == .scalar("", .singleQuoted))
        #expect(root["escaped"]?.scalarText == "a\tb\\c/d\ne")
    }

    @Test func leadingDocumentMarkerEmptyDocumentAndNestedBlocks() throws {
        let root = try parse("---\na:\n    b:\n        - 1\n        -\n          c: 2\n")
        let items = try #require(root["a"]?["b"]?.items)
        #expect(items[0].scalarText == "1")
        #expect(items[1]["c"]?.scalarText == "2")
        #expect(items[1].mark == YAMLMark(line: 6, column: 11))
        #expect(try parse("# only a comment\n\n").content == .mapping([]))
        #expect(try parse("").content == .mapping([]))
        #expect(try parse("- a\n- b").items?.count == 2)
        #expect(try parse("k: []")["k"]?.content == .sequence([]))
        #expect(try parse("\"quoted key\": 1")["quoted key"]?.scalarText == "1")
    }

    /// Every way out of the subset, with the line it is reported on.
    static let errors: [(String, String)] = [
        ("a:\n\tb: 1", "t.yaml:2: tab in indentation (indent with spaces)"),
        ("a: &x 1", "t.yaml:1: anchors ('&') are not supported"),
        // Bounded: a value is echoed in errors and looked up for "did you mean" (a quoted one counts its quotes).
        ("a: 1\nchip: " + String(repeating: "w", count: 257), "t.yaml:2: a value of 257 characters; values are at most 256"),
        ("a: [x, '" + String(repeating: "w", count: 300) + "']", "t.yaml:1: a value of 302 characters; values are at most 256"),
        ("a: *x", "t.yaml:1: aliases ('*') are not supported"),
        ("a: !t 1", "t.yaml:1: tags ('!') are not supported"),
        ("a: |\n  text", "t.yaml:1: block scalars ('|' and '>') are not supported; write the value on one line"),
        ("a: >", "t.yaml:1: block scalars ('|' and '>') are not supported; write the value on one line"),
        ("a: {b: 1}", "t.yaml:1: flow mappings ('{...}') are not supported; write the keys on their own lines"),
        ("a: 1\na: 2", "t.yaml:2: duplicate key 'a' (first on line 1)"),
        ("a:\n  b: 1\n   c: 2", "t.yaml:3: bad indentation: 'b' already has a value on line 2"),
        ("a:\n    b: 1\n  c: 2", "t.yaml:3: bad indentation: expected column 1"),
        ("a: 1\n  b: 2", "t.yaml:2: bad indentation: 'a' already has a value on line 1"),
        ("a:\n  - 1\n    - 2", "t.yaml:3: bad indentation: the item on line 2 already has a value"),
        ("a:\n  - 1\n   - 2", "t.yaml:3: bad indentation: the item on line 2 already has a value"),
        ("-\n    a: 1\n  b: 2", "t.yaml:3: bad indentation: expected column 1"),
        ("  a: 1", "t.yaml:1: the document must start at column 1"),
        ("a: 1\n- b", "t.yaml:2: a list item where a key was expected (indent the list under its key)"),
        ("- a\nb: 1", "t.yaml:2: unexpected content after the document (check the indentation)"),
        ("just text", "t.yaml:1: expected 'key: value' or '- item', found 'just text'"),
        ("a: 1\nplain", "t.yaml:2: expected 'key: value', found 'plain'"),
        ("a: 'open", "t.yaml:1: unterminated quoted string (quoted values must end on the same line)"),
        ("a: 'x' y", "t.yaml:1: unexpected text after the closing quote: ' y'"),
        ("a: \"\\q\"", "t.yaml:1: unsupported escape '\\q' (use \\\" \\\\ \\n \\t or \\/)"),
        ("a: b: c", "t.yaml:1: a plain value cannot contain ': ' (quote it, or nest the mapping on its own lines)"),
        ("a: @x", "t.yaml:1: a plain value cannot start with '@' (quote it)"),
        ("a: [1, [2]]", "t.yaml:1: nested flow collections are not supported (only [a, b, c] of plain values)"),
        ("a: [1, 2", "t.yaml:1: unterminated flow list: missing ']' (flow lists must end on the same line)"),
        ("a: ['1' 2]", "t.yaml:1: expected ',' or ']' between list items"),
        ("a: [1,,2]", "t.yaml:1: a list item is missing before ','"),
        ("a: [1,]", "t.yaml:1: a list item is missing before ']'"),
        ("a: [1] x", "t.yaml:1: unexpected text after ']': ' x'"),
        ("a: [&x]", "t.yaml:1: anchors ('&') are not supported"),
        ("- - a", "t.yaml:1: nested '- - item' lists are not supported (put the inner list under a key)"),
        ("a: 1\n---\nb: 2", "t.yaml:2: only one document per file ('---' starts another)"),
        ("a: 1\n...", "t.yaml:2: document end markers ('...') are not supported"),
        ("%YAML 1.2\na: 1", "t.yaml:1: directives ('%') are not supported"),
    ]

    @Test(arguments: errors)
    func outsideTheSubsetIsAnErrorNamingTheLine(_ text: String, _ expected: String) {
        #expect(throws: YAMLError.self) { try parse(text) }
        do {
            _ = try parse(text)
        } catch {
            #expect("\(error)" == expected)
        }
    }

    @Test func errorsCarryTheColumn() {
        do {
            _ = try parse("a:\n  b: [1, [2]]")
            Issue.record("expected an error")
        } catch let error as YAMLError {
            #expect(error.mark == YAMLMark(line: 2, column: 10))
        } catch {
            Issue.record("unexpected \(error)")
        }
    }
}
