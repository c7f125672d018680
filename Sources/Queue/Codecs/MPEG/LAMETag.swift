/// The Xing/Info tag LAME (and FFmpeg) write into the first frame of an MP3, and its LAME extension, as the
/// "Mp3 Info Tag rev 1 specifications" (Gabriel Bouvigne, http://gabriel.mp3-tech.org/mp3infotag.html) lays
/// them out: the frame count and byte count that give an exact length, and the encoder delay and padding a
/// gapless decoder removes. The frame holding the tag decodes to silence and is not part of the audio.
struct LAMETag: Equatable {
    /// Audio frames in the stream, the tag's own frame excluded (Xing flag 0x1).
    let frameCount: Int?
    /// Bytes of the MPEG stream, the tag's frame included (Xing flag 0x2).
    let byteCount: Int?
    /// The 9-byte encoder version of the LAME extension ("LAME3.100"), when the tag has one.
    let encoder: String?
    /// Samples the encoder put in front (12 bits), and padded at the end (12 bits): the LAME extension's
    /// "encoder delays" field. 0 without the extension.
    let encoderDelay: Int
    let padding: Int
    /// Whether the frame count can be a stream's at all: LAME's frames hold the delay and padding it declares
    /// (`frames · samples per frame − delay − padding` samples of audio, never fewer than 0). A damaged tag's
    /// count may not, and libmpg123's gapless trimming then cuts at the wrong places.
    let countHoldsDelayAndPadding: Bool

    /// The tag in `frame` (a whole first frame, header included), or nil when it holds none.
    init?(frame: UnsafeRawBufferPointer, header: MPEGAudioFrameHeader) {
        // The tag starts right after the side information.
        var p = 4 + header.sideInfoLength
        func bigEndian32(_ at: Int) -> Int {
            Int(frame[at]) << 24 | Int(frame[at + 1]) << 16 | Int(frame[at + 2]) << 8 | Int(frame[at + 3])
        }
        guard frame.count >= p + 8 else { return nil }
        let name = String(decoding: frame[p..<(p + 4)], as: UTF8.self)
        guard name == "Xing" || name == "Info" else { return nil }
        let flags = bigEndian32(p + 4)
        p += 8
        var frames: Int?, bytes: Int?
        if flags & 0x1 != 0, frame.count >= p + 4 { frames = bigEndian32(p); p += 4 }
        if flags & 0x2 != 0, frame.count >= p + 4 { bytes = bigEndian32(p); p += 4 }
        if flags & 0x4 != 0 { p += 100 }   // the seek table of contents
        if flags & 0x8 != 0 { p += 4 }     // the VBR quality indicator
        frameCount = frames
        byteCount = bytes
        // The LAME extension: version string (9 bytes), revision and VBR method (1), lowpass (1), peak (4),
        // radio and audiophile ReplayGain (2 + 2), flags and ATH (1), bit rate (1), then the encoder delays:
        // 12 bits of delay and 12 bits of padding, at offset 21.
        guard frame.count >= p + 24 else {
            encoder = nil; encoderDelay = 0; padding = 0; countHoldsDelayAndPadding = true
            return
        }
        let version = frame[p..<(p + 9)]
        let printable = version.prefix { $0 >= 0x20 && $0 < 0x7F }
        let known = ["LAME", "Lavc", "Lavf"].contains(String(decoding: printable.prefix(4), as: UTF8.self))
        encoder = known ? String(decoding: printable, as: UTF8.self).trimmedTag : nil
        let d = p + 21
        encoderDelay = known ? Int(frame[d]) << 4 | Int(frame[d + 1]) >> 4 : 0
        padding = known ? Int(frame[d + 1] & 0x0F) << 8 | Int(frame[d + 2]) : 0
        let trimmed = encoderDelay + padding
        countHoldsDelayAndPadding = frames.map { $0 * header.samplesPerFrame >= trimmed } ?? true
    }
}
