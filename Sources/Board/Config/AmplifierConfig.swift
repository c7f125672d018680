/// What the amplifier's control line does when asserted.
public enum AmplifierControl: String, Hashable, Sendable, CaseIterable, CustomStringConvertible {
    /// Asserted: the amplifier runs (a shutdown/enable pin).
    case enable
    /// Asserted: the amplifier is muted (IQaudio's GPIO22 on the DigiAMP+ and the AMP+).
    case mute

    public var description: String { rawValue }
}

/// The GPIO output that switches the power amplifier; the appliance keeps it off while nothing plays, so the
/// speaker does not hiss or thump.
public struct AmplifierConfig: Hashable, Sendable {
    public var line: Int
    public var active: ActiveLevel
    public var control: AmplifierControl

    public init(line: Int, active: ActiveLevel, control: AmplifierControl) {
        self.line = line
        self.active = active
        self.control = control
    }
}
