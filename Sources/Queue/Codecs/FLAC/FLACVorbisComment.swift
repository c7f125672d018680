/// FLAC's tags: a VORBIS_COMMENT metadata block (RFC 9639 section 8.6: little-endian lengths, a vendor string,
/// then "NAME=value" UTF-8 fields), read into `AudioFileMetadata` through `TagNames` and written from it.
enum FLACVorbisComment {
    /// The vendor string and the fields of a raw block; nil when the lengths run past the block.
    static func parse(_ block: [UInt8]) -> (vendor: String, fields: [(String, String)])? {
        var at = 0
        func u32() -> Int? {
            guard at + 4 <= block.count else { return nil }
            defer { at += 4 }
            return Int(block[at]) | Int(block[at + 1]) << 8 | Int(block[at + 2]) << 16 | Int(block[at + 3]) << 24
        }
        func text(_ n: Int) -> String? {
            guard n >= 0, at + n <= block.count else { return nil }
            defer { at += n }
            return String(decoding: block[at..<(at + n)], as: UTF8.self)
        }
        guard let vendorLength = u32(), let vendor = text(vendorLength), let count = u32() else { return nil }
        var fields: [(String, String)] = []
        for _ in 0..<count {
            guard let n = u32(), let entry = text(n) else { return nil }
            if let pair = field(entry) { fields.append(pair) }
        }
        return (vendor, fields)
    }

    /// "NAME=value" split at the first '='.
    static func field(_ entry: String) -> (String, String)? {
        guard let eq = entry.firstIndex(of: "=") else { return nil }
        return (String(entry[..<eq]), String(entry[entry.index(after: eq)...]))
    }

    static func metadata(_ fields: [(String, String)]) -> AudioFileMetadata {
        var metadata = AudioFileMetadata()
        for (name, value) in fields { TagNames.apply(name, value, to: &metadata) }
        return metadata
    }

    /// The fields to write for `metadata`, with the names the Vorbis comment convention and ReplayGain 2.0
    /// use ("-6.20 dB", peaks with six decimals).
    static func fields(_ metadata: AudioFileMetadata) -> [(String, String)] {
        var list: [(String, String)] = []
        if let v = metadata.title { list.append(("TITLE", v)) }
        if let v = metadata.artist { list.append(("ARTIST", v)) }
        if let v = metadata.album { list.append(("ALBUM", v)) }
        if let v = metadata.trackNumber { list.append(("TRACKNUMBER", String(v))) }
        if let v = metadata.trackTotal { list.append(("TRACKTOTAL", String(v))) }
        if let v = metadata.date { list.append(("DATE", v)) }
        if let v = metadata.comment { list.append(("COMMENT", v)) }
        if let v = metadata.copyright { list.append(("COPYRIGHT", v)) }
        if let v = metadata.software { list.append(("ENCODER", v)) }
        let gain = metadata.replayGain
        if let v = gain.trackGain { list.append(("REPLAYGAIN_TRACK_GAIN", decimal(v, places: 2) + " dB")) }
        if let v = gain.trackPeak { list.append(("REPLAYGAIN_TRACK_PEAK", decimal(v, places: 6))) }
        if let v = gain.albumGain { list.append(("REPLAYGAIN_ALBUM_GAIN", decimal(v, places: 2) + " dB")) }
        if let v = gain.albumPeak { list.append(("REPLAYGAIN_ALBUM_PEAK", decimal(v, places: 6))) }
        return list
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
