/// What an EQ setting asks for: ten graphic-EQ gains, or a list of parametric bands.
public enum EQCurve: Equatable, Sendable {
    /// Gains in dB for `GraphicEQ.centreFrequencies`.
    case graphic([Double])
    /// Free bands (the parametric EQ).
    case parametric([EQBand])

    /// The bands realised at `sampleRate`: flat bands and bands above 0.45·fs are left out.
    public func bands(sampleRate: Double) -> [EQBand] {
        switch self {
        case .graphic(let gains):
            return GraphicEQ.bands(gains: gains, sampleRate: sampleRate)
        case .parametric(let bands):
            return bands.filter { $0.isActive && $0.fits(sampleRate: sampleRate) }
        }
    }

    /// The flat curve.
    public static let flat = EQCurve.parametric([])
}
