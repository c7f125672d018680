/// An oscillator on the board that feeds the PCM512x's SCK pin while one of the chip's GPIOs enables it.
public struct PCM512xOscillator: Hashable, Sendable, CustomStringConvertible {
    public var hertz: Int
    /// The PCM512x GPIO (1...6) whose output enables this oscillator.
    public var gpio: Int

    public init(hertz: Int, gpio: Int) {
        precondition((1...6).contains(gpio), "the PCM512x has GPIO1...GPIO6")
        self.hertz = hertz
        self.gpio = gpio
    }

    public var description: String { "\(CodecError.megahertz(hertz)) oscillator (GPIO\(gpio))" }
}

/// What clocks the PCM512x on a board.
public enum PCM512xClockSource: Hashable, Sendable, CustomStringConvertible {
    /// A clock on SCK at a fixed frequency (an oscillator, or the SoC's MCLK).
    case masterClock(hertz: Int)
    /// Two oscillators on SCK, one per rate family, each enabled by one of the PCM512x's GPIOs: the
    /// driver enables the one whose frequency is a multiple of the rate.
    case switchedOscillators(family44k1: PCM512xOscillator, family48k: PCM512xOscillator)
    /// Nothing on SCK: the PLL locks to BCLK, which carries `bitsPerFrame` bit clocks a frame (64 for two
    /// 32-bit slots, the Raspberry Pi's I2S with 32-bit frames; 32 for two 16-bit slots).
    case bitClock(bitsPerFrame: Int)

    /// HiFiBerry DAC+ Pro: 22.5792 MHz enabled by GPIO6, 24.576 MHz by GPIO3 (the Linux machine driver
    /// hifiberry_dacplus.c: CLK44EN on GPIO6, CLK48EN on GPIO3).
    public static let hiFiBerryDACPlusPro = PCM512xClockSource.switchedOscillators(
        family44k1: PCM512xOscillator(hertz: 22_579_200, gpio: 6),
        family48k: PCM512xOscillator(hertz: 24_576_000, gpio: 3))
    /// IQaudio DAC+, HiFiBerry DAC+ (standard and Light): no MCLK, 64 BCLKs a frame.
    public static let bitClock64 = PCM512xClockSource.bitClock(bitsPerFrame: 64)

    /// The oscillators the source may switch between, in the order they are tried.
    var oscillators: [PCM512xOscillator] {
        if case .switchedOscillators(let a, let b) = self { return [b, a] }
        return []
    }

    /// The MCLK an error message names (0: none, the PLL runs from BCLK).
    var nominalMasterClock: Int {
        switch self {
        case .masterClock(let hertz): hertz
        case .switchedOscillators(_, let family48k): family48k.hertz
        case .bitClock: 0
        }
    }

    public var description: String {
        switch self {
        case .masterClock(let hertz): "SCK \(CodecError.megahertz(hertz))"
        case .switchedOscillators(let a, let b): "SCK from a \(a) or a \(b)"
        case .bitClock(let bits): "PLL from BCLK (\(bits) bits a frame)"
        }
    }
}

/// How the PCM512x makes a sample rate (datasheet "Clock generation using the PLL" and "Clock master
/// and divider settings"; the kernel's pcm512x.c follows the same rules):
///
///     MCK   = SCK                      (PLL off), or
///     MCK   = ref * R * J.D / P        (PLL on; ref = SCK or BCLK)
///     DSP   = MCK / DDSP     <= 50 MHz, and DSP / fs (IDAC) whole, at least 256 clocks a sample
///     DAC   = MCK / DDAC     <= 6.144 MHz, a multiple of 16 fs
///     OSR   = DAC / DOSR     == 16 fs
///     NCP   = DAC / DNCP     about 1.536 MHz, at most 2.048 MHz (the negative charge pump)
///
/// PLL limits: P 1...15, J 1...63, D 0...9999, R 1...16, output 64...100 MHz; with D == 0 the input
/// after P lies in 1...20 MHz; with D > 0 in 6.667...20 MHz, J in 4...11 and R == 1. Dividers 1...128.
/// SCK drives the DSP directly when it is a multiple of the rate of at least 256 fs (the datasheet's
/// system-clock table leaves lower ratios to the PLL); otherwise the PLL makes 2048 fs (98.304 or
/// 90.3168 MHz) or the nearest multiple in range. Every ratio is exact: a rate that would need rounding
/// is refused, with the rates the board can make.
public struct PCM512xClockPlan: Hashable, Sendable, CustomStringConvertible {
    /// The PLL's setting: output = reference * R * (J + D / 10000) / P.
    public struct PLL: Hashable, Sendable {
        public var fromBitClock: Bool
        public var p: Int
        public var j: Int
        public var d: Int
        public var r: Int
        public var outputHertz: Int
    }

    public var source: PCM512xClockSource
    public var sampleRate: Int
    /// The oscillator to enable (switched-oscillator boards).
    public var oscillator: PCM512xOscillator?
    /// The clock feeding the tree: SCK, or BCLK for `.bitClock`.
    public var referenceHertz: Int
    public var pll: PLL?
    /// MCK: the PLL output, or SCK.
    public var masterClockHertz: Int
    public var dspDivider: Int
    public var dacDivider: Int
    public var ncpDivider: Int
    public var osrDivider: Int

    /// The rates the PCM512x supports (8...192 kHz).
    public static let standardRates = [8_000, 11_025, 12_000, 16_000, 22_050, 24_000, 32_000, 44_100, 48_000,
                                       64_000, 88_200, 96_000, 176_400, 192_000]

    // Datasheet limits.
    public static let pllOutputRange = 64_000_000...100_000_000
    public static let pllInputRange = 1_000_000...20_000_000
    public static let pllFractionalInputRange = 6_667_000...20_000_000
    public static let sckRange = 1_000_000...50_000_000
    public static let dspMaximum = 50_000_000
    public static let dacMaximum = 6_144_000
    public static let ncpTarget = 1_536_000
    public static let ncpMaximum = 2_048_000
    public static let minimumDSPClocksPerSample = 256
    public static let dividerRange = 1...128

    public var dspHertz: Int { masterClockHertz / dspDivider }
    public var dacHertz: Int { masterClockHertz / dacDivider }
    public var ncpHertz: Int { dacHertz / ncpDivider }
    public var osrHertz: Int { dacHertz / osrDivider }
    /// DSP clocks a sample (P0 R35/R36).
    public var idac: Int { dspHertz / sampleRate }
    /// FSSP: 0 up to 48 kHz, 1 up to 96 kHz, 2 up to 192 kHz.
    public var speedMode: RegisterValue { sampleRate <= 48_000 ? 0 : sampleRate <= 96_000 ? 1 : 2 }

    /// The plan for `rate` from `source`.
    public static func plan(source: PCM512xClockSource, rate: Int) throws(CodecError) -> PCM512xClockPlan {
        switch source {
        case .masterClock(let hertz):
            guard sckRange.contains(hertz) else {
                throw .unsupportedMasterClock(codec: "PCM512x", mclk: hertz, reason: "SCK must be 1...50 MHz")
            }
        case .bitClock(let bits):
            guard [32, 48, 64].contains(bits) else {
                throw .unsupportedMasterClock(codec: "PCM512x", mclk: 0,
                                              reason: "BCLK must carry 32, 48 or 64 bits a frame, not \(bits)")
            }
        case .switchedOscillators:
            break
        }
        if let plan = candidate(source: source, rate: rate) { return plan }
        throw .unsupportedRate(codec: "PCM512x", rate: rate, mclk: source.nominalMasterClock,
                               supported: supportedRates(source: source))
    }

    /// The rates `source` can make exactly, ascending.
    public static func supportedRates(source: PCM512xClockSource) -> [Int] {
        standardRates.filter { candidate(source: source, rate: $0) != nil }
    }

    static func candidate(source: PCM512xClockSource, rate: Int) -> PCM512xClockPlan? {
        guard standardRates.contains(rate) else { return nil }
        switch source {
        case .masterClock(let hertz):
            return candidate(source: source, rate: rate, sck: hertz, oscillator: nil)
        case .switchedOscillators:
            // The oscillator that divides to the rate, so the DSP can run from SCK or the PLL in integer mode.
            for oscillator in source.oscillators where oscillator.hertz % rate == 0 {
                if let plan = candidate(source: source, rate: rate, sck: oscillator.hertz, oscillator: oscillator) {
                    return plan
                }
            }
            return nil
        case .bitClock(let bits):
            return pllPlan(source: source, rate: rate, reference: bits * rate, fromBitClock: true, oscillator: nil)
        }
    }

    /// From SCK: directly when it is a multiple of at least 256 fs and the dividers work out, else the PLL.
    static func candidate(source: PCM512xClockSource, rate: Int, sck: Int,
                          oscillator: PCM512xOscillator?) -> PCM512xClockPlan? {
        guard sckRange.contains(sck) else { return nil }
        if sck % rate == 0 && sck / rate >= minimumDSPClocksPerSample,
           let plan = dividers(source: source, rate: rate, masterClock: sck, reference: sck, pll: nil,
                               oscillator: oscillator) {
            return plan
        }
        return pllPlan(source: source, rate: rate, reference: sck, fromBitClock: false, oscillator: oscillator)
    }

    /// The PLL output candidates for `rate`, best first: multiples of 512 fs (the datasheet's 98.304 and
    /// 90.3168 MHz are 2048 fs), then other multiples of 16 fs, highest first.
    static func pllTargets(rate: Int) -> [Int] {
        let low = (pllOutputRange.lowerBound + rate - 1) / rate, high = pllOutputRange.upperBound / rate
        let multiples = stride(from: high, through: low, by: -1).filter { $0 % 16 == 0 }
        return (multiples.filter { $0 % 512 == 0 } + multiples.filter { $0 % 512 != 0 }).map { $0 * rate }
    }

    static func pllPlan(source: PCM512xClockSource, rate: Int, reference: Int, fromBitClock: Bool,
                        oscillator: PCM512xOscillator?) -> PCM512xClockPlan? {
        for target in pllTargets(rate: rate) {
            guard let pll = pllSetting(reference: reference, output: target, fromBitClock: fromBitClock) else { continue }
            if let plan = dividers(source: source, rate: rate, masterClock: target, reference: reference, pll: pll,
                                   oscillator: oscillator) {
                return plan
            }
        }
        return nil
    }

    /// P, J.D and R that make `output` from `reference` exactly, inside the datasheet's limits; integer
    /// mode (D == 0) first, as it has the lower jitter.
    static func pllSetting(reference: Int, output: Int, fromBitClock: Bool) -> PLL? {
        let ref = Int64(reference), out = Int64(output)
        for p in 1...15 where pllInputRange.lowerBound * p <= reference && reference <= pllInputRange.upperBound * p {
            for r in 1...16 {
                // reference * r * j == output * p
                let numerator = out * Int64(p), denominator = ref * Int64(r)
                guard numerator % denominator == 0 else { continue }
                let j = numerator / denominator
                if (1...63).contains(j) {
                    return PLL(fromBitClock: fromBitClock, p: p, j: Int(j), d: 0, r: r, outputHertz: output)
                }
            }
        }
        for p in 1...15 where pllFractionalInputRange.lowerBound * p <= reference
            && reference <= pllFractionalInputRange.upperBound * p {
            // K = J.D * 10000 = output * p * 10000 / reference, exactly.
            let numerator = out * Int64(p) * 10_000
            guard numerator % ref == 0 else { continue }
            let k = Int(numerator / ref)
            let j = k / 10_000, d = k % 10_000
            if (4...11).contains(j) && d > 0 {
                return PLL(fromBitClock: fromBitClock, p: p, j: j, d: d, r: 1, outputHertz: output)
            }
        }
        return nil
    }

    /// The DSP, DAC, OSR and NCP dividers for `masterClock`, or nil when no exact set exists.
    static func dividers(source: PCM512xClockSource, rate: Int, masterClock: Int, reference: Int, pll: PLL?,
                         oscillator: PCM512xOscillator?) -> PCM512xClockPlan? {
        guard masterClock % rate == 0 else { return nil }
        let perSample = masterClock / rate
        guard let dsp = dividerRange.first(where: { masterClock / $0 <= dspMaximum && perSample % $0 == 0 }),
              perSample / dsp >= minimumDSPClocksPerSample, perSample / dsp <= 0xFFFF else { return nil }
        let osrClock = 16 * rate
        guard let dac = dividerRange.first(where: {
            masterClock % $0 == 0 && masterClock / $0 <= dacMaximum && (masterClock / $0) % osrClock == 0
                && dividerRange.contains(masterClock / $0 / osrClock)
        }) else { return nil }
        let dacClock = masterClock / dac
        var ncp = Swift.max(1, (dacClock + ncpTarget / 2) / ncpTarget)
        if dacClock / ncp > ncpMaximum { ncp = (dacClock + ncpMaximum - 1) / ncpMaximum }
        guard dividerRange.contains(ncp) else { return nil }
        return PCM512xClockPlan(source: source, sampleRate: rate, oscillator: oscillator, referenceHertz: reference,
                                pll: pll, masterClockHertz: masterClock, dspDivider: dsp, dacDivider: dac,
                                ncpDivider: ncp, osrDivider: dacClock / osrClock)
    }

    public var description: String {
        var text = "\(sampleRate) Hz from "
        if let oscillator { text += "the \(oscillator)" } else if pll?.fromBitClock == true {
            text += "BCLK \(CodecError.megahertz(referenceHertz))"
        } else {
            text += "SCK \(CodecError.megahertz(referenceHertz))"
        }
        if let pll {
            let fraction = String(pll.d)
            text += ": PLL P=\(pll.p) J.D=\(pll.j).\(String(repeating: "0", count: 4 - fraction.count) + fraction)"
                + " R=\(pll.r) -> \(CodecError.megahertz(pll.outputHertz))"
        } else {
            text += ": no PLL"
        }
        return text + ", DSP /\(dspDivider) (\(idac) fs), DAC /\(dacDivider), OSR /\(osrDivider), NCP /\(ncpDivider)"
    }
}
