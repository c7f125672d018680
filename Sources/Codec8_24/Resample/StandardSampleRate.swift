/// The sample rates the converter supports: the 8 kHz telephony family, the 44.1 kHz CD family and the
/// 48 kHz video/pro family, as the first iPhone OS hardware and its file formats used them.
///
/// A closed set keeps the polyphase tables bounded: the largest reduced ratio among these rates is
/// 1280/147 (11.025 kHz to 96 kHz), which fixes the worst-case coefficient table size.
public enum StandardSampleRate: Int, CaseIterable, Sendable, Comparable {
    case hz8000 = 8000
    case hz11025 = 11025
    case hz16000 = 16000
    case hz22050 = 22050
    case hz32000 = 32000
    case hz44100 = 44100
    case hz48000 = 48000
    case hz88200 = 88200
    case hz96000 = 96000

    /// The rate in frames per second.
    @inlinable
    public var hertz: Int { rawValue }

    /// The standard rate with exactly this many frames per second, or `nil`.
    @inlinable
    public init?(hertz: Int) { self.init(rawValue: hertz) }

    @inlinable
    public static func < (lhs: StandardSampleRate, rhs: StandardSampleRate) -> Bool { lhs.rawValue < rhs.rawValue }
}
