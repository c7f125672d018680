/// The text an ID3v2.3 / 2.4 tag carries, for a stream (files go through libmpg123's parser): the text
/// frames ("T..."), TXXX by its description and COMM without one, through `TagNames`. Layout from the ID3v2.4.0
/// structure document (id3.org), sections 3 and 4, and ID3v2.3.0 section 3.3: a 10-byte frame header (ID, size,
/// flags), the size synchsafe in 2.4 and plain in 2.3; text frames start with an encoding byte (0 ISO-8859-1,
/// 1 UTF-16 with BOM, 2 UTF-16BE, 3 UTF-8). Unsynchronised, compressed or encrypted frames are skipped.
enum ID3v2Text {
    static func metadata(_ tag: [UInt8], majorVersion: Int) -> AudioFileMetadata {
        var metadata = AudioFileMetadata()
        guard majorVersion == 3 || majorVersion == 4, tag.count > ID3v2Header.length, tag[5] & 0x80 == 0 else { return metadata }
        var p = ID3v2Header.length
        if tag[5] & 0x40 != 0, p + 4 <= tag.count {   // an extended header: skipped by its size
            let size = bigEndian(tag, p, synchsafe: majorVersion == 4)
            p += majorVersion == 4 ? size : size + 4
        }
        while p + 10 <= tag.count, tag[p] != 0 {
            let id = String(decoding: tag[p..<(p + 4)], as: UTF8.self)
            let size = bigEndian(tag, p + 4, synchsafe: majorVersion == 4)
            let flags = tag[p + 9]
            let body = p + 10
            guard size > 0, body + size <= tag.count else { break }
            let skipped: UInt8 = majorVersion == 4 ? 0x0F : 0xE0   // compression, encryption, unsync, length
            if flags & skipped == 0, id.first == "T" || id == "COMM" {
                apply(id, Array(tag[body..<(body + size)]), to: &metadata)
            }
            p = body + size
        }
        return metadata
    }

    private static func apply(_ id: String, _ body: [UInt8], to metadata: inout AudioFileMetadata) {
        guard let encoding = body.first else { return }
        var fields = split(Array(body.dropFirst(id == "COMM" ? 4 : 1)), encoding: encoding)
        switch id {
        case "TXXX":
            guard fields.count >= 2 else { return }
            TagNames.apply(fields[0], fields[1], to: &metadata)
        case "COMM":
            guard fields.count >= 2, fields[0].isEmpty else { return }
            TagNames.apply(id, fields[1], to: &metadata)
        default:
            fields = fields.filter { !$0.isEmpty }
            if let first = fields.first { TagNames.apply(id, first, to: &metadata) }
        }
    }

    /// The NUL-separated strings of a text body in `encoding`.
    private static func split(_ bytes: [UInt8], encoding: UInt8) -> [String] {
        let wide = encoding == 1 || encoding == 2
        var strings: [String] = []
        var start = 0, i = 0
        let step = wide ? 2 : 1
        while i + step <= bytes.count {
            if bytes[i] == 0 && (!wide || bytes[i + 1] == 0) {
                strings.append(decode(Array(bytes[start..<i]), encoding: encoding))
                start = i + step
            }
            i += step
        }
        if start < bytes.count { strings.append(decode(Array(bytes[start...]), encoding: encoding)) }
        return strings
    }

    private static func decode(_ bytes: [UInt8], encoding: UInt8) -> String {
        switch encoding {
        case 1, 2:
            var littleEndian = false
            var units = bytes
            if encoding == 1, units.count >= 2, units[0] == 0xFF, units[1] == 0xFE { littleEndian = true; units.removeFirst(2) }
            else if encoding == 1, units.count >= 2, units[0] == 0xFE, units[1] == 0xFF { units.removeFirst(2) }
            let codeUnits = stride(from: 0, to: units.count - 1, by: 2).map {
                littleEndian ? UInt16(units[$0]) | UInt16(units[$0 + 1]) << 8 : UInt16(units[$0]) << 8 | UInt16(units[$0 + 1])
            }
            return String(decoding: codeUnits, as: UTF16.self)
        case 3: return String(decoding: bytes, as: UTF8.self)
        default: return String(String.UnicodeScalarView(bytes.map { Unicode.Scalar($0) }))
        }
    }

    private static func bigEndian(_ bytes: [UInt8], _ at: Int, synchsafe: Bool) -> Int {
        bytes[at..<(at + 4)].reduce(0) { $0 << (synchsafe ? 7 : 8) | Int($1) }
    }
}
