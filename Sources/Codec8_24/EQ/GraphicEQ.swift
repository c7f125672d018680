/// The 10-band graphic equalizer: bells on the ISO octave centres, one gain per band.
public enum GraphicEQ {
    /// The octave centres in Hz (the ISO 266 nominal series, as graphic EQs label them).
    public static let centreFrequencies: [Double] = [31, 62, 125, 250, 500, 1000, 2000, 4000, 8000, 16000]
    /// One octave wide between the -3 dB points of the bell's boost: Q = √2 / (2 - 1) ≈ 1.414.
    public static let bandQ = 2.0.squareRoot()

    /// The bells for `gains` (one per centre, in dB), leaving out flat bands and bands above
    /// `EQBand.maximumFrequencyRatio × sampleRate`.
    public static func bands(gains: [Double], sampleRate: Double) -> [EQBand] {
        precondition(gains.count == centreFrequencies.count, "a graphic EQ has \(centreFrequencies.count) bands")
        var bands: [EQBand] = []
        for (frequency, gain) in zip(centreFrequencies, gains) {
            let band = EQBand(.peaking, frequency: frequency, q: bandQ, gainDB: gain)
            if band.isActive && band.fits(sampleRate: sampleRate) { bands.append(band) }
        }
        return bands
    }
}
