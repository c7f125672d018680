/// Placeholder until this codec's part lands: refuses every stream.
final class ADTSStreamParser: CompressedStreamParser {
    func parse(_ bytes: UnsafeRawBufferPointer, onProperty: AudioFileStream.PropertyListener,
               onPackets: AudioFileStream.PacketsHandler) throws {
        throw AudioFileError(.unsupported, "AAC (ADTS) streams are not parsed yet")
    }
}
