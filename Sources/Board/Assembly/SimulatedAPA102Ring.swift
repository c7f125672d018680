/// A chain of APA102 LEDs without hardware: it takes the SPI bytes a real chain would and shows the colours
/// the LEDs would light, so the appliance's LED code runs (and is tested) on the simulated board.
///
/// Like the chip it reads a frame after a start frame of 32 zero bits: each LED takes the first LED frame
/// (three 1 bits, brightness, blue, green, red) and passes the rest on; 0xFF bytes after the LEDs are the
/// end frame. Colours are scaled by the 5-bit brightness (the datasheet's global current control) to what the
/// eye sees, rounded down.
public final class SimulatedAPA102Ring: @unchecked Sendable {
    public let count: Int
    /// What each LED shows now, brightness applied.
    public private(set) var pixels: [LEDColor]
    /// Transfers that did not start with a start frame (the LEDs ignore them).
    public private(set) var rejectedTransfers = 0

    public init(count: Int) {
        self.count = count
        pixels = Array(repeating: .off, count: count)
    }

    /// One SPI transfer to the chain: LED k takes the k-th frame after the start frame; frames past the
    /// chain's end (the end frame) go nowhere.
    public func receive(_ bytes: [UInt8]) {
        guard bytes.count >= 4, bytes[0..<4].allSatisfy({ $0 == 0 }) else {
            rejectedTransfers += 1
            return
        }
        var index = 4, led = 0
        while led < count, index + 4 <= bytes.count, bytes[index] & 0xE0 == 0xE0 {
            let brightness = Int(bytes[index] & 0x1F)
            func scaled(_ value: UInt8) -> UInt8 { UInt8(Int(value) * brightness / 31) }
            pixels[led] = LEDColor(red: scaled(bytes[index + 3]), green: scaled(bytes[index + 2]), blue: scaled(bytes[index + 1]))
            index += 4
            led += 1
        }
    }
}
