/// Which equaliser is shaping the sound, and why.
public enum EQPath: Hashable, Sendable, CustomStringConvertible {
    /// The codec's own EQ runs the preset (the 8.24 EQ should stay flat).
    case hardware(String)
    /// The 8.24 software EQ must run the preset; the reason says why the hardware could not.
    case software(String)

    public var isHardware: Bool { if case .hardware = self { true } else { false } }

    public var description: String {
        switch self {
        case .hardware(let text): "hardware: " + text
        case .software(let text): "software: " + text
        }
    }
}
