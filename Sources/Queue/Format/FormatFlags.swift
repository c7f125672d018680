/// How linear PCM samples are laid out (Core Audio's `kAudioFormatFlag…` bits, same values).
public struct FormatFlags: OptionSet, Hashable, Sendable {
    public let rawValue: UInt32
    public init(rawValue: UInt32) { self.rawValue = rawValue }

    public static let isFloat = FormatFlags(rawValue: 1 << 0)
    public static let isBigEndian = FormatFlags(rawValue: 1 << 1)
    public static let isSignedInteger = FormatFlags(rawValue: 1 << 2)
    public static let isPacked = FormatFlags(rawValue: 1 << 3)
    public static let isAlignedHigh = FormatFlags(rawValue: 1 << 4)
    public static let isNonInterleaved = FormatFlags(rawValue: 1 << 5)
}
