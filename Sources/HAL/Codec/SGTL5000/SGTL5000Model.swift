/// The simulated SGTL5000: a `SimulatedRegisterBus` with the chip's register map (reset values, CHIP_ID and
/// ANA_STATUS read-only), a CHIP_ID of 0xA011 (part 0xA0, revision 0x11), and the analog state its
/// registers imply, so tests can say "headphones: powered at -20.0 dB" instead of comparing words.
///
/// What the twin does beyond storing words (`SGTL5000ChipBehavior`): ANA_STATUS's PLL_IS_LOCKED follows
/// the PLL (powered, VCO amplifier on, and the divisors bringing MCLK within 1 % of the 180.6336 or
/// 196.608 MHz the core needs); a write of DAP_FILTER_COEF_ACCESS with WR set latches the ten coefficient
/// registers into PEQ filter INDEX, and WR clears itself. Like the chip, it has no reset register.
/// Limits: volume ramps and zero-cross waits are instantaneous; short-circuit detection never trips.
public final class SGTL5000Model: Sendable {
    public let bus: SimulatedRegisterBus
    public let mclk: Int
    /// The frame the Pi's I2S runs (the board's `i2s:`), which CHIP_I2S_CTRL SCLKFREQ must match.
    public let frame: I2SFrame

    /// An SGTL5000 on `bus` at `address` (0x0a with CTRL_ADR0_CS low, the Fe-Pi's; 0x2a high), clocked
    /// from `mclk` Hz, on an I2S link framed as `frame`. `chipID` lets a test plant another part.
    public init(bus: Int = 1, address: I2CAddress, mclk: Int, frame: I2SFrame = .standard,
                chipID: RegisterValue = SGTL5000Register.productionChipID) {
        self.bus = SimulatedRegisterBus(bus: bus, address: address, layout: .reg16Value16, registerMap: SGTL5000Register.map,
                                        behavior: SGTL5000ChipBehavior(mclk: mclk))
        self.mclk = mclk
        self.frame = frame
        self.bus.setRegister(SGTL5000Register.chipID, chipID)
    }

    private func value(_ register: RegisterAddress) -> RegisterValue { bus.registerValue(register) ?? 0 }

    /// PEQ filter `index` as latched through the coefficient port (all zero until written).
    public func peqFilter(_ index: Int) -> SGTL5000Biquad {
        let base = SGTL5000ChipBehavior.peqStorage + RegisterAddress(index) * 0x10
        return SGTL5000Biquad(raw: (0..<5).map { k in
            SGTL5000Biquad.coefficient(msb: value(base + RegisterAddress(2 * k)), lsb: value(base + RegisterAddress(2 * k + 1)))
        })
    }

    /// What the registers currently say about the chip.
    public var state: SGTL5000State {
        let power = value(SGTL5000Register.analogPower)
        let digital = value(SGTL5000Register.digitalPower)
        let control = value(SGTL5000Register.analogControl)
        let adcdac = value(SGTL5000Register.adcDACControl)
        let reference = value(SGTL5000Register.referenceControl)
        let regulator = value(SGTL5000Register.regulatorControl)
        let interface = value(SGTL5000Register.i2sControl)
        let sss = value(SGTL5000Register.sourceSelect)
        let vag = power & SGTL5000Bits.vagPowerUp != 0
        let reftop = power & SGTL5000Bits.reftopPowerUp != 0
        let biased = vag && reftop
        let dacPath = Int(sss & SGTL5000Bits.dacSelect) >> 4
        let dacFed = dacPath == 1 || (dacPath == 3 && digital & SGTL5000Bits.dapPowerUp != 0)
        let dacPowered = biased && power & SGTL5000Bits.dacAnalogPowerUp != 0
            && digital & SGTL5000Bits.dacPowerUp != 0 && digital & SGTL5000Bits.i2sInPowerUp != 0 && dacFed
        let dacVolume = value(SGTL5000Register.dacVolume)
        let hp = value(SGTL5000Register.headphoneVolume)
        let lineOut = value(SGTL5000Register.lineOutVolume)
        let dap = value(SGTL5000Register.dapControl) & SGTL5000Bits.dapEnable != 0
            && digital & SGTL5000Bits.dapPowerUp != 0 && dacPath == 3
        let eq: SGTL5000State.EQ
        switch value(SGTL5000Register.dapAudioEQ) & SGTL5000Bits.eqMode {
        case _ where !dap: eq = .off
        case 1: eq = .parametric(filters: Int(value(SGTL5000Register.dapPEQ) & 7))
        case 2: eq = .tone(bassDB: SGTL5000Equalizer.graphicDB(code: value(SGTL5000Register.eqBands[0])),
                           trebleDB: SGTL5000Equalizer.graphicDB(code: value(SGTL5000Register.eqBands[4])))
        case 3: eq = .graphic(SGTL5000Register.eqBands.map { SGTL5000Equalizer.graphicDB(code: value($0)) })
        default: eq = .off
        }
        let adcPowered = biased && power & SGTL5000Bits.adcAnalogPowerUp != 0 && digital & SGTL5000Bits.adcPowerUp != 0
        let mic = value(SGTL5000Register.micControl)
        let adcVolume = value(SGTL5000Register.adcAnalogVolume)
        let input = SGTL5000VolumeSplit.InputGain(micGainCode: mic & SGTL5000Bits.micGain, adcCode: adcVolume & 0xF,
                                                  adcMinus6dB: adcVolume & SGTL5000Bits.adcMinus6dB != 0)
        let fromLine = control & SGTL5000Bits.adcFromLineIn != 0
        return SGTL5000State(
            chipID: value(SGTL5000Register.chipID),
            vdddRegulator: power & SGTL5000Bits.linregDPowerUp != 0 ? Double(1600 - 50 * Int(regulator & SGTL5000Bits.vdddLevel)) / 1000 : nil,
            chargePump: power & SGTL5000Bits.chargePumpPowerUp != 0
                ? "on" : (regulator & SGTL5000Bits.chargePumpOverride != 0
                          ? (regulator & SGTL5000Bits.chargePumpFromVDDIO != 0 ? "from VDDIO" : "from VDDA") : "automatic"),
            reftop: reftop, vag: vag,
            vagVolts: 0.8 + 0.025 * Double((reference & SGTL5000Bits.vagLevel) >> 4),
            slowVAGRamp: reference & SGTL5000Bits.smallPop != 0,
            pllPowered: power & (SGTL5000Bits.pllPowerUp | SGTL5000Bits.vcoAmpPowerUp) == SGTL5000Bits.pllPowerUp | SGTL5000Bits.vcoAmpPowerUp,
            pllLocked: value(SGTL5000Register.analogStatus) & SGTL5000Bits.pllLocked != 0,
            sysclkFromPLL: value(SGTL5000Register.clockControl) & SGTL5000Bits.mclkFrequency == 3,
            sampleRate: sampleRate,
            frameProblem: frameProblem,
            wordLength: [32, 24, 20, 16][Int(interface & SGTL5000Bits.dataLength) >> 4],
            isI2S: interface & (SGTL5000Bits.i2sMode | SGTL5000Bits.lrAlign) == 0,
            isClockProvider: interface & SGTL5000Bits.clockProvider != 0,
            dacPowered: dacPowered,
            dacMuted: adcdac & SGTL5000Bits.dacMute == SGTL5000Bits.dacMute,
            dacGain: .init(left: SGTL5000VolumeSplit.dacDB(code: dacVolume & 0xFF),
                           right: SGTL5000VolumeSplit.dacDB(code: dacVolume >> 8), zeroCross: false),
            dacRamp: adcdac & SGTL5000Bits.volumeRamp != 0,
            headphonesPowered: biased && power & SGTL5000Bits.headphonePowerUp != 0 && control & SGTL5000Bits.headphoneFromLineIn == 0,
            headphonesMuted: control & SGTL5000Bits.headphoneMute != 0,
            headphoneGain: .init(left: SGTL5000VolumeSplit.headphoneDB(code: hp & 0x7F),
                                 right: SGTL5000VolumeSplit.headphoneDB(code: hp >> 8 & 0x7F),
                                 zeroCross: control & SGTL5000Bits.headphoneZeroCross != 0),
            lineOutPowered: biased && power & SGTL5000Bits.lineOutPowerUp != 0,
            lineOutMuted: control & SGTL5000Bits.lineOutMute != 0,
            lineOutCodes: (left: lineOut & 0x1F, right: lineOut >> 8 & 0x1F),
            adcPowered: adcPowered,
            inputSource: fromLine ? .line : .microphone,
            inputGainDB: control & SGTL5000Bits.adcMute != 0 ? nil : (fromLine ? input.adcDB : input.totalDB),
            micBias: mic & SGTL5000Bits.micBiasResistor != 0 && biased
                ? SGTL5000MicBias(millivolts: 1_250 + 250 * Int((mic & SGTL5000Bits.micBiasVoltage) >> 4),
                                  kilohms: [0, 2, 4, 8][Int((mic & SGTL5000Bits.micBiasResistor) >> 8)]) : nil,
            eq: eq,
            mainChannelDB: SGTL5000Equalizer.mainChannelDB(code: value(SGTL5000Register.dapMainChannel)),
            shortDetectEnabled: value(SGTL5000Register.shortControl) & 0x000F != 0)
    }

    /// A SCLKFREQ other than the frame the Pi runs (datasheet CHIP_I2S_CTRL SCLKFREQ: 64 or 32 Fs, which in
    /// slave mode "must be set appropriately to match SCLK input rate"); nil when they match or there is no rate.
    public var frameProblem: String? {
        guard let rate = sampleRate else { return nil }
        let bits = value(SGTL5000Register.i2sControl) & SGTL5000Bits.sclk32fs != 0 ? 32 : 64
        let expected = frame.bitsPerFrame(rate: Int(rate.rounded()))
        return bits == expected ? nil
            : "frame mismatch: SCLKFREQ says \(bits) Fs, the Pi runs \(expected.map(String.init) ?? "no whole frame")"
    }

    /// The sample rate CHIP_CLK_CTRL makes from `mclk` (through the PLL when MCLK_FREQ says so), nil when
    /// the PLL it needs is off or unlocked.
    public var sampleRate: Double? {
        let clocks = value(SGTL5000Register.clockControl)
        let system = [32_000.0, 44_100, 48_000, 96_000][Int(clocks & SGTL5000Bits.sysFS) >> 2]
        let divider = [1.0, 2, 4, 6][Int(clocks & SGTL5000Bits.rateMode) >> 4]
        let code = Int(clocks & SGTL5000Bits.mclkFrequency)
        if code == 3 {
            guard value(SGTL5000Register.analogStatus) & SGTL5000Bits.pllLocked != 0,
                  let output = SGTL5000ChipBehavior.pllOutput(mclk: mclk, registers: [
                    SGTL5000Register.pllControl: value(SGTL5000Register.pllControl),
                    SGTL5000Register.clockTopControl: value(SGTL5000Register.clockTopControl)]) else { return nil }
            // The core divides the nominal PLL output (4096 x 44.1 kHz, or 4096 x 48 kHz) down to SYS_FS.
            let nominalOutput = system == 44_100 ? 180_633_600.0 : 196_608_000.0
            return output / nominalOutput * system / divider
        }
        let ratio = [256.0, 384, 512][code]
        return Double(mclk) / ratio / divider
    }
}

/// The chip's reactions to writes (see `SGTL5000Model`).
public struct SGTL5000ChipBehavior: SimulatedChipBehavior {
    public let mclk: Int
    /// Where the twin keeps latched PEQ filters: 0x10 storage addresses per filter, beyond the register map.
    public static let peqStorage: RegisterAddress = 0x8000

    public init(mclk: Int) { self.mclk = mclk }

    /// The PLL output the divisors make from `mclk`, in Hz.
    static func pllOutput(mclk: Int, registers: [RegisterAddress: RegisterValue]) -> Double? {
        let pll = registers[SGTL5000Register.pllControl] ?? 0x5000
        let halved = (registers[SGTL5000Register.clockTopControl] ?? 0) & SGTL5000Bits.inputFrequencyDiv2 != 0
        let input = Double(mclk) / (halved ? 2 : 1)
        return input * (Double(pll >> 11) + Double(pll & 0x7FF) / 2048)
    }

    public func didWrite(_ register: RegisterAddress, _ value: RegisterValue,
                         registers: inout [RegisterAddress: RegisterValue],
                         resetValues: [RegisterAddress: RegisterValue]) {
        switch register {
        case SGTL5000Register.analogPower, SGTL5000Register.pllControl, SGTL5000Register.clockTopControl:
            let power = registers[SGTL5000Register.analogPower] ?? 0
            let both = SGTL5000Bits.pllPowerUp | SGTL5000Bits.vcoAmpPowerUp
            var locked = false
            if power & both == both, let output = Self.pllOutput(mclk: mclk, registers: registers) {
                locked = [180_633_600.0, 196_608_000].contains { abs(output - $0) / $0 < 0.01 }
            }
            let status = registers[SGTL5000Register.analogStatus] ?? 0
            registers[SGTL5000Register.analogStatus] = status & ~SGTL5000Bits.pllLocked | (locked ? SGTL5000Bits.pllLocked : 0)
        case SGTL5000Register.dapCoefficientAccess where value & SGTL5000Bits.coefficientWrite != 0:
            let index = Int(value & 0xFF)
            if index < SGTL5000Equalizer.peqFilters {
                let base = Self.peqStorage + RegisterAddress(index) * 0x10
                for (k, port) in SGTL5000Register.coefficientPorts.enumerated() {
                    registers[base + RegisterAddress(2 * k)] = registers[port.msb] ?? 0
                    registers[base + RegisterAddress(2 * k + 1)] = registers[port.lsb] ?? 0
                }
            }
            registers[register] = value & ~SGTL5000Bits.coefficientWrite
        default:
            break
        }
    }
}

/// The SGTL5000's state as its registers imply it.
public struct SGTL5000State: Hashable, Sendable {
    /// A stereo gain in dB per channel, nil where muted.
    public struct Stereo: Hashable, Sendable {
        public var left: Double?
        public var right: Double?
        public var zeroCross: Bool
        /// Both channels' gain when they agree, nil when muted or different.
        public var dB: Double? { left == right ? left : nil }
    }

    public enum EQ: Hashable, Sendable {
        case off
        case parametric(filters: Int)
        case tone(bassDB: Double, trebleDB: Double)
        case graphic([Double])
    }

    public var chipID: RegisterValue
    /// The internal VDDD regulator's voltage, nil when it is off (external VDDD, or before power-up).
    public var vdddRegulator: Double?
    public var chargePump: String
    public var reftop: Bool
    public var vag: Bool
    public var vagVolts: Double
    public var slowVAGRamp: Bool
    public var pllPowered: Bool
    public var pllLocked: Bool
    public var sysclkFromPLL: Bool
    public var sampleRate: Double?
    /// Why the I2S port's frame is not the Pi's (nil when they match).
    public var frameProblem: String?
    public var wordLength: Int
    public var isI2S: Bool
    public var isClockProvider: Bool
    /// Analog and digital DAC powered, biased, fed from I2S (or the DAP).
    public var dacPowered: Bool
    public var dacMuted: Bool
    public var dacGain: Stereo
    public var dacRamp: Bool
    public var headphonesPowered: Bool
    public var headphonesMuted: Bool
    public var headphoneGain: Stereo
    public var lineOutPowered: Bool
    public var lineOutMuted: Bool
    public var lineOutCodes: (left: RegisterValue, right: RegisterValue)
    public var adcPowered: Bool
    public var inputSource: CodecInput
    /// Preamp plus ADC volume on the left channel (ADC volume only for line in), nil when muted.
    public var inputGainDB: Double?
    /// The bias CHIP_MIC_CTRL makes, nil when off (BIAS_RESISTOR 0) or the references are down.
    public var micBias: SGTL5000MicBias?
    public var eq: EQ
    public var mainChannelDB: Double
    public var shortDetectEnabled: Bool

    public static func == (a: SGTL5000State, b: SGTL5000State) -> Bool { a.description == b.description }
    public func hash(into hasher: inout Hasher) { hasher.combine(description) }

    /// The DAC and headphone amplifier together, nil when the headphones are off or muted anywhere.
    public var headphoneLevel: Double? {
        guard headphonesPowered, !headphonesMuted, dacPowered, !dacMuted,
              let analog = headphoneGain.dB, let digital = dacGain.dB else { return nil }
        return analog + digital
    }

    /// The line output's level relative to `split`'s nominal code plus the DAC volume, nil when off or muted.
    public func lineOutLevel(_ split: SGTL5000VolumeSplit) -> Double? {
        guard lineOutPowered, !lineOutMuted, dacPowered, !dacMuted, lineOutCodes.left == lineOutCodes.right,
              let digital = dacGain.dB else { return nil }
        return split.lineOutDB(code: lineOutCodes.left) + digital
    }
}

extension SGTL5000State: CustomStringConvertible {
    /// One line per block, in words: `headphones: powered at -20.0 dB`.
    public var description: String {
        func gain(_ value: Double?) -> String { value.map { "\($0) dB" } ?? "muted" }
        let rate = frameProblem ?? sampleRate.map { "\(Int($0.rounded())) Hz" } ?? "no clock"
        let pll = pllPowered ? (pllLocked ? ", PLL locked" : ", PLL unlocked") : ""
        let headphones: String
        if !headphonesPowered {
            headphones = "headphones: off"
        } else if headphonesMuted {
            headphones = "headphones: powered, muted"
        } else {
            headphones = "headphones: powered at " + (headphoneGain.dB.map { "\($0) dB" }
                ?? "L \(gain(headphoneGain.left)), R \(gain(headphoneGain.right))")
        }
        let lineOut = !lineOutPowered ? "line out: off"
            : "line out: powered\(lineOutMuted ? ", muted" : ""), code \(lineOutCodes.left)"
        let eqText: String
        switch eq {
        case .off: eqText = "EQ: off"
        case .parametric(let filters): eqText = "EQ: PEQ, \(filters) filters, main \(SGTL5000Equalizer.rounded(mainChannelDB)) dB"
        case .tone(let bass, let treble): eqText = "EQ: tone, bass \(bass) dB, treble \(treble) dB"
        case .graphic(let bands): eqText = "EQ: graphic \(bands.map { "\($0)" }.joined(separator: " ")) dB"
        }
        return [
            "supplies: VDDD " + (vdddRegulator.map { "regulator \(SGTL5000Equalizer.rounded($0)) V" } ?? "regulator off")
                + ", charge pump \(chargePump)",
            "references: VAG \(vag ? "on" : "off") (\(Int((vagVolts * 1000).rounded())) mV\(slowVAGRamp ? ", slow ramp" : "")), "
                + "REFTOP \(reftop ? "on" : "off")\(shortDetectEnabled ? ", short detect on" : "")",
            "clock: \(sysclkFromPLL ? "PLL" : "MCLK")\(pll), \(rate), \(wordLength)-bit "
                + (isI2S ? "I2S" : "other format") + (isClockProvider ? ", codec drives BCLK/LRCLK" : ""),
            dacPowered ? "DAC: powered at \(gain(dacGain.dB))\(dacMuted ? ", muted" : "")" : "DAC: off",
            headphones,
            lineOut,
            adcPowered ? "input: \(inputSource), \(gain(inputGainDB)), mic bias \(micBias.map { "\($0)" } ?? "off")" : "input: off",
            eqText,
        ].joined(separator: "\n")
    }
}
