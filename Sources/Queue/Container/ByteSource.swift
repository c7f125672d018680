/// Where a container parser gets its bytes: a file (random access, known length) or a stream's buffered
/// prefix (bytes that have not arrived yet are `nil`, not an error).
protocol ByteSource {
    /// The total length when known; nil while a stream is still arriving.
    var length: Int64? { get }
    /// Up to `count` bytes at `offset`. Files return fewer at the end; streams return nil until all arrived.
    func bytes(at offset: Int64, count: Int) throws -> [UInt8]?
}

/// Thrown by parsers when a stream has not delivered enough bytes yet; `needed` is the offset to wait for.
struct NeedMoreBytes: Error { let needed: Int64 }

extension ByteSource {
    /// Exactly `count` bytes at `offset`, or the error a parser reports for the missing `what`.
    func require(_ count: Int, at offset: Int64, for what: String) throws -> [UInt8] {
        guard let bytes = try bytes(at: offset, count: count) else { throw NeedMoreBytes(needed: offset + Int64(count)) }
        guard bytes.count == count else {
            throw AudioFileError.truncated("the file ends inside the \(what) (\(bytes.count) of \(count) bytes)", at: offset + Int64(bytes.count))
        }
        return bytes
    }

    /// Whether any byte exists at `offset` (files: inside the length; streams: arrived, else waits).
    func hasBytes(at offset: Int64) throws -> Bool {
        if let length { return offset < length }
        guard let b = try bytes(at: offset, count: 1) else { throw NeedMoreBytes(needed: offset + 1) }
        return !b.isEmpty
    }
}

/// Bounds-checked little- and big-endian field reads from a chunk's bytes; a short chunk is reported as
/// malformed at the offset of the field that is missing.
struct FieldReader {
    let bytes: [UInt8]
    /// File offset of `bytes[0]`, for error messages.
    let base: Int64
    let what: String

    init(_ bytes: [UInt8], at base: Int64, what: String) {
        self.bytes = bytes
        self.base = base
        self.what = what
    }

    var count: Int { bytes.count }

    func check(_ at: Int, _ n: Int) throws {
        guard at >= 0, at + n <= bytes.count else {
            throw AudioFileError.malformed("the \(what) is too short (\(bytes.count) bytes) for a field at byte \(at)", at: base + Int64(at))
        }
    }

    func u8(_ at: Int) throws -> UInt8 { try check(at, 1); return bytes[at] }
    func u16le(_ at: Int) throws -> UInt16 { try check(at, 2); return UInt16(bytes[at]) | UInt16(bytes[at + 1]) << 8 }
    func u16be(_ at: Int) throws -> UInt16 { try check(at, 2); return UInt16(bytes[at]) << 8 | UInt16(bytes[at + 1]) }
    func u32le(_ at: Int) throws -> UInt32 {
        try check(at, 4)
        return UInt32(bytes[at]) | UInt32(bytes[at + 1]) << 8 | UInt32(bytes[at + 2]) << 16 | UInt32(bytes[at + 3]) << 24
    }
    func u32be(_ at: Int) throws -> UInt32 {
        try check(at, 4)
        return UInt32(bytes[at]) << 24 | UInt32(bytes[at + 1]) << 16 | UInt32(bytes[at + 2]) << 8 | UInt32(bytes[at + 3])
    }
    func u64le(_ at: Int) throws -> UInt64 { UInt64(try u32le(at)) | UInt64(try u32le(at + 4)) << 32 }
    func u64be(_ at: Int) throws -> UInt64 { UInt64(try u32be(at)) << 32 | UInt64(try u32be(at + 4)) }
    func f64be(_ at: Int) throws -> Double { Double(bitPattern: try u64be(at)) }
    func slice(_ at: Int, _ n: Int) throws -> ArraySlice<UInt8> { try check(at, n); return bytes[at..<(at + n)] }

    /// Text up to the first NUL, as UTF-8 (invalid bytes replaced), trailing spaces kept.
    func cString(_ at: Int, _ n: Int) throws -> String {
        let raw = try slice(at, n)
        let end = raw.firstIndex(of: 0) ?? raw.endIndex
        return String(decoding: raw[raw.startIndex..<end], as: UTF8.self)
    }
}

/// Building header bytes for writers.
struct FieldWriter {
    var bytes: [UInt8] = []

    mutating func fourCC(_ text: String) { bytes += Array(text.utf8.prefix(4)) + Array(repeating: 0x20, count: max(0, 4 - text.utf8.count)) }
    mutating func u8(_ v: UInt8) { bytes.append(v) }
    mutating func u16le(_ v: UInt16) { bytes += [UInt8(v & 0xFF), UInt8(v >> 8)] }
    mutating func u16be(_ v: UInt16) { bytes += [UInt8(v >> 8), UInt8(v & 0xFF)] }
    mutating func u32le(_ v: UInt32) { for s in stride(from: 0, to: 32, by: 8) { bytes.append(UInt8((v >> UInt32(s)) & 0xFF)) } }
    mutating func u32be(_ v: UInt32) { for s in stride(from: 24, through: 0, by: -8) { bytes.append(UInt8((v >> UInt32(s)) & 0xFF)) } }
    mutating func u64le(_ v: UInt64) { u32le(UInt32(v & 0xFFFF_FFFF)); u32le(UInt32(v >> 32)) }
    mutating func u64be(_ v: UInt64) { u32be(UInt32(v >> 32)); u32be(UInt32(v & 0xFFFF_FFFF)) }
    mutating func f64be(_ v: Double) { u64be(v.bitPattern) }
    mutating func raw(_ b: [UInt8]) { bytes += b }

    static func u32le(_ v: UInt32) -> [UInt8] { var w = FieldWriter(); w.u32le(v); return w.bytes }
    static func u32be(_ v: UInt32) -> [UInt8] { var w = FieldWriter(); w.u32be(v); return w.bytes }
    static func u64le(_ v: UInt64) -> [UInt8] { var w = FieldWriter(); w.u64le(v); return w.bytes }
    static func u64be(_ v: UInt64) -> [UInt8] { var w = FieldWriter(); w.u64be(v); return w.bytes }
}
