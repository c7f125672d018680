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
    var recording = RecordingDefaults()

    init() {}

    /// What `record` uses when it names nothing.
    struct RecordingDefaults: Hashable, Sendable, Codable {
        /// "wav", "caf" or "aiff"; nil: the board's default.
        var container: String?
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
