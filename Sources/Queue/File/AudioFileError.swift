/// Why an audio file could not be opened, parsed, read, written or repaired. `description` is one line: the
/// file, what is wrong, and (for bad content) the byte offset where it was found.
public struct AudioFileError: Error, Sendable, CustomStringConvertible {
    public enum Kind: Sendable, Hashable {
        /// The operating system refused (open, read, write, rename): see `message`.
        case io
        /// The bytes are not a container this code knows.
        case notAudioFile
        /// A header field or chunk is inconsistent or impossible.
        case malformed
        /// The file ends before a header or chunk it promises.
        case truncated
        /// Well-formed, but a format or feature not supported here.
        case unsupported
        /// The file format cannot hold the data format (refused at create).
        case incompatibleFormat
        /// A call that does not fit the file's state (writing a file opened for reading, a closed file, ...).
        case misuse
    }

    public let kind: Kind
    public let message: String
    /// Byte offset in the file or stream where the problem was found.
    public let offset: Int64?
    public var path: String?

    public init(_ kind: Kind, _ message: String, offset: Int64? = nil, path: String? = nil) {
        self.kind = kind
        self.message = message
        self.offset = offset
        self.path = path
    }

    public var description: String {
        var text = path.map { "\($0): " } ?? ""
        text += message
        if let offset { text += " (at byte \(offset))" }
        return text
    }

    static func malformed(_ message: String, at offset: Int64) -> AudioFileError { .init(.malformed, message, offset: offset) }
    static func truncated(_ message: String, at offset: Int64) -> AudioFileError { .init(.truncated, message, offset: offset) }
    static func unsupported(_ message: String, at offset: Int64? = nil) -> AudioFileError { .init(.unsupported, message, offset: offset) }
    static func misuse(_ message: String) -> AudioFileError { .init(.misuse, message) }
}
