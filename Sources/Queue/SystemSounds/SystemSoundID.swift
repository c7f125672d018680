/// Names a registered system sound, as Audio Services' `SystemSoundID` does: a number handed out at
/// registration and given back to play and dispose.
public struct SystemSoundID: RawRepresentable, Hashable, Sendable, CustomStringConvertible {
    public let rawValue: UInt32

    public init(rawValue: UInt32) { self.rawValue = rawValue }

    /// The reserved ID that plays no audio and only pulses the alert line (the phone's vibrate ID,
    /// `kSystemSoundID_Vibrate`, 0x00000FFF in AudioServices.h).
    public static let vibrate = SystemSoundID(rawValue: 0x0000_0FFF)

    /// The first ID registration hands out (above the reserved one).
    static let firstRegistered: UInt32 = 0x0000_1000

    public var description: String { self == .vibrate ? "vibrate" : "sound \(rawValue)" }
}
