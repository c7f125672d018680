/// How the WM8960 makes a sample rate from its MCLK (datasheet "Clocking and sample rates" and "PLL"):
///
///     SYSCLK = MCLK / SYSCLKDIV                     (direct, CLKSEL = 0)
///     SYSCLK = MCLK / prescale * (N + K/2^24) / 4 / 2   (PLL, CLKSEL = 1, SYSCLKDIV = /2)
///     fs     = SYSCLK / (256 * DACDIV)              DACDIV in 1, 1.5, 2, 3, 4, 5.5, 6
///
/// The PLL output f2 = SYSCLK * 8 must lie in 90...100 MHz, and N in 6...12 (prescale MCLK by 2 when N
/// would be below 6). Direct division is exact; the PLL is exact to its 24-bit fraction, which this plan
/// accepts when the rate it gives is within 0.01 ppm (K rounds to the nearest 1/2^24). SYSCLK stays at
/// or below 12.288 MHz.
public struct WM8960ClockPlan: Hashable, Sendable, CustomStringConvertible {
    public var mclk: Int
    public var sampleRate: Int
    /// 1 or 2.
    public var sysclkDivider: Int
    /// The divider's register code (R4 DACDIV/ADCDIV) and its value in halves (3 = 1.5).
    public var rateDividerCode: RegisterValue
    public var rateDividerHalves: Int
    public var pll: PLL?

    /// The PLL setting: f2 = MCLK / (prescale ? 2 : 1) * (n + k / 2^24).
    public struct PLL: Hashable, Sendable {
        public var prescale: Bool
        public var n: Int
        public var k: Int
    }

    /// SYSCLKs the rates derive from: 256 x 48 kHz and 256 x 44.1 kHz.
    public static let sysclk48k = 12_288_000
    public static let sysclk44k = 11_289_600
    /// The sample rates the WM8960 supports (8...48 kHz).
    public static let standardRates = [8_000, 11_025, 12_000, 16_000, 22_050, 24_000, 32_000, 44_100, 48_000]
    /// DACDIV/ADCDIV codes by divider in halves (1, 1.5, 2, 3, 4, 5.5, 6).
    static let rateDividers: [(halves: Int, code: RegisterValue)] =
        [(2, 0), (3, 1), (4, 2), (6, 3), (8, 4), (11, 5), (12, 6)]

    /// The plan for `rate` from `mclk`: direct division when it is exact, else the PLL.
    public static func plan(mclk: Int, rate: Int) throws(CodecError) -> WM8960ClockPlan {
        guard mclk > 0, mclk <= 37_000_000 else {
            throw .unsupportedMasterClock(codec: "WM8960", mclk: mclk, reason: "MCLK must be at most 37 MHz")
        }
        if let plan = candidate(mclk: mclk, rate: rate) { return plan }
        throw .unsupportedRate(codec: "WM8960", rate: rate, mclk: mclk,
                               supported: standardRates.filter { candidate(mclk: mclk, rate: $0) != nil })
    }

    /// The rates this MCLK can make.
    public static func supportedRates(mclk: Int) -> [Int] {
        standardRates.filter { candidate(mclk: mclk, rate: $0) != nil }
    }

    static func candidate(mclk: Int, rate: Int) -> WM8960ClockPlan? {
        guard standardRates.contains(rate) else { return nil }
        // Direct: MCLK / sysclkdiv == 256 * rate * halves / 2, SYSCLK at most 12.288 MHz (the datasheet's
        // rate table runs SYSCLK at 12.288 or 11.2896 MHz; a 24.576 MHz MCLK is divided by 2).
        for sysclkDivider in [1, 2] where mclk / sysclkDivider <= sysclk48k {
            for divider in rateDividers where 2 * mclk == sysclkDivider * 256 * rate * divider.halves {
                return WM8960ClockPlan(mclk: mclk, sampleRate: rate, sysclkDivider: sysclkDivider,
                                       rateDividerCode: divider.code, rateDividerHalves: divider.halves, pll: nil)
            }
        }
        // PLL: SYSCLK is 12.288 or 11.2896 MHz, divided to the rate.
        for sysclk in [sysclk48k, sysclk44k] {
            for divider in rateDividers where 2 * sysclk == 256 * rate * divider.halves {
                guard let pll = pllSetting(mclk: mclk, f2: sysclk * 8) else { continue }
                return WM8960ClockPlan(mclk: mclk, sampleRate: rate, sysclkDivider: 2,
                                       rateDividerCode: divider.code, rateDividerHalves: divider.halves, pll: pll)
            }
        }
        return nil
    }

    /// N and K for f2 from MCLK, or nil when N falls outside 6...12 or the fraction cannot hit f2 within
    /// 0.01 ppm.
    static func pllSetting(mclk: Int, f2: Int) -> PLL? {
        var prescale = false
        var input = mclk
        if f2 / input < 6 {
            prescale = true
            input = mclk / 2
            guard mclk % 2 == 0 else { return nil }
        }
        let n = f2 / input
        guard (6...12).contains(n) else { return nil }
        let remainder = f2 % input
        // K = round(remainder / input * 2^24), in integers.
        let k = Int((Int64(remainder) << 25 + Int64(input)) / (2 * Int64(input)))
        guard k < 1 << 24 else { return nil }
        // f2 achieved = input * (n + k / 2^24); error relative to f2 must stay below 1e-8.
        let achievedTimes2to24 = Int64(input) * (Int64(n) << 24 + Int64(k))
        let wantedTimes2to24 = Int64(f2) << 24
        let error = abs(Double(achievedTimes2to24 - wantedTimes2to24)) / Double(wantedTimes2to24)
        guard error < 1e-8 else { return nil }
        return PLL(prescale: prescale, n: n, k: k)
    }

    /// The SYSCLK the plan produces (nominal).
    public var sysclk: Int { 256 * sampleRate * rateDividerHalves / 2 }

    /// BCLKDIV dividers in halves by R8 code (datasheet R8 BCLKDIV; kernel sound/soc/codecs/wm8960.c
    /// `bclk_divs`, in tenths: 10, 15, 20, 30, 40, 55, 60, 80, 110, 120, 160, 220, 240, 320).
    static let bclkDividers: [(halves: Int, code: RegisterValue)] =
        [(2, 0), (3, 1), (4, 2), (6, 3), (8, 4), (11, 5), (12, 6), (16, 7), (22, 8), (24, 9), (32, 10), (44, 11),
         (48, 12), (64, 13)]

    /// The BCLKDIV code (R8) that makes `bitsPerFrame` bit clocks a frame when the codec provides the clocks:
    /// BCLK = SYSCLK / BCLKDIV with SYSCLK = 256 fs x DACDIV, so BCLKDIV = 256 x DACDIV / bitsPerFrame. Nil
    /// when no divider makes that frame exactly.
    public func bclkDividerCode(bitsPerFrame: Int) -> RegisterValue? {
        guard bitsPerFrame > 0, (256 * rateDividerHalves) % bitsPerFrame == 0 else { return nil }
        let halves = 256 * rateDividerHalves / bitsPerFrame
        return Self.bclkDividers.first { $0.halves == halves }?.code
    }

    public var description: String {
        var text = "\(sampleRate) Hz from \(CodecError.megahertz(mclk)): "
        if let pll {
            text += "PLL\(pll.prescale ? " (MCLK/2)" : "") N=\(pll.n) K=0x" + String(pll.k, radix: 16, uppercase: true)
                + ", SYSCLK \(CodecError.megahertz(sysclk))"
        } else {
            text += "SYSCLK = MCLK/\(sysclkDivider)"
        }
        let divider = rateDividerHalves % 2 == 0 ? "\(rateDividerHalves / 2)" : "\(rateDividerHalves / 2).5"
        return text + ", DACDIV \(divider)"
    }
}
