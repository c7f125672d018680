import Codec8_24

/// Placeholder until this codec's part lands: refuses to open.
final class FLACFileReader: CompressedFileReader {
    init(_ input: LibraryInput, ogg: Bool) throws { throw AudioFileError(.unsupported, "FLAC decoding is not built yet") }
    var info: CompressedFileInfo { preconditionFailure("never opened") }
    func seek(toFrame frame: Int64) throws {}
    func read(into buffer: UnsafeMutableBufferPointer<Fixed824>) throws -> Int { 0 }
    func close() {}
}
