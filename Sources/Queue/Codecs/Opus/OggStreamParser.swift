/// Placeholder until this codec's part lands: refuses every stream.
final class OggStreamParser: CompressedStreamParser {
    func parse(_ bytes: UnsafeRawBufferPointer, onProperty: AudioFileStream.PropertyListener,
               onPackets: AudioFileStream.PacketsHandler) throws {
        throw AudioFileError(.unsupported, "Ogg streams are not parsed yet")
    }
}
