import Queue
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

/// The formats a take can be written in: linear PCM in WAV, CAF or AIFF; FLAC; Opus in Ogg; Apple Lossless
/// in M4A, written fragmented (a fragment per commit), so a take cut by a power loss plays up to its last
/// commit; an ALAC CAF would be unreadable (FFmpeg writes its packet table only at the end).
enum AudioFileKind: String, Hashable, Sendable, CaseIterable {
    case wav, caf, aiff, flac, opus, alac

    var fileType: AudioFileType {
        switch self {
        case .wav: .wave
        case .caf: .caf
        case .alac: .m4a
        case .aiff: .aiff
        case .flac: .flac
        case .opus: .ogg
        }
    }

    var fileExtension: String {
        switch self {
        case .wav, .caf, .aiff, .flac, .opus: rawValue
        case .alac: "m4a"
        }
    }

    /// Uncompressed samples (WAV, CAF, AIFF), rather than a codec's.
    var isPCM: Bool { self == .wav || self == .caf || self == .aiff }

    /// The sample sizes it records (Opus encodes whatever it is given: none to choose).
    var bitDepths: [Int] {
        switch self {
        case .wav, .caf, .aiff: [16, 24, 32]
        case .flac, .alac: [16, 24]
        case .opus: []
        }
    }

    /// The file's data format for `bits`-bit `channels`-channel audio at `rate`.
    func format(rate: Double, channels: Int, bits: Int) -> StreamFormat {
        switch self {
        case .wav, .caf, .aiff: .linearPCM(sampleRate: rate, channels: channels, bits: bits, isBigEndian: self == .aiff)
        case .flac: .compressed(.flac, sampleRate: rate, channels: channels, bitsPerChannel: bits)
        case .alac: .compressed(.appleLossless, sampleRate: rate, channels: channels, bitsPerChannel: bits)
        case .opus: .compressed(.opus, sampleRate: rate, channels: channels)
        }
    }

    /// Bytes a frame takes on disk at most, for splitting by size and the space check: the PCM size for the
    /// lossless codecs (their worst case, noise, barely compresses), the bit rate for Opus.
    func bytesPerFrame(rate: Double, channels: Int, bits: Int, bitRate: Int?) -> Double {
        switch self {
        case .wav, .caf, .aiff, .flac, .alac: Double(channels * bits / 8)
        case .opus: Double(bitRate ?? Self.opusDefaultBitRate(channels: channels)) / 8 / rate
        }
    }

    /// Opus without a bit rate set: an upper estimate of the encoder's own choice, for size estimates only.
    static func opusDefaultBitRate(channels: Int) -> Int { channels > 1 ? 128_000 : 64_000 }

    /// Opus's bit-rate range, as the settings and console say it.
    static let bitRateRange = EncoderSettings.opusBitRates
    static let bitRateRangeText = "\(bitRateRange.lowerBound) to \(bitRateRange.upperBound)"

    /// The formats by name, for messages ("wav, caf, aiff, flac, opus, alac").
    static let choices = allCases.map(\.rawValue).joined(separator: ", ")

    /// `96000` or `96k`, within `bitRateRange`.
    static func bitRate(_ text: String) -> Int? {
        let lower = text.lowercased()
        let kilo = lower.hasSuffix("k")
        let digits = kilo ? lower.dropLast() : lower[...]
        guard !digits.isEmpty, digits.allSatisfy({ $0.isASCII && $0.isNumber }), digits.count <= 9,
              let number = Int(digits) else { return nil }
        let value = kilo ? number * 1000 : number
        return bitRateRange.contains(value) ? value : nil
    }
}
