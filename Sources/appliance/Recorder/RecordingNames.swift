import HAL

/// Names for takes: local date and time (`2026-11-24_19-45-03.wav`), a `-2`, `-3`... suffix when the name is
/// taken (two takes, or a split, in one second), and `NAME-safety.EXT` for the safety track beside it.
struct RecordingNames: Sendable {
    let directory: String
    let fileExtension: String
    /// Whether a path exists already (the file system; a test may fake it).
    var exists: @Sendable (String) -> Bool = { FileStatus.of($0) != nil }

    static func stamp(_ time: LocalDateTime) -> String {
        func two(_ value: Int) -> String { value < 10 ? "0\(value)" : "\(value)" }
        return "\(time.year)-\(two(time.month))-\(two(time.day))_\(two(time.hour))-\(two(time.minute))-\(two(time.second))"
    }

    /// The first free base name (without extension) for a take begun at `time`: neither it nor its safety
    /// file exists.
    func base(at time: LocalDateTime) -> String {
        let stamp = Self.stamp(time)
        var candidate = stamp
        var number = 1
        while exists(path(candidate)) || exists(safetyPath(candidate)) {
            number += 1
            candidate = "\(stamp)-\(number)"
        }
        return candidate
    }

    func path(_ base: String) -> String { "\(directory)/\(base).\(fileExtension)" }
    func safetyPath(_ base: String) -> String { "\(directory)/\(base)-safety.\(fileExtension)" }
}

/// The containers a take can be written in.
enum AudioFileKind: String, Hashable, Sendable, CaseIterable {
    case wav, caf, aiff
}
