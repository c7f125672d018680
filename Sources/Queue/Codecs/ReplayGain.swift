/// ReplayGain as a file's tags carry it (ReplayGain 2.0 specification: REPLAYGAIN_TRACK_GAIN "-6.20 dB",
/// REPLAYGAIN_TRACK_PEAK "0.988525", and the album pair), in dB relative to the ReplayGain reference level.
/// Opus's R128_TRACK_GAIN / R128_ALBUM_GAIN (RFC 7845 section 5.2.1: Q7.8 dB relative to -23 LUFS) are
/// converted on reading by adding 5 dB (ReplayGain 2.0's reference is -18 LUFS).
public struct ReplayGain: Hashable, Sendable {
    public var trackGain: Double?
    /// Linear sample peak of the track, 1.0 = full scale.
    public var trackPeak: Double?
    public var albumGain: Double?
    public var albumPeak: Double?

    public init(trackGain: Double? = nil, trackPeak: Double? = nil, albumGain: Double? = nil, albumPeak: Double? = nil) {
        self.trackGain = trackGain
        self.trackPeak = trackPeak
        self.albumGain = albumGain
        self.albumPeak = albumPeak
    }

    public var isEmpty: Bool { trackGain == nil && trackPeak == nil && albumGain == nil && albumPeak == nil }
}
