import Codec8_24

/// Placeholder until this codec's part lands: refuses to create.
final class FLACFileWriter: CompressedFileWriter {
    init(_ output: LibraryOutput, format: StreamFormat, options: AudioFileWriteOptions, ogg: Bool) throws { throw AudioFileError(.unsupported, "FLAC encoding is not built yet") }
    func write(_ frames: UnsafeBufferPointer<Fixed824>) throws {}
    func commit() throws {}
    func finish() throws {}
    func abandon() {}
    var framesWritten: Int64 { 0 }
}
