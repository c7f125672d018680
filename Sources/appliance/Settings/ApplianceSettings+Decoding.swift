import FoundationEssentials

// Decoding that takes every missing key as its default, so a settings file from an older version (fewer
// keys) still loads; the synthesized Decodable would refuse it with `keyNotFound`. Encoding stays synthesized.

extension ApplianceSettings {
    init(from decoder: any Decoder) throws {
        self.init()
        let keys = try decoder.container(keyedBy: SettingsKey.self)
        volumeDB = try keys.decodeIfPresent([String: Double].self, forKey: "volumeDB") ?? volumeDB
        muted = try keys.decodeIfPresent(Bool.self, forKey: "muted") ?? muted
        headphoneCapDB = try keys.decodeIfPresent(Double.self, forKey: "headphoneCapDB") ?? headphoneCapDB
        eqPreset = try keys.decodeIfPresent(String.self, forKey: "eqPreset") ?? eqPreset
        input = try keys.decodeIfPresent(String.self, forKey: "input") ?? input
        category = try keys.decodeIfPresent(String.self, forKey: "category") ?? category
        positions = try keys.decodeIfPresent([String: Double].self, forKey: "positions") ?? positions
        repeatMode = try keys.decodeIfPresent(RepeatMode.self, forKey: "repeatMode") ?? repeatMode
        shuffle = try keys.decodeIfPresent(Bool.self, forKey: "shuffle") ?? shuffle
        lastPlayed = try keys.decodeIfPresent(String.self, forKey: "lastPlayed") ?? lastPlayed
        recording = try keys.decodeIfPresent(RecordingDefaults.self, forKey: "recording") ?? recording
        replayGain = try keys.decodeIfPresent(ReplayGainMode.self, forKey: "replayGain") ?? replayGain
        replayGainPreampDB = try keys.decodeIfPresent(Double.self, forKey: "replayGainPreampDB") ?? replayGainPreampDB
    }
}

extension ApplianceSettings.RecordingDefaults {
    init(from decoder: any Decoder) throws {
        self.init()
        let keys = try decoder.container(keyedBy: SettingsKey.self)
        container = try keys.decodeIfPresent(String.self, forKey: "container") ?? container
        bits = try keys.decodeIfPresent(Int.self, forKey: "bits") ?? bits
        rate = try keys.decodeIfPresent(Int.self, forKey: "rate") ?? rate
        channels = try keys.decodeIfPresent(Int.self, forKey: "channels") ?? channels
        bitRate = try keys.decodeIfPresent(Int.self, forKey: "bitRate") ?? bitRate
        preRollSeconds = try keys.decodeIfPresent(Double.self, forKey: "preRollSeconds") ?? preRollSeconds
        safetyTrack = try keys.decodeIfPresent(Bool.self, forKey: "safetyTrack") ?? safetyTrack
        voxThresholdDB = try keys.decodeIfPresent(Double.self, forKey: "voxThresholdDB") ?? voxThresholdDB
        voxHangSeconds = try keys.decodeIfPresent(Double.self, forKey: "voxHangSeconds") ?? voxHangSeconds
        splitSeconds = try keys.decodeIfPresent(Double.self, forKey: "splitSeconds") ?? splitSeconds
        splitBytes = try keys.decodeIfPresent(Int64.self, forKey: "splitBytes") ?? splitBytes
        minimumFreeBytes = try keys.decodeIfPresent(Int64.self, forKey: "minimumFreeBytes") ?? minimumFreeBytes
    }
}

/// A settings key by its name (the property's name, as the synthesized encoder writes it).
struct SettingsKey: CodingKey, ExpressibleByStringLiteral {
    var stringValue: String
    var intValue: Int? { nil }
    init(stringValue: String) { self.stringValue = stringValue }
    init?(intValue: Int) { nil }
    init(stringLiteral value: String) { stringValue = value }
}
