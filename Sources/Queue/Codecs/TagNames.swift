/// The one place tag names from every format become `AudioFileMetadata` fields, so a FLAC's Vorbis comment,
/// an MP3's ID3v2 frame and an M4A's atom land in the same field. Codec readers pass each (name, value) pair
/// they find, named as the format names it; unknown names are ignored.
enum TagNames {
    /// Applies one tag to `metadata`. `name` is case-insensitive: Vorbis comment field names (TITLE, ARTIST,
    /// ALBUM, TRACKNUMBER, DATE, COMMENT, REPLAYGAIN_*), ID3v2.3/2.4 frame IDs (TIT2, TPE1, TALB, TRCK, TDRC,
    /// TYER, COMM, and TXXX descriptions passed as their description, e.g. "REPLAYGAIN_TRACK_GAIN"), MP4 atom
    /// names as FFmpeg reports them (title, artist, album, track, date, comment) and Opus's R128_* gains.
    static func apply(_ name: String, _ value: String, to metadata: inout AudioFileMetadata) {
        let text = value.trimmedTag
        guard !text.isEmpty else { return }
        switch name.uppercased() {
        case "TITLE", "TIT2", "\u{A9}NAM": metadata.title = metadata.title ?? text
        case "ARTIST", "TPE1", "\u{A9}ART": metadata.artist = metadata.artist ?? text
        case "ALBUM", "TALB", "\u{A9}ALB": metadata.album = metadata.album ?? text
        case "TRACKNUMBER", "TRACK", "TRCK", "TRKN":
            // "3", "3/12" (ID3v2 TRCK, FFmpeg's track) or "03".
            let parts = text.split(separator: "/", maxSplits: 1)
            if let number = parts.first.flatMap({ Int($0.trimmedTag) }), number > 0 { metadata.trackNumber = number }
            if parts.count == 2, let total = Int(parts[1].trimmedTag), total > 0 { metadata.trackTotal = total }
        case "TRACKTOTAL", "TOTALTRACKS":
            if let total = Int(text), total > 0 { metadata.trackTotal = total }
        case "DATE", "YEAR", "TDRC", "TYER", "\u{A9}DAY": metadata.date = metadata.date ?? text
        case "COMMENT", "DESCRIPTION", "COMM", "\u{A9}CMT": metadata.comment = metadata.comment ?? text
        case "COPYRIGHT", "TCOP": metadata.copyright = metadata.copyright ?? text
        case "ENCODER", "TSSE", "ENCODED_BY", "\u{A9}TOO": metadata.software = metadata.software ?? text
        case "REPLAYGAIN_TRACK_GAIN": metadata.replayGain.trackGain = decibels(text)
        case "REPLAYGAIN_TRACK_PEAK": metadata.replayGain.trackPeak = peak(text)
        case "REPLAYGAIN_ALBUM_GAIN": metadata.replayGain.albumGain = decibels(text)
        case "REPLAYGAIN_ALBUM_PEAK": metadata.replayGain.albumPeak = peak(text)
        // RFC 7845 5.2.1: a Q7.8 integer in -32768 ... 32767, dB relative to -23 LUFS; ReplayGain 2.0's reference
        // is -18 LUFS.
        case "R128_TRACK_GAIN": if let q = Int16(text) { metadata.replayGain.trackGain = Double(q) / 256 + 5 }
        case "R128_ALBUM_GAIN": if let q = Int16(text) { metadata.replayGain.albumGain = Double(q) / 256 + 5 }
        default: break
        }
    }

    /// Gains outside this are not ReplayGain values (a tag's text is anyone's): ignored, like a missing tag.
    /// (R128's Q7.8 field spans -128 ... +128 dB, RFC 7845 5.2.1; real gains are within a few tens of dB.)
    static let gainRange = -128.0...128.0
    /// Sample peaks: 1.0 is full scale; decoded lossy audio can exceed it, by far less than this.
    static let peakRange = 0.0...100.0

    /// "-6.20 dB", "+3.1 dB", "-6.2" as dB; nil for text that is not a gain within `gainRange`.
    static func decibels(_ text: String) -> Double? {
        var number = text
        if number.lowercased().hasSuffix("db") { number = String(number.dropLast(2)).trimmedTag }
        if number.hasPrefix("+") { number.removeFirst() }
        guard let value = Double(number), gainRange.contains(value) else { return nil }
        return value
    }

    /// A linear peak ("0.988525"); nil for text that is not one within `peakRange` ("nan", "inf", "1e400").
    static func peak(_ text: String) -> Double? {
        guard let value = Double(text), peakRange.contains(value) else { return nil }
        return value
    }
}

extension StringProtocol {
    /// Without leading and trailing spaces, tabs, line ends and NULs (ID3v2 pads with NULs).
    var trimmedTag: String {
        let blank: (Character) -> Bool = { $0 == " " || $0 == "\t" || $0 == "\n" || $0 == "\r" || $0 == "\0" }
        guard let first = firstIndex(where: { !blank($0) }), let last = lastIndex(where: { !blank($0) }) else { return "" }
        return String(self[first...last])
    }
}
