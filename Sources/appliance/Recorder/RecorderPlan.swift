/// What one `record` asks for, resolved against the settings and the board: the numbers `RecorderState`
/// decides by, in frames of the recording's rate so every decision lands on an exact frame.
struct RecorderPlan: Hashable, Sendable {
    var sampleRate: Double
    /// Bytes one frame takes in the file (for splitting by size): exact for PCM, the most for FLAC and ALAC,
    /// the bit rate's share for Opus (a fraction of a byte).
    var bytesPerFrame: Double
    /// Voice activation: start when a block's peak reaches this (dBFS); nil: start at the press.
    var voxThresholdDB: Double?
    /// Voice activation: end the take after this long below the threshold.
    var voxHangSeconds: Double = 2
    /// Frames before the trigger kept and written first.
    var preRollSeconds: Double = 0
    var splitSeconds: Double?
    var splitBytes: Int64?
    /// `record --seconds N`: the take ends after exactly N seconds of frames.
    var limitSeconds: Double?
    /// Refuse to start, and stop, below this much free space.
    var minimumFreeBytes: Int64 = 0

    var preRollFrames: Int { Int(clamping: Self.frames(preRollSeconds, at: sampleRate, atLeast: 0)) }
    var hangFrames: Int64 { Self.frames(voxHangSeconds, at: sampleRate, atLeast: 1) }
    var limitFrames: Int64? { limitSeconds.map { Self.frames($0, at: sampleRate, atLeast: 1) } }

    /// The longest take or file (`--seconds`, a split) accepted: a day.
    static let maximumSeconds = 86_400.0
    static let maximumPreRollSeconds = 60.0
    static let maximumHangSeconds = 3_600.0

    /// `seconds` at `rate` in whole frames, never trapping: NaN and anything below `minimum` give `minimum`,
    /// anything beyond Int64 gives Int64.max (`refusal` refuses such numbers; this keeps the conversion safe).
    static func frames(_ seconds: Double, at rate: Double, atLeast minimum: Int64) -> Int64 {
        let frames = (seconds * rate).rounded()
        guard frames >= Double(minimum) else { return minimum }
        return frames < 0x1p63 ? Int64(frames) : .max
    }

    /// Frames per file: the smaller of the duration split and the size split (whole frames that fit).
    var splitFrames: Int64? {
        let byTime = splitSeconds.map { Self.frames($0, at: sampleRate, atLeast: 1) }
        let bySize = splitBytes.map { bytes -> Int64 in
            let frames = (Double(bytes) / bytesPerFrame).rounded(.down)
            return frames >= 0x1p63 ? .max : max(1, Int64(frames))
        }
        switch (byTime, bySize) {
        case let (time?, size?): return min(time, size)
        case let (time?, nil): return time
        case let (nil, size?): return size
        case (nil, nil): return nil
        }
    }

    /// Why these numbers cannot be recorded by, if they cannot.
    var refusal: String? {
        if !(sampleRate > 0) || !(bytesPerFrame > 0 && bytesPerFrame.isFinite) { return "a recording needs a positive rate and frame size" }
        if let limitSeconds, !(limitSeconds > 0) { return "--seconds must be more than 0, not \(limitSeconds)" }
        if let limitSeconds, !(limitSeconds <= Self.maximumSeconds) {
            return "--seconds must be at most \(Int(Self.maximumSeconds)) (24 h), not \(limitSeconds)"
        }
        if let splitSeconds, !(splitSeconds > 0 && splitSeconds <= Self.maximumSeconds) {
            return "a split every \(splitSeconds) s is not possible: choose up to \(Int(Self.maximumSeconds)) s (24 h)"
        }
        if let splitBytes, Double(splitBytes) < bytesPerFrame { return "a split every \(splitBytes) bytes holds no frame" }
        if !(preRollSeconds >= 0 && preRollSeconds <= Self.maximumPreRollSeconds) {
            return "pre-roll must be 0 to 60 s, not \(preRollSeconds)"
        }
        if !(voxHangSeconds > 0 && voxHangSeconds <= Self.maximumHangSeconds) {
            return "the vox hang time must be more than 0 s and at most an hour, not \(voxHangSeconds)"
        }
        if let voxThresholdDB, !(voxThresholdDB < 0 && voxThresholdDB.isFinite) {
            return "the vox threshold must be below 0 dBFS, not \(voxThresholdDB)"
        }
        return nil
    }
}
