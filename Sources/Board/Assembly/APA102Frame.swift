/// The bytes an APA102 chain is sent over SPI (APA102 datasheet, Shenzhen LED Color, "Data transmission"):
/// a start frame of 32 zero bits; per LED a frame of three 1 bits, a 5-bit global brightness, then blue,
/// green and red bytes; then an end frame. The datasheet's end frame is 32 one bits; a chain of n LEDs needs
/// at least n/2 more clock edges to push the last frame through (each LED delays the clock by half a cycle:
/// Tim, cpldcpu.wordpress.com "Understanding the APA102 Superled", 2014), so the end frame here is
/// max(4, ceil(n / 16)) bytes of 0xFF.
public enum APA102Frame {
    /// The full brightness the 5-bit field holds.
    public static let maximumBrightness: UInt8 = 31

    public static func encode(_ pixels: [LEDColor], brightness: UInt8 = maximumBrightness) -> [UInt8] {
        var bytes: [UInt8] = [0, 0, 0, 0]
        for pixel in pixels {
            bytes += [0xE0 | min(brightness, maximumBrightness), pixel.blue, pixel.green, pixel.red]
        }
        bytes += Array(repeating: 0xFF, count: max(4, (pixels.count + 15) / 16))
        return bytes
    }
}
