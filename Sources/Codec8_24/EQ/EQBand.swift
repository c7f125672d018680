/// One band of an equalizer: a filter shape at a frequency, with a width (Q) and, for bells and shelves, a gain.
public struct EQBand: Equatable, Sendable {
    public var type: BiquadType
    /// Centre, corner or shelf midpoint frequency in Hz.
    public var frequency: Double
    public var q: Double
    /// Boost (positive) or cut (negative) in dB; ignored by shapes without gain.
    public var gainDB: Double

    public init(_ type: BiquadType, frequency: Double, q: Double, gainDB: Double = 0) {
        self.type = type
        self.frequency = frequency
        self.q = q
        self.gainDB = gainDB
    }

    /// The band's biquad at `sampleRate`.
    public func coefficients(sampleRate: Double) -> BiquadCoefficients {
        BiquadCoefficients(type, frequency: frequency, q: q, gainDB: gainDB, sampleRate: sampleRate)
    }

    /// Whether the band changes anything: bells and shelves at 0 dB are exactly flat and are left out.
    public var isActive: Bool { !(type.usesGain && gainDB == 0) }

    /// Bands are only realised below this fraction of the sample rate: above it the bilinear transform has
    /// squeezed them against Nyquist, and there is little audio left to shape.
    public static let maximumFrequencyRatio = 0.45

    /// Whether the band can be realised at `sampleRate` (see `maximumFrequencyRatio`).
    public func fits(sampleRate: Double) -> Bool {
        frequency <= Self.maximumFrequencyRatio * sampleRate
    }
}
