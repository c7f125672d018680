// The ranges a loaded settings file must keep to. A hand-edited or damaged file may hold 1e300 or a number
// out of range; such a value is replaced by its default and reported, so nothing downstream converts it to
// frames or codec steps (which would trap) or plays at it.

extension ApplianceSettings {
    /// Any level in dB: from the silence floor (-144 dB, Decibels.silenceFloor) to +24 dB, above every
    /// codec's analog gain.
    static let decibelRange = -144.0...24.0
    /// A playback position: up to a week of audio.
    static let positionRange = 0.0...604_800.0

    /// Replaces every out-of-range or non-finite value by its default; returns what was replaced, and why.
    mutating func replaceOutOfRange() -> [String] {
        var problems: [String] = []
        let defaults = ApplianceSettings()
        let recordingDefaults = RecordingDefaults()
        func check(_ name: String, _ value: inout Double, in range: ClosedRange<Double>, default: Double) {
            guard !range.contains(value) else { return }   // NaN is contained in no range
            problems.append("\(name) \(value) is outside \(range.lowerBound)...\(range.upperBound): \(`default`) used")
            value = `default`
        }
        func check(_ name: String, _ table: inout [String: Double], in range: ClosedRange<Double>) {
            for (key, value) in table where !range.contains(value) {
                problems.append("\(name)[\(key)] \(value) is outside \(range.lowerBound)...\(range.upperBound): dropped")
                table[key] = nil
            }
        }
        check("volumeDB", &volumeDB, in: Self.decibelRange)
        check("positions", &positions, in: Self.positionRange)
        if let cap = headphoneCapDB, !Self.decibelRange.contains(cap) {
            problems.append("headphoneCapDB \(cap) is outside \(Self.decibelRange.lowerBound)...\(Self.decibelRange.upperBound): the default used")
            headphoneCapDB = defaults.headphoneCapDB
        }
        check("recording.preRollSeconds", &recording.preRollSeconds, in: 0...RecorderPlan.maximumPreRollSeconds,
              default: recordingDefaults.preRollSeconds)
        check("recording.voxHangSeconds", &recording.voxHangSeconds, in: 0.001...RecorderPlan.maximumHangSeconds,
              default: recordingDefaults.voxHangSeconds)
        check("recording.voxThresholdDB", &recording.voxThresholdDB, in: Self.decibelRange.lowerBound...(-0.1),
              default: recordingDefaults.voxThresholdDB)
        check("replayGainPreampDB", &replayGainPreampDB, in: AppliedReplayGain.preampRange, default: defaults.replayGainPreampDB)
        if let container = recording.container, AudioFileKind(rawValue: container.lowercased()) == nil {
            problems.append("recording.container '\(container)' is not "
                            + AudioFileKind.choices + ": the board's default used")
            recording.container = recordingDefaults.container
        }
        if let rate = recording.bitRate, !AudioFileKind.bitRateRange.contains(rate) {
            problems.append("recording.bitRate \(rate) is outside \(AudioFileKind.bitRateRangeText) bits/s: the encoder's default used")
            recording.bitRate = recordingDefaults.bitRate
        }
        if let split = recording.splitSeconds, !(split > 0 && split <= RecorderPlan.maximumSeconds) {
            problems.append("recording.splitSeconds \(split) is outside 0...\(RecorderPlan.maximumSeconds): no split used")
            recording.splitSeconds = recordingDefaults.splitSeconds
        }
        return problems
    }
}
