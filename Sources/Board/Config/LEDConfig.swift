/// How an LED is driven.
public enum LEDKind: Hashable, Sendable, CustomStringConvertible {
    /// A plain LED on a GPIO output.
    case gpio(line: Int, active: ActiveLevel)
    /// A chain of APA102 RGB LEDs on SPI (they listen to MOSI and SCLK only; the chip select picks the
    /// /dev/spidevBUS.CS node).
    case apa102(bus: Int, chipSelect: Int, count: Int)

    public var description: String {
        switch self {
        case .gpio(let line, let active): "gpio GPIO\(line) \(active)"
        case .apa102(let bus, let chipSelect, let count): "apa102 x\(count) on /dev/spidev\(bus).\(chipSelect)"
        }
    }

    public static let apa102CountRange = 1...256
    public static let spiBusRange = 0...6
    public static let chipSelectRange = 0...2
}

/// One LED (or chain of LEDs) with the name events refer to.
public struct LEDConfig: Hashable, Sendable {
    public var name: String
    public var kind: LEDKind

    public init(name: String, kind: LEDKind) {
        self.name = name
        self.kind = kind
    }
}
