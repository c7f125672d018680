/// A named EQ setting, like the iPod's: a curve plus a one-line description. The table is in
/// `EQPreset+Table.swift`; looking presets up by name is in `EQPreset+Lookup.swift`.
public struct EQPreset: Equatable, Sendable {
    /// The display name ("Hip-Hop", "R&B").
    public let name: String
    /// One line saying what the preset is for.
    public let summary: String
    public let curve: EQCurve
    /// Extra names the lookup accepts ("rnb" for "R&B").
    public let aliases: [String]

    public init(_ name: String, _ summary: String, _ curve: EQCurve, aliases: [String] = []) {
        self.name = name
        self.summary = summary
        self.curve = curve
        self.aliases = aliases
    }

    /// The preset designed for `sampleRate`: its biquads, peak and pre-cut.
    public func design(sampleRate: Double) -> EQDesign {
        EQDesign(curve: curve, sampleRate: sampleRate)
    }
}
