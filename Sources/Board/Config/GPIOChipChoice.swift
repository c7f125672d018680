import HAL

/// Which GPIO chip the board's lines are on.
public enum GPIOChipChoice: Hashable, Sendable, CustomStringConvertible {
    /// The chip behind the Raspberry Pi's 40-pin header, whichever model this is: the first chip whose label
    /// is one of `headerLabels` (the default; a HAT does not know which Pi it sits on).
    case raspberryPiHeader
    /// A chip named in the board file (a label, a `gpiochipN` name or a /dev path).
    case chip(GPIOChipSelector)

    /// The header chip's driver label per model: Pi 5 (RP1), Pi 4 (BCM2711), Pi 0-3 (BCM2835/6/7).
    public static let headerLabels = ["pinctrl-rp1", "pinctrl-bcm2711", "pinctrl-bcm2835"]

    /// The header's line numbers (BCM GPIO 0...27).
    public static let headerLines = 0...27
    /// Line offsets allowed on another chip.
    public static let otherChipLines = 0...1023

    public var isHeader: Bool { self == .raspberryPiHeader }

    public var description: String {
        switch self {
        case .raspberryPiHeader: "Raspberry Pi header (label \(Self.headerLabels.joined(separator: " | ")))"
        case .chip(let selector): "\(selector)"
        }
    }
}
