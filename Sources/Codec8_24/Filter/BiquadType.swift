/// The second-order filter shapes the EQ is built from, as the RBJ "Audio EQ Cookbook" defines them.
public enum BiquadType: String, CaseIterable, Sendable {
    /// A bell around `frequency`: `gainDB` at the centre, 0 dB far away; `q` sets the width.
    case peaking
    /// `gainDB` below `frequency`, 0 dB above; `q` sets the slope (0.7071 is the steepest without overshoot).
    case lowShelf
    /// 0 dB below `frequency`, `gainDB` above.
    case highShelf
    /// 12 dB/octave above `frequency`; `q` sets the resonance (0.7071 is Butterworth).
    case lowPass
    /// 12 dB/octave below `frequency`.
    case highPass
    /// A band around `frequency` with a 0 dB peak (the cookbook's "constant 0 dB peak gain" variant).
    case bandPass
    /// A zero at `frequency`, 0 dB elsewhere.
    case notch

    /// Whether `gainDB` means anything for this shape.
    public var usesGain: Bool {
        switch self {
        case .peaking, .lowShelf, .highShelf: return true
        case .lowPass, .highPass, .bandPass, .notch: return false
        }
    }

    /// A short name for tables and charts ("peak", "lowshelf", ...).
    public var shortName: String {
        switch self {
        case .peaking: return "peak"
        case .lowShelf: return "lowshelf"
        case .highShelf: return "highshelf"
        case .lowPass: return "lowpass"
        case .highPass: return "highpass"
        case .bandPass: return "bandpass"
        case .notch: return "notch"
        }
    }
}
