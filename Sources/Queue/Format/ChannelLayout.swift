/// The role of one channel (Core Audio's `AudioChannelLabel`). Labels 1...18 are the speaker positions in the
/// order of the WAV channel mask bits (bit `n` is label `n + 1`), which is also Core Audio's channel bitmap.
public struct ChannelLabel: RawRepresentable, Hashable, Sendable, CustomStringConvertible {
    public let rawValue: UInt32
    public init(rawValue: UInt32) { self.rawValue = rawValue }

    public static let unknown = ChannelLabel(rawValue: 0xFFFF_FFFF)
    public static let left = ChannelLabel(rawValue: 1)
    public static let right = ChannelLabel(rawValue: 2)
    public static let center = ChannelLabel(rawValue: 3)
    public static let lfe = ChannelLabel(rawValue: 4)
    public static let leftSurround = ChannelLabel(rawValue: 5)
    public static let rightSurround = ChannelLabel(rawValue: 6)
    /// Channel `n` (0-based) with no speaker position.
    public static func discrete(_ n: Int) -> ChannelLabel { ChannelLabel(rawValue: 1 << 16 | UInt32(n & 0xFFFF)) }

    /// The WAV channel-mask bit for a speaker label, or nil.
    var maskBit: UInt32? { (1...18).contains(rawValue) ? 1 << (rawValue - 1) : nil }

    static let names = ["L", "R", "C", "LFE", "Ls", "Rs", "Lc", "Rc", "Cs", "Lsd", "Rsd", "Ts", "Vhl", "Vhc", "Vhr",
                        "Tbl", "Tbc", "Tbr"]
    public var description: String {
        if (1...18).contains(rawValue) { return Self.names[Int(rawValue) - 1] }
        if rawValue >> 16 == 1 { return "D\(rawValue & 0xFFFF)" }
        return "?"
    }
}

/// Which channel is which, for streams of 3+ channels (where the order is otherwise ambiguous).
public struct ChannelLayout: Hashable, Sendable, CustomStringConvertible {
    /// One label per channel, in interleaving order.
    public var labels: [ChannelLabel]

    public init(labels: [ChannelLabel]) { self.labels = labels }

    public var channelCount: Int { labels.count }

    /// The first `channelCount` WAV speaker positions (L R C LFE Ls Rs ...), or discrete channels past 18.
    public static func standard(channelCount: Int) -> ChannelLayout {
        ChannelLayout(labels: (0..<max(0, channelCount)).map { $0 < 18 ? ChannelLabel(rawValue: UInt32($0 + 1)) : .discrete($0) })
    }

    /// The layout a WAV channel mask describes; channels beyond the mask's set bits are discrete.
    public init(waveChannelMask mask: UInt32, channelCount: Int) {
        var labels: [ChannelLabel] = []
        var bit: UInt32 = 0
        while labels.count < channelCount && bit < 18 {
            if mask & (1 << bit) != 0 { labels.append(ChannelLabel(rawValue: bit + 1)) }
            bit += 1
        }
        while labels.count < channelCount { labels.append(.discrete(labels.count)) }
        self.labels = labels
    }

    /// The WAV channel mask, when every label is a speaker position in mask order; otherwise 0 (unassigned).
    public var waveChannelMask: UInt32 {
        var mask: UInt32 = 0
        var previous: UInt32 = 0
        for label in labels {
            guard let bit = label.maskBit, bit > previous else { return 0 }
            mask |= bit
            previous = bit
        }
        return mask
    }

    public var description: String { labels.map(\.description).joined(separator: " ") }
}
