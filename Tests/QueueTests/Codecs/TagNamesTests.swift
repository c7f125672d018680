import Testing
@testable import Queue

/// Tag text to metadata: the formats' own spellings land in the same fields, and text that is not a value
/// (a tag is anyone's to write) is ignored rather than stored, so nothing downstream formats an infinity.
struct TagNamesTests {
    func applying(_ pairs: [(String, String)]) -> AudioFileMetadata {
        var metadata = AudioFileMetadata()
        for (name, value) in pairs { TagNames.apply(name, value, to: &metadata) }
        return metadata
    }

    @Test("ReplayGain 2.0 tags as the specification writes them: \"-6.20 dB\" and a linear peak")
    func replayGainTags() {
        let m = applying([("REPLAYGAIN_TRACK_GAIN", "-6.20 dB"), ("replaygain_track_peak", "0.988525"),
                          ("REPLAYGAIN_ALBUM_GAIN", "+3.1 dB"), ("REPLAYGAIN_ALBUM_PEAK", "1.2")])
        #expect(m.replayGain == ReplayGain(trackGain: -6.2, trackPeak: 0.988525, albumGain: 3.1, albumPeak: 1.2))
    }

    /// RFC 7845 5.2.1: R128_TRACK_GAIN is a Q7.8 integer, dB relative to -23 LUFS; ReplayGain's reference is
    /// -18 LUFS (ReplayGain 2.0), 5 dB louder: -2560 (-10 dB) is -5 dB of ReplayGain.
    @Test("Opus R128 gains: Q7.8 relative to -23 LUFS, plus 5 dB")
    func r128Gains() {
        let m = applying([("R128_TRACK_GAIN", "-2560"), ("R128_ALBUM_GAIN", "384")])
        #expect(m.replayGain.trackGain == -5)
        #expect(m.replayGain.albumGain == 6.5)
        // Outside the 16-bit field: not an R128 gain.
        #expect(applying([("R128_TRACK_GAIN", "40000")]).replayGain.trackGain == nil)
    }

    @Test("text that is no gain or peak is ignored: nan, inf, 1e400, 1e300 dB, negative peaks",
          arguments: ["nan", "inf", "-inf", "1e400", "1e300 dB", "-1e300", "-0.5", "loud"])
    func hostileValuesAreIgnored(text: String) {
        let m = applying([("REPLAYGAIN_TRACK_GAIN", text), ("REPLAYGAIN_TRACK_PEAK", text),
                          ("REPLAYGAIN_ALBUM_GAIN", text), ("REPLAYGAIN_ALBUM_PEAK", text)])
        if text == "-0.5" {
            #expect(m.replayGain.trackGain == -0.5)   // a fine gain, but no peak
            #expect(m.replayGain.trackPeak == nil)
        } else {
            #expect(m.replayGain.isEmpty, "\(text)")
        }
    }

    @Test("track numbers as ID3v2 TRCK and FFmpeg write them (\"3/12\"), Vorbis TRACKNUMBER and TRACKTOTAL")
    func trackNumbers() {
        let id3 = applying([("TRCK", "3/12")])
        #expect(id3.trackNumber == 3 && id3.trackTotal == 12)
        let vorbis = applying([("TRACKNUMBER", "07"), ("TRACKTOTAL", "9")])
        #expect(vorbis.trackNumber == 7 && vorbis.trackTotal == 9)
        #expect(applying([("TRACKNUMBER", "x")]).trackNumber == nil)
    }

    @Test("the first title wins; blank and NUL-padded values are trimmed or ignored")
    func firstValueWins() {
        let m = applying([("TITLE", "  Song\u{0}\u{0}"), ("TIT2", "Other"), ("ARTIST", "   ")])
        #expect(m.title == "Song")
        #expect(m.artist == nil)
    }
}
