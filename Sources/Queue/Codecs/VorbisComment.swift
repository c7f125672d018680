/// Vorbis comments, the tag block FLAC (RFC 9639 section 8.6, VORBIS_COMMENT) and Ogg Opus (RFC 7845 section
/// 5.2, OpusTags after its 8-byte magic) share: a little-endian 32-bit length and the vendor string, a 32-bit
/// count, then each comment as a 32-bit length and "NAME=value" in UTF-8. Read into `AudioFileMetadata`
/// through `TagNames` and written from it, in one place for both codecs.
struct VorbisComment {
    var vendor: String
    var fields: [(name: String, value: String)]

    /// How a format carries ReplayGain: REPLAYGAIN_* ("-6.20 dB", peaks; FLAC) or R128_*_GAIN (a Q7.8
    /// integer, dB relative to -23 LUFS; RFC 7845 5.2.1 says Opus files carry these, not REPLAYGAIN_*).
    enum GainNames { case replayGain, r128 }

    /// Parses the block from `start` (past any magic or block header); nil when the lengths run past it.
    init?(_ bytes: [UInt8], from start: Int = 0) {
        var at = start
        func u32() -> Int? {
            guard at >= 0, at + 4 <= bytes.count else { return nil }
            defer { at += 4 }
            return Int(bytes[at]) | Int(bytes[at + 1]) << 8 | Int(bytes[at + 2]) << 16 | Int(bytes[at + 3]) << 24
        }
        func text(_ n: Int) -> String? {
            guard n >= 0, at + n <= bytes.count else { return nil }
            defer { at += n }
            return String(decoding: bytes[at..<(at + n)], as: UTF8.self)
        }
        guard let vendorLength = u32(), let vendor = text(vendorLength), let count = u32() else { return nil }
        self.vendor = vendor
        fields = []
        for _ in 0..<count {
            guard let n = u32(), let entry = text(n) else { return nil }
            if let pair = Self.field(entry) { fields.append(pair) }
        }
    }

    /// "NAME=value" split at the first '='; nil without one.
    static func field(_ entry: String) -> (name: String, value: String)? {
        guard let eq = entry.firstIndex(of: "=") else { return nil }
        return (String(entry[..<eq]), String(entry[entry.index(after: eq)...]))
    }

    /// The tags `fields` hold.
    static func metadata(_ fields: [(name: String, value: String)]) -> AudioFileMetadata {
        var metadata = AudioFileMetadata()
        apply(fields, to: &metadata)
        return metadata
    }

    /// Adds the tags `fields` hold to `metadata` (a field already set keeps its first value).
    static func apply(_ fields: [(name: String, value: String)], to metadata: inout AudioFileMetadata) {
        for (name, value) in fields { TagNames.apply(name, value, to: &metadata) }
    }

    /// The fields to write for `metadata`, with the Vorbis comment convention's names, the gains as `gains`
    /// says, and ENCODER (`metadata.software`, else `encoder` when given).
    static func fields(_ metadata: AudioFileMetadata, gains: GainNames, encoder: String? = nil) -> [(name: String, value: String)] {
        var list: [(name: String, value: String)] = []
        if let v = metadata.title { list.append(("TITLE", v)) }
        if let v = metadata.artist { list.append(("ARTIST", v)) }
        if let v = metadata.album { list.append(("ALBUM", v)) }
        if let v = metadata.trackNumber { list.append(("TRACKNUMBER", String(v))) }
        if let v = metadata.trackTotal { list.append(("TRACKTOTAL", String(v))) }
        if let v = metadata.date { list.append(("DATE", v)) }
        if let v = metadata.comment { list.append(("COMMENT", v)) }
        if let v = metadata.copyright { list.append(("COPYRIGHT", v)) }
        let gain = metadata.replayGain
        let software = metadata.software ?? encoder
        switch gains {
        case .replayGain:
            if let v = software { list.append(("ENCODER", v)) }
            // ReplayGain 2.0's text forms: "-6.20 dB", peaks with six decimals.
            if let v = gain.trackGain { list.append(("REPLAYGAIN_TRACK_GAIN", decimal(v, places: 2) + " dB")) }
            if let v = gain.trackPeak { list.append(("REPLAYGAIN_TRACK_PEAK", decimal(v, places: 6))) }
            if let v = gain.albumGain { list.append(("REPLAYGAIN_ALBUM_GAIN", decimal(v, places: 2) + " dB")) }
            if let v = gain.albumPeak { list.append(("REPLAYGAIN_ALBUM_PEAK", decimal(v, places: 6))) }
        case .r128:
            // -23 LUFS is 5 dB below ReplayGain 2.0's -18 LUFS reference.
            if let v = gain.trackGain { list.append(("R128_TRACK_GAIN", String(q78(v - 5)))) }
            if let v = gain.albumGain { list.append(("R128_ALBUM_GAIN", String(q78(v - 5)))) }
            if let v = software { list.append(("ENCODER", v)) }
        }
        return list
    }

    /// dB as a Q7.8 integer, clamped to its 16 bits.
    static func q78(_ decibels: Double) -> Int {
        Int(max(-32768, min(32767, (decibels * 256).rounded())))
    }

    /// `value` rounded to `places` decimals, with an explicit sign for negatives ("-6.20", "0.988525").
    static func decimal(_ value: Double, places: Int) -> String {
        var scale: Int64 = 1
        for _ in 0..<places { scale *= 10 }
        let scaled = Int64((abs(value) * Double(scale)).rounded())
        let whole = String(scaled / scale)
        var fraction = String(scaled % scale)
        while fraction.count < places { fraction = "0" + fraction }
        return (value < 0 && scaled != 0 ? "-" : "") + whole + (places > 0 ? "." + fraction : "")
    }
}
