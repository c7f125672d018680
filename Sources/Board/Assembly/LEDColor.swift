/// An RGB colour for an LED, 8 bits a channel.
public struct LEDColor: Hashable, Sendable, CustomStringConvertible {
    public var red: UInt8
    public var green: UInt8
    public var blue: UInt8

    public init(red: UInt8, green: UInt8, blue: UInt8) {
        self.red = red
        self.green = green
        self.blue = blue
    }

    public static let off = LEDColor(red: 0, green: 0, blue: 0)
    public static let white = LEDColor(red: 255, green: 255, blue: 255)
    public static let red = LEDColor(red: 255, green: 0, blue: 0)
    public static let green = LEDColor(red: 0, green: 255, blue: 0)
    public static let blue = LEDColor(red: 0, green: 0, blue: 255)

    public var isOff: Bool { self == .off }

    public var description: String {
        let hex = [red, green, blue].map { value -> String in
            let digits = String(value, radix: 16)
            return digits.count == 1 ? "0" + digits : digits
        }
        return "#" + hex.joined()
    }
}
