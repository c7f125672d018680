/// The I2S frame the Raspberry Pi's I2S block (bcm2835-i2s) runs: how many bit clocks make one sample frame.
/// The board's one source of truth for BCLK: every codec's bit clock, PLL input and dividers derive from it.
///
/// bcm2835-i2s (sound/soc/bcm/bcm2835-i2s.c `bcm2835_i2s_hw_params`) makes the frame from the sample width
/// unless TDM slots are set (slots 2, slot_width = params_width): an S16_LE stream would run 32 bit clocks a
/// frame, an S24_LE one 48, an S32_LE one 64, and it refuses data wider than its slot. The device-tree overlay
/// pins the slot width, so the frame is the same for every format: two 32-bit slots (64 fs) unless the board
/// says otherwise. A codec that makes a fixed bit clock
/// instead (the WM8731 in USB mode drives BCLK at its 12 MHz MCLK) gets a frame of BCLK / rate bits, the
/// `snd_soc_dai_set_bclk_ratio` its machine driver sets (sound/soc/bcm/audioinjector-pi-soundcard.c).
public enum I2SFrame: Hashable, Sendable, CustomStringConvertible {
    /// `count` slots of `width` bits each, at every rate.
    case slots(count: Int, width: Int)
    /// The bit clock runs at `hertz` whatever the rate; a frame is `hertz / rate` bits.
    case fixedBitClock(hertz: Int)

    /// Two 32-bit slots: 64 bit clocks a frame for 16- and 24-bit streams alike.
    public static let standard = I2SFrame.slots(count: 2, width: 32)

    /// bcm2835-i2s holds the frame length in a 10-bit field (MODE_A FLEN, frame length - 1, bits 19:10; the
    /// channel positions CHPOS are 10 bits too): at most 1024 bit clocks a frame. The Audio Injector's commit adding bclk_ratio (Matt Flax,
    /// 2016, "Added support for headphones, microphone and bclk_ratio settings") names this limit for 8 kHz.
    public static let maximumBits = 1024

    /// Bit clocks per frame at `rate` (nil for a rate of zero or less).
    public func bitsPerFrame(rate: Int) -> Int? {
        switch self {
        case .slots(let count, let width): count * width
        // The nearest whole frame: a USB-mode WM8731 at "44.1 kHz" makes 12 MHz / 272 = 44.1176 kHz, and its
        // machine driver sets bclk_ratio 272 for 44100.
        case .fixedBitClock(let hertz): rate > 0 ? (hertz + rate / 2) / rate : nil
        }
    }

    /// BCLK in Hz at `rate`.
    public func bitClock(rate: Int) -> Int? {
        switch self {
        case .slots: bitsPerFrame(rate: rate).map { $0 * rate }
        case .fixedBitClock(let hertz): bitsPerFrame(rate: rate) == nil ? nil : hertz
        }
    }

    /// The reason the Pi cannot run this frame at `rate` for `wordLength`-bit samples, nil when it can.
    public func problem(rate: Int, wordLength: Int) -> String? {
        guard let bits = bitsPerFrame(rate: rate) else {
            return "no frame at \(rate) Hz"
        }
        if bits > Self.maximumBits {
            return "\(bits) bit clocks a frame at \(rate) Hz; bcm2835-i2s frames hold at most \(Self.maximumBits)"
        }
        if case .slots(let count, let width) = self {
            if width < wordLength { return "\(width)-bit slots cannot carry \(wordLength)-bit samples" }
            if count < 2 { return "a stereo stream needs two slots" }
        }
        return nil
    }

    public var description: String {
        switch self {
        case .slots(let count, let width): "\(count) x \(width)-bit slots (\(count * width) fs)"
        case .fixedBitClock(let hertz): "BCLK fixed at \(CodecError.megahertz(hertz))"
        }
    }
}
