/// What a session means to do with audio; the policy (`CategoryPolicy`) follows from it.
/// The categories and their rules are AVAudioSession's (Audio Session Programming Guide, Table B-1
/// "Audio Session category behavior"); the 2008 talk's older names map onto them (media playback ->
/// playback, recording -> record; shared/reference/core-audio-iphone-2008.md 1.11).
public enum SessionCategory: String, Hashable, Sendable, CaseIterable, CustomStringConvertible {
    /// Sounds that mix with whatever plays (a game's effects, a UI click track). Output only.
    case ambient
    /// The default: output only, and it silences other non-mixable audio when it becomes active.
    case soloAmbient
    /// Playback that is the point (the player): non-mixable unless `mixWithOthers`. Output only.
    case playback
    /// Recording: input only, non-mixable, and it silences virtually all other output while active,
    /// system sounds included.
    case record
    /// Simultaneous input and output (an intercom, monitoring): non-mixable unless `mixWithOthers`.
    case playAndRecord

    /// AVAudioSession's default category (Table B-1: "AVAudioSessionCategorySoloAmbient (Default)").
    public static let `default` = SessionCategory.soloAmbient

    public var description: String { rawValue }
}

/// Refinements of `playback` and `playAndRecord` (AVAudioSession.CategoryOptions).
public struct SessionCategoryOptions: OptionSet, Hashable, Sendable, CustomStringConvertible {
    public let rawValue: UInt8
    public init(rawValue: UInt8) { self.rawValue = rawValue }

    /// Sound together with other active sessions instead of interrupting them.
    public static let mixWithOthers = SessionCategoryOptions(rawValue: 1 << 0)
    /// Lower the other sessions' volume while this one is active; implies `mixWithOthers` (Apple's
    /// duckOthers: "Setting it implicitly sets the mixWithOthers option").
    public static let duckOthers = SessionCategoryOptions(rawValue: 1 << 1)

    public var description: String {
        var names: [String] = []
        if contains(.mixWithOthers) { names.append("mixWithOthers") }
        if contains(.duckOthers) { names.append("duckOthers") }
        return names.isEmpty ? "none" : names.joined(separator: ", ")
    }
}
