import Codec8_24

/// An output's level as the driver set it: the requested dB split into the codec's coarse stages and the
/// fine remainder the 8.24 gain stage applies, so `codecDB + fineDB == levelDB` exactly.
public struct VolumeSetting: Hashable, Sendable, CustomStringConvertible {
    public var output: CodecOutput
    /// The level after the board maximum capped it (what `volume(of:)` returns).
    public var levelDB: Double
    /// Gain of each codec stage, coarse first (same order as the capabilities' stages).
    public var stageDB: [Double]
    /// The remainder for the software 8.24 gain stage, in (-step, 0]: never a boost, so it cannot clip.
    public var fineDB: Double
    /// Below the codec's range: every stage muted.
    public var isMuted: Bool

    public init(output: CodecOutput, levelDB: Double, stageDB: [Double], fineDB: Double, isMuted: Bool) {
        self.output = output
        self.levelDB = levelDB
        self.stageDB = stageDB
        self.fineDB = fineDB
        self.isMuted = isMuted
    }

    /// The gain the codec applies, summed over its stages.
    public var codecDB: Double { stageDB.reduce(0, +) }

    /// The fine remainder as an 8.24 gain (zero when muted), what `FineGainStage.take(fineGain:)` applies.
    public var fineGain: Fixed824 { isMuted ? .zero : Decibels.gain(fineDB) }

    public var description: String {
        isMuted ? "\(output) muted" : "\(output) \(levelDB) dB = codec \(stageDB) + fine \(fineDB) dB"
    }
}
