import Codec8_24

/// Placeholder until this codec's part lands: refuses to create.
final class FFmpegFileWriter: CompressedFileWriter {
    init(_ output: LibraryOutput, type: AudioFileType, format: StreamFormat, options: AudioFileWriteOptions) throws { throw AudioFileError(.unsupported, "Apple Lossless encoding is not built yet") }
    func write(_ frames: UnsafeBufferPointer<Fixed824>) throws {}
    func commit() throws {}
    func finish() throws {}
    func abandon() {}
    var framesWritten: Int64 { 0 }
}
