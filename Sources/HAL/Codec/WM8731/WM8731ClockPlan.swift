/// How the WM8731 makes a sample rate: no PLL, only the datasheet's sampling-control table (normal mode
/// from 12.288, 11.2896, 18.432 or 16.9344 MHz; USB mode from 12 MHz), optionally after halving MCLK
/// (CLKIDIV2, so 24.576 MHz and the like work too). A consumer codec must make the rate the Pi's LRCLK runs at
/// exactly, or the two would drift: 44.1 kHz in USB mode is really 44.1176 kHz, so those rows are refused
/// there. As the clock provider the codec's LRCLK is the rate, so the kernel's USB rows (sound/soc/codecs/
/// wm8731.c `coeff_div`: 12 MHz makes 8, 32, 44.1 (272 fs), 48, 88.2 (136 fs) and 96 kHz) are all allowed, as
/// the Audio Injector's machine driver allows them (audioinjector-pi-soundcard.c `bcm2835_rates_12000000`).
public struct WM8731ClockPlan: Hashable, Sendable, CustomStringConvertible {
    /// One row of the datasheet's table (ADC and DAC at the same rate).
    public struct Setting: Hashable, Sendable {
        /// The core clock the row is for, in Hz.
        public var coreClock: Int
        public var usbMode: Bool
        public var bosr: Bool
        /// SR[3:0].
        public var sr: RegisterValue
        /// Core clock cycles per sample: the rate is `coreClock / divisor`.
        public var divisor: Int
        /// The rate the kernel's `coeff_div` row stands for, when the row is not exact (44100 for 272 fs).
        public var nominalRate: Int?

        public init(_ coreClock: Int, usb: Bool = false, bosr: Bool, sr: RegisterValue, divisor: Int, nominal: Int? = nil) {
            self.coreClock = coreClock
            self.usbMode = usb
            self.bosr = bosr
            self.sr = sr
            self.divisor = divisor
            self.nominalRate = nominal
        }

        /// The rate the row makes, in Hz.
        public var rate: Double { Double(coreClock) / Double(divisor) }
        /// The rate in whole Hz when the division is exact.
        public var exactRate: Int? { coreClock % divisor == 0 ? coreClock / divisor : nil }
    }

    /// The datasheet's normal-mode and USB-mode rows where ADC and DAC rates agree.
    public static let table: [Setting] = [
        Setting(12_288_000, bosr: false, sr: 0x0, divisor: 256),    // 48 kHz
        Setting(12_288_000, bosr: false, sr: 0x3, divisor: 1_536),  // 8 kHz
        Setting(12_288_000, bosr: false, sr: 0x6, divisor: 384),    // 32 kHz
        Setting(12_288_000, bosr: false, sr: 0x7, divisor: 128),    // 96 kHz
        Setting(11_289_600, bosr: false, sr: 0x8, divisor: 256),    // 44.1 kHz
        Setting(11_289_600, bosr: false, sr: 0xB, divisor: 1_408),  // 8.0182 kHz
        Setting(11_289_600, bosr: false, sr: 0xF, divisor: 128),    // 88.2 kHz
        Setting(18_432_000, bosr: true, sr: 0x0, divisor: 384),     // 48 kHz
        Setting(18_432_000, bosr: true, sr: 0x3, divisor: 2_304),   // 8 kHz
        Setting(18_432_000, bosr: true, sr: 0x6, divisor: 576),     // 32 kHz
        Setting(18_432_000, bosr: true, sr: 0x7, divisor: 192),     // 96 kHz
        Setting(16_934_400, bosr: true, sr: 0x8, divisor: 384),     // 44.1 kHz
        Setting(16_934_400, bosr: true, sr: 0xB, divisor: 2_112),   // 8.0182 kHz
        Setting(16_934_400, bosr: true, sr: 0xF, divisor: 192),     // 88.2 kHz
        Setting(12_000_000, usb: true, bosr: false, sr: 0x0, divisor: 250),   // 48 kHz
        Setting(12_000_000, usb: true, bosr: true, sr: 0x8, divisor: 272, nominal: 44_100),   // 44.1176 kHz
        Setting(12_000_000, usb: true, bosr: false, sr: 0x3, divisor: 1_500), // 8 kHz
        Setting(12_000_000, usb: true, bosr: true, sr: 0xB, divisor: 1_496),  // 8.0214 kHz
        Setting(12_000_000, usb: true, bosr: false, sr: 0x6, divisor: 375),   // 32 kHz
        Setting(12_000_000, usb: true, bosr: false, sr: 0x7, divisor: 125),   // 96 kHz
        Setting(12_000_000, usb: true, bosr: true, sr: 0xF, divisor: 136, nominal: 88_200),   // 88.2353 kHz
    ]

    /// The one clock USB mode runs from (datasheet "Audio data sampling rates": a fixed 12 MHz).
    public static let usbModeClock = 12_000_000

    /// The core clocks the table has rows for.
    public static let coreClocks = [12_288_000, 11_289_600, 18_432_000, 16_934_400, 12_000_000]

    public var mclk: Int
    /// MCLK halved on the way in (CLKIDIV2).
    public var dividesMasterClock: Bool
    public var setting: Setting

    /// The R8 value: CLKIDIV2, SR, BOSR, USB/normal.
    public var samplingControl: RegisterValue {
        (dividesMasterClock ? WM8731Bits.clockInDivide2 : 0) | setting.sr << 2
            | (setting.bosr ? WM8731Bits.baseOversampling : 0) | (setting.usbMode ? WM8731Bits.usbMode : 0)
    }

    public var description: String {
        "\(setting.exactRate.map(String.init) ?? "\(setting.rate)") Hz from \(CodecError.megahertz(mclk)): "
            + (setting.usbMode ? "USB" : "normal") + " mode" + (dividesMasterClock ? ", MCLK/2" : "")
            + ", BOSR \(setting.bosr ? 1 : 0), SR 0x" + String(setting.sr, radix: 16, uppercase: true)
    }

    /// The core clock `mclk` gives (itself or its half), and whether it is halved; nil if neither is in the table.
    static func coreClock(mclk: Int) -> (clock: Int, halved: Bool)? {
        if coreClocks.contains(mclk) { return (mclk, false) }
        if mclk % 2 == 0 && coreClocks.contains(mclk / 2) { return (mclk / 2, true) }
        return nil
    }

    /// The rates `mclk` makes in `role`, ascending: exact rows, and as provider the kernel's USB-mode rows too.
    public static func supportedRates(mclk: Int, role: CodecClockRole = .consumer) -> [Int] {
        guard let core = coreClock(mclk: mclk) else { return [] }
        return Array(Set(table.filter { $0.coreClock == core.clock }.compactMap { rate(of: $0, role: role) })).sorted()
    }

    /// The rate `setting` stands for in `role`: its exact rate, or as provider a USB row's nominal rate.
    static func rate(of setting: Setting, role: CodecClockRole) -> Int? {
        if let exact = setting.exactRate { return exact }
        return role == .provider && setting.usbMode ? setting.nominalRate : nil
    }

    /// The table row that makes `rate` from `mclk` in `role`.
    public static func plan(mclk: Int, rate: Int, role: CodecClockRole = .consumer) throws(CodecError) -> WM8731ClockPlan {
        guard let core = coreClock(mclk: mclk) else {
            throw .unsupportedMasterClock(codec: "WM8731", mclk: mclk, reason: "it has no PLL; its rate table "
                + "needs 12.288, 11.2896, 18.432, 16.9344 or 12 (USB mode) MHz, or twice one of those")
        }
        guard let setting = table.first(where: { $0.coreClock == core.clock && Self.rate(of: $0, role: role) == rate }) else {
            throw .unsupportedRate(codec: "WM8731", rate: rate, mclk: mclk, supported: supportedRates(mclk: mclk, role: role))
        }
        return WM8731ClockPlan(mclk: mclk, dividesMasterClock: core.halved, setting: setting)
    }

    /// The frame the WM8731 clocks as provider in USB mode: BCLK is the 12 MHz core clock itself, so a frame
    /// is `divisor` bit clocks (250 at 48 kHz), the ratio the Audio Injector's machine driver gives the Pi
    /// (audioinjector-pi-soundcard.c `snd_audioinjector_pi_soundcard_hw_params`: 48000 -> bclk_ratio 250).
    /// Nil in normal mode, whose provider bit clock this plan does not model.
    public var providerBitsPerFrame: Int? { setting.usbMode ? setting.divisor : nil }
}
