/// Placeholder until this codec's part lands: refuses every stream.
final class MP3StreamParser: CompressedStreamParser {
    func parse(_ bytes: UnsafeRawBufferPointer, onProperty: AudioFileStream.PropertyListener,
               onPackets: AudioFileStream.PacketsHandler) throws {
        throw AudioFileError(.unsupported, "MP3 streams are not parsed yet")
    }
}
