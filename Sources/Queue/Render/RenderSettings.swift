import Codec8_24

/// What an offline render or conversion does between reading and writing.
public struct RenderSettings: Sendable {
    /// The EQ preset to apply, or nil for none.
    public var preset: EQPreset?
    /// Gain in dB after the EQ.
    public var gainDB: Double
    /// Soft-limit peaks just below full scale (after the gain).
    public var limit: Bool
    /// Output sample rate (a `StandardSampleRate` when it differs from the input's), or nil to keep it.
    public var outputRate: Int?
    /// Output channel count, or nil to keep it. 1 <-> 2 mix down / duplicate; otherwise channels are
    /// dropped or silent ones added.
    public var outputChannels: Int?
    /// TPDF dither when the output is 16- or 24-bit integer (render: yes; a plain convert: no).
    public var dither: Bool

    public init(preset: EQPreset? = nil, gainDB: Double = 0, limit: Bool = false, outputRate: Int? = nil,
                outputChannels: Int? = nil, dither: Bool = false) {
        self.preset = preset
        self.gainDB = gainDB
        self.limit = limit
        self.outputRate = outputRate
        self.outputChannels = outputChannels
        self.dither = dither
    }
}
