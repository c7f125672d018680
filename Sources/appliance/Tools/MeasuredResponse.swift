import Codec8_24

/// A preset's magnitude response measured through the real 8.24 cascade (`ResponseMeasurement`) at
/// log-spaced frequencies from 20 Hz to 20 kHz, for the terminal chart and the SVG plot.
struct MeasuredResponse {
    static let lowest = 20.0
    static let highest = 20_000.0
    /// Points across the 20 Hz–20 kHz decades: one per terminal chart column.
    static let points = 72

    let sampleRate: Double
    /// Measured points, below 0.49·fs only (the rest cannot be played at this rate).
    let frequencies: [Double]
    let gainsDB: [Double]

    init(design: EQDesign) {
        sampleRate = design.sampleRate
        let all = (0..<Self.points).map { Self.frequency(atFraction: (Double($0) + 0.5) / Double(Self.points)) }
        frequencies = all.filter { $0 < 0.49 * design.sampleRate }
        gainsDB = ResponseMeasurement.magnitudeDB(of: design, at: frequencies)
    }

    /// The frequency `fraction` (0...1) of the way along the log axis.
    static func frequency(atFraction fraction: Double) -> Double {
        lowest * pow1000(fraction)
    }

    /// Position of `frequency` on the log axis, 0...1.
    static func fraction(of frequency: Double) -> Double {
        log1000(frequency / lowest)
    }
}

import RealModule

private func pow1000(_ x: Double) -> Double { Double.exp10(3 * x) }
private func log1000(_ x: Double) -> Double { Double.log10(x) / 3 }
