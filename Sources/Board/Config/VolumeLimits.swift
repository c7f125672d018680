/// The output volume's cap and starting point, in dB relative to the codec's full scale. The cap protects
/// ears on headphones and the speaker on an amplifier board: no command or button goes above it.
public struct VolumeLimits: Hashable, Sendable {
    public var maximumDB: Double
    public var defaultDB: Double

    public init(maximumDB: Double, defaultDB: Double) {
        self.maximumDB = maximumDB
        self.defaultDB = defaultDB
    }

    /// Caps a file may set: from quiet to the +12 dB the analog stages of these codecs reach at most.
    public static let maximumRange = -60.0...12.0
    /// Defaults a file may set (never above the cap).
    public static let defaultRange = -100.0...12.0
    /// The default when the file names none: 20 dB under the cap, a comfortable first sound.
    public static func standardDefault(maximumDB: Double) -> Double { maximumDB - 20 }
}
