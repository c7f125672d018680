import Codec8_24

/// Splits one library container's byte stream into packets as the bytes arrive, in any chunking (down to one
/// byte at a time), for `AudioFileStream`: properties as they are learned (`.fileFormat`, `.dataFormat`,
/// `.magicCookie`, `.readyToProducePackets`), then whole packets with their descriptions. Where the format
/// allows (MP3, ADTS, FLAC frames, Ogg pages) it joins mid-stream at the next frame it can verify.
protocol CompressedStreamParser: AnyObject {
    func parse(_ bytes: UnsafeRawBufferPointer, onProperty: AudioFileStream.PropertyListener,
               onPackets: AudioFileStream.PacketsHandler) throws
}

/// Decodes one library codec's packets, as `AudioFileStream` delivers them, to interleaved 8.24 (Core Audio's
/// AudioConverter for a compressed format). Made from the stream's data format and magic cookie.
protocol CompressedPacketDecoder: AnyObject {
    /// The most frames one packet decodes to: the size `decode`'s output must have room for.
    var maximumFramesPerPacket: Int { get }
    /// Decodes one whole packet; returns the frames written. Corrupt packets throw `.malformed`.
    func decode(_ packet: UnsafeRawBufferPointer, into output: UnsafeMutableBufferPointer<Fixed824>) throws -> Int
    /// Forgets history (after a gap or a seek in the stream).
    func reset()
}
