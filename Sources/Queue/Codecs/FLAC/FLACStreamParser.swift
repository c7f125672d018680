/// Placeholder until this codec's part lands: refuses every stream.
final class FLACStreamParser: CompressedStreamParser {
    func parse(_ bytes: UnsafeRawBufferPointer, onProperty: AudioFileStream.PropertyListener,
               onPackets: AudioFileStream.PacketsHandler) throws {
        throw AudioFileError(.unsupported, "FLAC streams are not parsed yet")
    }
}
