import RealModule

/// An EQ curve designed for one sample rate: its biquads, where its response peaks, and the pre-cut that
/// keeps a full-scale signal from clipping at that peak.
public struct EQDesign: Equatable, Sendable {
    public let sampleRate: Double
    /// The realised bands, in cascade order.
    public let bands: [EQBand]
    /// One biquad per band, without the pre-cut.
    public let stages: [BiquadCoefficients]
    /// The maximum of the cascade's magnitude response over 0...fs/2, in dB, and where it is.
    public let peakGainDB: Double
    public let peakFrequency: Double
    /// The gain in front of the cascade (≤ 0 dB), in 0.1 dB steps: the peak gain plus a small margin, rounded
    /// up, so that the fixed-point rounding of a full-scale sine at the peak cannot reach past 1.0.
    public let precutDB: Double

    /// Headroom kept beyond the peak gain before rounding the pre-cut to 0.1 dB.
    public static let precutMargin = 0.005

    public init(curve: EQCurve, sampleRate: Double) {
        self.init(bands: curve.bands(sampleRate: sampleRate), sampleRate: sampleRate)
    }

    public init(bands: [EQBand], sampleRate: Double) {
        self.sampleRate = sampleRate
        self.bands = bands
        let stages = bands.map { $0.coefficients(sampleRate: sampleRate) }
        self.stages = stages
        let peak = Self.peak(of: stages, sampleRate: sampleRate)
        peakFrequency = peak.frequency
        peakGainDB = peak.gainDB
        let needed = peak.gainDB + Self.precutMargin
        precutDB = stages.isEmpty || needed <= 0 ? 0 : -(needed * 10).rounded(.up) / 10
    }

    /// The pre-cut as a linear gain.
    public var precutGain: Double { Decibels.linear(precutDB) }

    /// The 8.24 cascade that realises this design: the stages, with the pre-cut as its input gain.
    public func makeCascade(channels: Int) -> BiquadCascade {
        BiquadCascade(stages: stages, channels: channels, inputGain: precutGain)
    }

    /// The whole design as plain biquads, the pre-cut folded into the first stage's numerator: the same
    /// transfer function as `makeCascade`, for `Double` references and response calculations.
    public var cascadeStages: [BiquadCoefficients] {
        guard var first = stages.first else { return [] }
        first = first.scaled(by: Decibels.linear(precutDB))
        return [first] + stages.dropFirst()
    }

    /// The designed response in dB at `frequency`, pre-cut included.
    public func responseDB(at frequency: Double) -> Double {
        Decibels.decibels(cascadeStages.magnitude(atFrequency: frequency, sampleRate: sampleRate))
    }

    /// The maximum of the cascade's magnitude over 0...fs/2: a dense log-spaced grid from 1 Hz, DC and
    /// Nyquist, then a golden-section search in log frequency around the best grid point.
    public static func peak(of stages: [BiquadCoefficients], sampleRate: Double) -> (frequency: Double, gainDB: Double) {
        guard !stages.isEmpty else { return (0, 0) }
        let nyquist = sampleRate / 2
        func gain(_ f: Double) -> Double { stages.magnitude(atFrequency: f, sampleRate: sampleRate) }
        var bestFrequency = 0.0
        var bestGain = gain(0)
        let nyquistGain = gain(nyquist)
        if nyquistGain > bestGain {
            bestFrequency = nyquist
            bestGain = nyquistGain
        }
        let points = 4000
        let logLow = Double.log(1.0)
        let logHigh = Double.log(nyquist)
        let step = (logHigh - logLow) / Double(points - 1)
        var bestIndex = -1
        for i in 0..<points {
            let f = Double.exp(logLow + step * Double(i))
            let g = gain(f)
            if g > bestGain {
                bestGain = g
                bestFrequency = f
                bestIndex = i
            }
        }
        if bestIndex >= 0 {
            // Golden-section search for the maximum between the neighbouring grid points.
            var a = logLow + step * Double(bestIndex - 1)
            var b = Swift.min(logLow + step * Double(bestIndex + 1), logHigh)
            let ratio = (5.0.squareRoot() - 1) / 2
            var c = b - ratio * (b - a)
            var d = a + ratio * (b - a)
            var gc = gain(Double.exp(c))
            var gd = gain(Double.exp(d))
            for _ in 0..<60 {
                if gc > gd {
                    b = d
                    d = c
                    gd = gc
                    c = b - ratio * (b - a)
                    gc = gain(Double.exp(c))
                } else {
                    a = c
                    c = d
                    gc = gd
                    d = a + ratio * (b - a)
                    gd = gain(Double.exp(d))
                }
            }
            let f = Double.exp((a + b) / 2)
            let refined = gain(f)
            if refined >= bestGain {
                bestFrequency = f
                bestGain = refined
            }
        }
        return (bestFrequency, Decibels.decibels(bestGain))
    }
}
