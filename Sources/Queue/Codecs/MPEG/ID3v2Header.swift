/// The 10-byte header of an ID3v2 tag in front of an MP3 (ID3v2.4.0 structure, section 3.1, id3.org): "ID3",
/// version, flags, and the tag's size as a 28-bit synchsafe integer (7 bits per byte, top bit 0), which counts
/// neither the header nor the 10-byte footer that flag 0x10 adds.
struct ID3v2Header {
    static let length = 10
    let majorVersion: Int
    /// Header, tag body and footer: where the audio (or the next tag) starts.
    let totalLength: Int

    /// The header in the first 10 bytes, or nil when they are not one.
    init?(_ bytes: some Collection<UInt8>) {
        let b = Array(bytes.prefix(Self.length))
        guard b.count == Self.length, b[0] == 0x49, b[1] == 0x44, b[2] == 0x33,   // "ID3"
              b[3] != 0xFF, b[4] != 0xFF, b[6...9].allSatisfy({ $0 < 0x80 }) else { return nil }
        majorVersion = Int(b[3])
        let size = b[6...9].reduce(0) { $0 << 7 | Int($1) }
        totalLength = Self.length + size + (b[5] & 0x10 != 0 ? 10 : 0)
    }
}
