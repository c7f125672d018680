import HAL

/// Where the codec's system clock comes from.
public enum CodecClockSource: Hashable, Sendable, CustomStringConvertible {
    /// An oscillator driving the MCLK pin, in Hz (WM8960 HATs and the Fe-Pi: 12.288 MHz).
    case mclk(Int)
    /// A bare crystal across the codec's own oscillator pins (XTI/XTO), in Hz (Audio Injector: 12 MHz): the
    /// codec's oscillator must stay powered for it to run.
    case crystal(Int)
    /// No MCLK: the codec's PLL runs from the I2S bit clock (IQaudio DAC+ with its PCM5122).
    case bclk

    public var description: String {
        switch self {
        case .mclk(let hertz): "MCLK \(formatHertz(hertz))"
        case .crystal(let hertz): "\(formatHertz(hertz)) crystal"
        case .bclk: "from BCLK (no MCLK)"
        }
    }

    /// Whether the clock is a bare crystal on the codec's own oscillator.
    public var isCrystal: Bool {
        if case .crystal = self { return true }
        return false
    }

    /// The master clock in Hz (nil when it comes from BCLK).
    public var hertz: Int? {
        switch self {
        case .mclk(let hertz), .crystal(let hertz): hertz
        case .bclk: nil
        }
    }

    /// The board-file range for an MCLK: 1...50 MHz covers every audio crystal (256 fs at 192 kHz is 49.152 MHz).
    public static let mclkRange = 1_000_000...50_000_000
}

/// Who programs the codec.
public enum CodecControl: String, Hashable, Sendable, CaseIterable, CustomStringConvertible {
    /// The appliance's own driver over /dev/i2c-N (the default: the image's overlay leaves the codec alone).
    case appliance
    /// The kernel's ASoC codec driver; volume then goes through ALSA mixer controls.
    case kernel

    public var description: String { rawValue }
}

/// The `codec:` block: which chip, where on I2C, how it is clocked, and who drives it.
public struct CodecConfig: Hashable, Sendable {
    public var chip: CodecChip
    /// The N of /dev/i2c-N (the HAT header's I2C is bus 1).
    public var bus: Int
    /// The 7-bit address.
    public var address: Int
    public var clock: CodecClockSource
    /// Who drives BCLK/LRCLK: `.provider` when the codec does.
    public var role: CodecClockRole
    public var control: CodecControl
    /// The microphone bias the board wires (`mic-bias-mv`, `mic-bias-kohm`; SGTL5000 only), nil for the chip's default.
    public var micBias: SGTL5000MicBias?

    public init(chip: CodecChip, bus: Int = 1, address: Int, clock: CodecClockSource,
                role: CodecClockRole = .consumer, control: CodecControl = .appliance, micBias: SGTL5000MicBias? = nil) {
        self.micBias = micBias
        self.chip = chip
        self.bus = bus
        self.address = address
        self.clock = clock
        self.role = role
        self.control = control
    }

    /// 0x08...0x77: the 7-bit addresses left to devices (0x00-0x07 and 0x78-0x7f are reserved by the I2C spec).
    public static let addressRange = 0x08...0x77
}

/// `12.288 MHz`, `12 MHz`, `24.576 MHz`: the way crystals are written on schematics.
func formatHertz(_ hertz: Int) -> String {
    if hertz % 1_000_000 == 0 { return "\(hertz / 1_000_000) MHz" }
    if hertz >= 1_000_000 {
        var fraction = String(hertz % 1_000_000)
        fraction = String(repeating: "0", count: 6 - fraction.count) + fraction
        while fraction.last == "0" { fraction.removeLast() }
        return "\(hertz / 1_000_000).\(fraction) MHz"
    }
    return "\(hertz) Hz"
}
