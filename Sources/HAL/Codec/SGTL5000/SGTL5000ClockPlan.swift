/// How the SGTL5000 makes a sample rate from its SYS_MCLK (datasheet "Clocking" and CHIP_CLK_CTRL,
/// CHIP_PLL_CTRL):
///
///     SYS_FS    = 32, 44.1, 48 or 96 kHz, the rate the core runs at
///     fs        = SYS_FS / RATE_MODE          RATE_MODE in 1, 2, 4, 6
///     MCLK      = 256, 384 or 512 x SYS_FS    (direct, MCLK_FREQ 0...2)
///     PLL out   = 180.6336 MHz for SYS_FS 44.1 kHz, else 196.608 MHz
///               = MCLK / (INPUT_FREQ_DIV2 ? 2 : 1) x (INT_DIVISOR + FRAC_DIVISOR / 2048)
///
/// MCLK must lie in 8...27 MHz; above 17 MHz the PLL takes MCLK / 2. The PLL's fraction has only 11
/// bits, so it is exact only for master clocks that divide 2048 x its output. 12.288 MHz makes 96 kHz
/// exactly, but 44.1 kHz needs 14.7 x 2048 = 30105.6: the fraction is truncated as the kernel does
/// (sound/soc/codecs/sgtl5000.c `sgtl5000_set_clock`: FRAC_DIVISOR = (out mod in) x 2048 / in) to 1433,
/// and the PLL runs at 180.630 MHz, 19.9 ppm slow. That is inside the ±50 ppm budget of a common audio
/// crystal oscillator, so the plan accepts errors up to `pllTolerancePPM` and says the figure; the codec
/// drives LRCLK, so nothing else in the system runs at the nominal rate to drift against. The datasheet also requires the codec to drive BCLK/LRCLK (I2S provider) when
/// the PLL runs, so a consumer-role codec (the Fe-Pi under a Raspberry Pi) gets direct ratios only.
/// Direct division is preferred whenever it works: it costs no PLL power.
public struct SGTL5000ClockPlan: Hashable, Sendable, CustomStringConvertible {
    public var mclk: Int
    public var sampleRate: Int
    /// SYS_FS in Hz.
    public var systemRate: Int
    /// RATE_MODE's divider: 1, 2, 4 or 6.
    public var rateDivider: Int
    /// MCLK / SYS_FS for direct clocking (256, 384, 512), nil when the PLL runs.
    public var mclkRatio: Int?
    public var pll: PLL?

    /// The PLL setting: output = MCLK / (halvedInput ? 2 : 1) x (integer + fraction / 2048).
    public struct PLL: Hashable, Sendable {
        public var halvedInput: Bool
        public var integer: Int
        public var fraction: Int
        /// The nominal output frequency the setting aims at (180.6336 or 196.608 MHz).
        public var output: Int
        /// How far the real output is from `output`, in parts per million (0 when exact, negative when slow).
        public var errorPPM: Double

        public init(halvedInput: Bool, integer: Int, fraction: Int, output: Int, errorPPM: Double = 0) {
            self.halvedInput = halvedInput
            self.integer = integer
            self.fraction = fraction
            self.output = output
            self.errorPPM = errorPPM
        }

        /// ` (-19.9 ppm)` when the setting is not exact, else empty.
        public var errorText: String {
            errorPPM == 0 ? "" : " (\(errorPPM < 0 ? "" : "+")\(Double(Int((errorPPM * 10).rounded())) / 10) ppm)"
        }
    }

    /// The largest PLL error accepted, in ppm: a common audio crystal oscillator's tolerance (±50 ppm), so
    /// the fraction's rounding costs no more than the crystal itself may.
    public static let pllTolerancePPM = 50.0

    /// The sample rates the appliance may ask for.
    public static let standardRates = [8_000, 11_025, 12_000, 16_000, 22_050, 24_000, 32_000, 44_100, 48_000, 96_000]
    /// SYS_FS values and their codes.
    static let systemRates: [Int: RegisterValue] = [32_000: 0, 44_100: 1, 48_000: 2, 96_000: 3]
    /// RATE_MODE codes by divider.
    static let rateModes: [(divider: Int, code: RegisterValue)] = [(1, 0), (2, 1), (4, 2), (6, 3)]
    /// MCLK_FREQ codes by ratio.
    static let mclkRatios: [(ratio: Int, code: RegisterValue)] = [(256, 0), (384, 1), (512, 2)]
    /// The SYS_MCLK input range.
    public static let mclkRange = 8_000_000...27_000_000
    /// Above this the PLL input is MCLK / 2 (INPUT_FREQ_DIV2).
    public static let pllInputLimit = 17_000_000

    /// The plan for `rate` from `mclk` in `role`: direct ratios first, else the PLL (provider role only).
    public static func plan(mclk: Int, rate: Int, role: CodecClockRole = .consumer) throws(CodecError) -> SGTL5000ClockPlan {
        guard mclkRange.contains(mclk) else {
            throw .unsupportedMasterClock(codec: "SGTL5000", mclk: mclk, reason: "SYS_MCLK must lie in 8...27 MHz")
        }
        if let plan = candidate(mclk: mclk, rate: rate, role: role) { return plan }
        throw .unsupportedRate(codec: "SGTL5000", rate: rate, mclk: mclk, supported: supportedRates(mclk: mclk, role: role))
    }

    /// The standard rates this MCLK makes exactly in `role`.
    public static func supportedRates(mclk: Int, role: CodecClockRole = .consumer) -> [Int] {
        guard mclkRange.contains(mclk) else { return [] }
        return standardRates.filter { candidate(mclk: mclk, rate: $0, role: role) != nil }
    }

    static func candidate(mclk: Int, rate: Int, role: CodecClockRole) -> SGTL5000ClockPlan? {
        guard standardRates.contains(rate) else { return nil }
        let systems = rateModes.compactMap { mode in
            systemRates[rate * mode.divider] != nil ? (system: rate * mode.divider, divider: mode.divider) : nil
        }
        for (system, divider) in systems {
            for ratio in mclkRatios where mclk == ratio.ratio * system {
                return SGTL5000ClockPlan(mclk: mclk, sampleRate: rate, systemRate: system, rateDivider: divider,
                                         mclkRatio: ratio.ratio, pll: nil)
            }
        }
        guard role == .provider else { return nil }
        for (system, divider) in systems {
            if let pll = pllSetting(mclk: mclk, systemRate: system) {
                return SGTL5000ClockPlan(mclk: mclk, sampleRate: rate, systemRate: system, rateDivider: divider,
                                         mclkRatio: nil, pll: pll)
            }
        }
        return nil
    }

    /// The PLL setting for SYS_FS `systemRate`: the kernel's divisors (sound/soc/codecs/sgtl5000.c
    /// `sgtl5000_set_clock`: INT = out / in, FRAC = (out mod in) x 2048 / in, truncated), or nil when the
    /// output they make is more than `pllTolerancePPM` off or INT does not fit its 5 bits.
    static func pllSetting(mclk: Int, systemRate: Int) -> PLL? {
        let output = systemRate == 44_100 ? 180_633_600 : 196_608_000
        let halved = mclk > pllInputLimit
        let input = Int64(mclk / (halved ? 2 : 1))
        let integer = Int(Int64(output) / input)
        let fraction = Int(Int64(output) % input * 2048 / input)
        guard integer < 32 else { return nil }
        // achieved = input x (integer x 2048 + fraction) / 2048
        let achievedTimes2048 = input * Int64(integer * 2048 + fraction)
        let errorPPM = Double(achievedTimes2048 - Int64(output) * 2048) / Double(Int64(output) * 2048) * 1e6
        guard abs(errorPPM) <= pllTolerancePPM else { return nil }
        return PLL(halvedInput: halved, integer: integer, fraction: fraction, output: output, errorPPM: errorPPM)
    }

    /// CHIP_CLK_CTRL: RATE_MODE, SYS_FS, MCLK_FREQ (3 = PLL).
    public var clockControlValue: RegisterValue {
        let mode = Self.rateModes.first { $0.divider == rateDivider }?.code ?? 0
        let system = Self.systemRates[systemRate] ?? 2
        let mclkCode = mclkRatio.flatMap { ratio in Self.mclkRatios.first { $0.ratio == ratio }?.code } ?? 3
        return mode << 4 | system << 2 | mclkCode
    }

    /// CHIP_PLL_CTRL: INT_DIVISOR and FRAC_DIVISOR (nil without the PLL).
    public var pllControlValue: RegisterValue? {
        pll.map { RegisterValue($0.integer) << 11 | RegisterValue($0.fraction) }
    }

    public var description: String {
        var text = "\(sampleRate) Hz from \(CodecError.megahertz(mclk)): SYS_FS \(systemRate) Hz"
        if rateDivider != 1 { text += " / \(rateDivider)" }
        if let pll {
            text += ", PLL\(pll.halvedInput ? " (MCLK/2)" : "") \(pll.integer) + \(pll.fraction)/2048 = "
                + CodecError.megahertz(pll.output) + pll.errorText
        } else if let mclkRatio {
            text += ", MCLK = \(mclkRatio) Fs"
        }
        return text
    }
}
