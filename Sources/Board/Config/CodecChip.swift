import HAL

/// The codec chips a board file can name, with what each one can route: enough for the board check to refuse
/// a file that asks a chip for an output or input it does not have (a PCM5122 is a DAC with a line output only).
/// The facts are the chips' data sheets; the drivers themselves live in HAL and are chosen when a board is
/// assembled, so this layer does not depend on them.
public enum CodecChip: String, Hashable, Sendable, CaseIterable, CustomStringConvertible {
    case wm8960
    case wm8731
    case sgtl5000
    case pcm5122

    public var description: String { rawValue }

    /// The part number as printed on the chip: `WM8960`.
    public var displayName: String { rawValue.uppercased() }

    /// The analog outputs the chip drives.
    public var outputs: [CodecOutput] {
        switch self {
        case .wm8960: [.headphones, .speaker]        // HP_L/R, class-D SPK_LP/LN/RP/RN
        case .wm8731: [.headphones, .line]           // LHPOUT/RHPOUT, LOUT/ROUT
        case .sgtl5000: [.headphones, .line]         // HP_OUT, LINEOUT
        case .pcm5122: [.line]                       // OUTL/OUTR line-level only
        }
    }

    /// The inputs its ADC can take.
    public var inputs: [CodecInput] {
        switch self {
        case .wm8960: [.microphone, .line, .headsetMicrophone]
        case .wm8731: [.microphone, .line]
        case .sgtl5000: [.microphone, .line]
        case .pcm5122: []
        }
    }

    public var hasCapture: Bool { !inputs.isEmpty }

    /// Whether the chip can report a plugged jack in a register the appliance can read. None of these can:
    /// the WM8960 and WM8731 control ports are write-only, the SGTL5000 and PCM5122 have no jack sensing.
    public var reportsJackStatus: Bool { false }

    /// The I2C addresses the chip's strap pins allow (data sheets: WM8960 0x1a only; WM8731 CSB low/high
    /// 0x1a/0x1b; SGTL5000 CTRL_ADR0_CS low/high 0x0a/0x2a; PCM5122 ADR1/ADR2 0x4c...0x4f).
    public var addresses: [Int] {
        switch self {
        case .wm8960: [0x1a]
        case .wm8731: [0x1a, 0x1b]
        case .sgtl5000: [0x0a, 0x2a]
        case .pcm5122: [0x4c, 0x4d, 0x4e, 0x4f]
        }
    }

    /// Whether the chip can run without an MCLK pin, from the I2S bit clock (the PCM5122's PLL can).
    public var canClockFromBCLK: Bool { self == .pcm5122 }

    /// Whether the chip has its own crystal oscillator (XTI/XTO), so a bare crystal can clock it: only the
    /// WM8731 (datasheet R6 OSCPD powers it). The others need an oscillator module driving their MCLK pin.
    public var hasCrystalOscillator: Bool { self == .wm8731 }

    /// Whether the board file may set the mic bias voltage and resistor: only the SGTL5000's are programmable
    /// (CHIP_MIC_CTRL BIAS_VOLT, BIAS_RESISTOR); the WM8960's and WM8731's follow their supply.
    public var hasAdjustableMicBias: Bool { self == .sgtl5000 }
}
