/// Everything the appliance remembers across restarts, kept in one JSON file (`SettingsStore`). Every field
/// has a default, so a file from an older version (or none) loads; unknown keys are ignored.
struct ApplianceSettings: Hashable, Sendable, Codable {
    /// Output level in dB per route ("speaker", "headphones", "lineOut"), as the user last set it.
    var volumeDB: [String: Double] = [:]
    var muted = false
    /// The most the headphones get when plugged in (HeadphoneSafeLevel); nil: the firmware's default.
    var headphoneCapDB: Double?
    /// The EQ preset's name ("flat" when none).
    var eqPreset = "flat"
    /// The selected input ("mic", "line", "headset"); nil: the board's default.
    var input: String?
    /// The session category's raw value.
    var category = "playAndRecord"
    /// Seconds into each long file where playback was left, by path relative to the media directory.
    var positions: [String: Double] = [:]
    var repeatMode = RepeatMode.off
    var shuffle = false
    /// The last file or folder played, relative to the media directory.
    var lastPlayed: String?
    /// ReplayGain off (MPD's default), per track or per album.
    var replayGain = ReplayGainMode.off
    /// dB added to the tagged ReplayGain (the peak limit still holds).
    var replayGainPreampDB = 0.0
    var recording = RecordingDefaults()

    init() {}

    /// What `record` uses when it names nothing.
    struct RecordingDefaults: Hashable, Sendable, Codable {
        /// The format `record` writes (AudioFileKind: "wav", "caf", "aiff", "flac", "opus", "alac"); nil: the
        /// board's default (WAV).
        var container: String?
        /// Bits per second for Opus recordings; nil: the encoder's default.
        var bitRate: Int?
        var bits: Int?
        var rate: Int?
        var channels: Int?
        var preRollSeconds = 0.0
        var safetyTrack = false
        /// `record --vox` without a level: quieter than speech at a metre (about -30 to -20 dBFS at a typical
        /// input gain), louder than a quiet room's noise floor (about -60 dBFS).
        var voxThresholdDB = -40.0
        var voxHangSeconds = 2.0
        var splitSeconds: Double?
        var splitBytes: Int64?
        /// Refuse to start, and stop, below this much free space.
        var minimumFreeBytes: Int64 = 64 << 20

        init() {}
    }
}
