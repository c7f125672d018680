/// The simulated WM8960: a `SimulatedRegisterBus` with the chip's register map (which registers exist,
/// their reset values, R15 write-only), and the analog state its registers imply, so tests can say
/// "headphones powered at -20 dB" instead of comparing bytes.
///
/// A write to R15 resets every register, as on the chip. Limit of the twin: volume update bits are not
/// modelled as latches (the decoded gain is the last value written to each register).
public final class WM8960Model: Sendable {
    public let bus: SimulatedRegisterBus
    public let mclk: Int
    /// The frame the Pi's I2S expects (the board's `i2s:`), which a providing codec's BCLK must make.
    public let frame: I2SFrame

    /// R15 soft reset and the PLL's lock time (see `WM8960ChipBehavior`).
    private let chip: WM8960ChipBehavior

    /// A WM8960 on `bus` at `address` (0x1a, its only address on the HATs), clocked from `mclk` Hz, on an I2S
    /// link framed as `frame`. With `clock` (the driver's), a switch of SYSCLK to the PLL before it had time to
    /// lock counts as no clock.
    public init(bus: Int = 1, address: I2CAddress, mclk: Int, frame: I2SFrame = .standard,
                clock: (any MonotonicClock)? = nil) {
        chip = WM8960ChipBehavior(clock: clock)
        self.bus = SimulatedRegisterBus(bus: bus, address: address, layout: .reg7Value9, registerMap: WM8960Register.map,
                                        behavior: chip)
        self.mclk = mclk
        self.frame = frame
    }

    /// SYSCLK switched to the PLL before its lock time passed (needs the clock given at init).
    public var sysclkFromUnlockedPLL: Bool {
        chip.pll.sysclkFromUnlockedPLL && value(WM8960Register.clocking1) & WM8960Bits.sysclkFromPLL != 0
    }

    private func value(_ register: RegisterAddress) -> RegisterValue { bus.registerValue(register) ?? 0 }

    /// What the registers currently say about the analog side.
    public var state: WM8960State {
        let power1 = value(WM8960Register.power1)
        let power2 = value(WM8960Register.power2)
        let power3 = value(WM8960Register.power3)
        let vmid: WM8960State.VMID = switch power1 & WM8960Bits.vmidSelect {
        case 0x080: .playback
        case 0x100: .lowPower
        case 0x180: .fastStart
        default: .off
        }
        let biased = vmid != .off && power1 & WM8960Bits.vref != 0
        let dacPowered = power2 & (WM8960Bits.leftDAC | WM8960Bits.rightDAC) == WM8960Bits.leftDAC | WM8960Bits.rightDAC
        let mixers = power3 & (WM8960Bits.leftOutputMixer | WM8960Bits.rightOutputMixer) != 0
        let dacRouted = value(WM8960Register.leftOutputMixer) & WM8960Bits.dacToOutputMixer != 0
            && value(WM8960Register.rightOutputMixer) & WM8960Bits.dacToOutputMixer != 0
        let headphones = power2 & (WM8960Bits.leftHeadphone | WM8960Bits.rightHeadphone) != 0
        let speaker = power2 & (WM8960Bits.leftSpeaker | WM8960Bits.rightSpeaker) != 0
            && value(WM8960Register.classDControl1) & WM8960Bits.speakerOutputs != 0
        func outputGain(_ left: RegisterAddress, _ right: RegisterAddress) -> WM8960State.Stereo {
            WM8960State.Stereo(left: WM8960VolumeSplit.outputDB(code: value(left) & WM8960Bits.outputVolume),
                               right: WM8960VolumeSplit.outputDB(code: value(right) & WM8960Bits.outputVolume),
                               zeroCross: value(left) & value(right) & WM8960Bits.outputZeroCross != 0)
        }
        let dac = WM8960State.Stereo(
            left: WM8960VolumeSplit.dacDB(code: value(WM8960Register.leftDACVolume) & WM8960Bits.dacVolume),
            right: WM8960VolumeSplit.dacDB(code: value(WM8960Register.rightDACVolume) & WM8960Bits.dacVolume),
            zeroCross: false)
        let leftInput = value(WM8960Register.leftInputVolume)
        let interface = value(WM8960Register.audioInterface1)
        return WM8960State(
            vmid: vmid, vref: power1 & WM8960Bits.vref != 0,
            dacPowered: dacPowered && biased, dacSoftMuted: value(WM8960Register.dacControl1) & WM8960Bits.dacMute != 0,
            dacGain: dac,
            headphonesPowered: headphones && biased && mixers && dacRouted,
            speakerPowered: speaker && biased && mixers && dacRouted,
            headphoneGain: outputGain(WM8960Register.leftHeadphone, WM8960Register.rightHeadphone),
            speakerGain: outputGain(WM8960Register.leftSpeaker, WM8960Register.rightSpeaker),
            pllEnabled: power2 & WM8960Bits.pllEnable != 0,
            sysclkFromPLL: value(WM8960Register.clocking1) & WM8960Bits.sysclkFromPLL != 0,
            sampleRate: sampleRate,
            frameProblem: frameProblem,
            wordLength: [16, 20, 24, 32][Int(interface & WM8960Bits.wordLength) >> 2],
            isI2S: interface & WM8960Bits.interfaceFormat == 0b10,
            isClockProvider: interface & WM8960Bits.clockProvider != 0,
            inputPGAdB: leftInput & WM8960Bits.inputMute != 0 ? nil : WM8960VolumeSplit.inputDB(code: leftInput),
            adcPowered: power1 & (WM8960Bits.leftADC | WM8960Bits.rightADC) != 0,
            micBias: power1 & WM8960Bits.micBias != 0 && biased)
    }

    /// As clock provider, a frame other than the one the Pi expects: BCLK = SYSCLK / BCLKDIV (datasheet R8
    /// BCLKDIV; kernel wm8960.c `bclk_divs`), so a frame is 256 x DACDIV / BCLKDIV bit clocks. Nil when the
    /// codec is a consumer or the frames match.
    public var frameProblem: String? {
        guard value(WM8960Register.audioInterface1) & WM8960Bits.clockProvider != 0,
              let rate = sampleRate else { return nil }
        let halvesByCode = [2, 3, 4, 6, 8, 11, 12]
        let dacCode = Int(value(WM8960Register.clocking1) & WM8960Bits.dacDivider) >> 3
        let bclkCode = Int(value(WM8960Register.clocking2) & WM8960Bits.bclkDivider)
        let bclkHalves = WM8960ClockPlan.bclkDividers.first { $0.code == RegisterValue(bclkCode) }?.halves ?? 64
        let bits = 256.0 * Double(halvesByCode[dacCode]) / Double(bclkHalves)
        let expected = frame.bitsPerFrame(rate: Int(rate.rounded()))
        guard let expected, bits == Double(expected) else {
            let made = bits == bits.rounded() ? "\(Int(bits))" : "\(bits)"
            return "frame mismatch: BCLK makes \(made) bits a frame, the Pi expects \(expected.map(String.init) ?? "none")"
        }
        return nil
    }

    /// The DAC sample rate the clock registers make from `mclk`, in Hz (nil when SYSCLK runs from a PLL
    /// that is off or was switched to before it locked, or the divider codes are reserved).
    public var sampleRate: Double? {
        let clocking = value(WM8960Register.clocking1)
        let halvesByCode = [2, 3, 4, 6, 8, 11, 12]
        let code = Int(clocking & WM8960Bits.dacDivider) >> 3
        guard code < halvesByCode.count else { return nil }
        let sysclkDivider = clocking & WM8960Bits.sysclkDivider == 0b100 ? 2.0 : 1.0
        var source = Double(mclk)
        if clocking & WM8960Bits.sysclkFromPLL != 0 {
            guard value(WM8960Register.power2) & WM8960Bits.pllEnable != 0, !sysclkFromUnlockedPLL else { return nil }
            let pll1 = value(WM8960Register.pll1)
            let k = Int(value(WM8960Register.pllK1)) << 16 | Int(value(WM8960Register.pllK2)) << 8
                | Int(value(WM8960Register.pllK3))
            let ratio = Double(pll1 & WM8960Bits.pllN) + (pll1 & WM8960Bits.pllFractional != 0 ? Double(k) / 16_777_216 : 0)
            let input = pll1 & WM8960Bits.pllPrescale != 0 ? source / 2 : source
            source = input * ratio / 4
        }
        return source / sysclkDivider / (256 * Double(halvesByCode[code]) / 2)
    }
}

/// The WM8960's analog state as its registers imply it.
public struct WM8960State: Hashable, Sendable {
    public enum VMID: Hashable, Sendable { case off, playback, lowPower, fastStart }
    /// A stereo gain in dB per channel, nil where muted.
    public struct Stereo: Hashable, Sendable {
        public var left: Double?
        public var right: Double?
        public var zeroCross: Bool
        /// Both channels' gain when they agree, nil when muted or different.
        public var dB: Double? { left == right ? left : nil }
    }

    public var vmid: VMID
    public var vref: Bool
    public var dacPowered: Bool
    public var dacSoftMuted: Bool
    public var dacGain: Stereo
    /// Powered, biased, fed from the DACs through the output mixers.
    public var headphonesPowered: Bool
    public var speakerPowered: Bool
    public var headphoneGain: Stereo
    public var speakerGain: Stereo
    public var pllEnabled: Bool
    public var sysclkFromPLL: Bool
    public var sampleRate: Double?
    /// As clock provider, why its frame is not the Pi's (nil when they match, or the Pi provides).
    public var frameProblem: String?
    public var wordLength: Int
    public var isI2S: Bool
    public var isClockProvider: Bool
    /// The left input PGA's gain, nil when muted.
    public var inputPGAdB: Double?
    public var adcPowered: Bool
    public var micBias: Bool

    /// The level reaching `output` (output PGA + DAC volume), nil when it is off or muted anywhere.
    public func level(_ output: CodecOutput) -> Double? {
        let (powered, gain) = output == .speaker ? (speakerPowered, speakerGain) : (headphonesPowered, headphoneGain)
        guard powered, dacPowered, !dacSoftMuted, let analog = gain.dB, let digital = dacGain.dB else { return nil }
        return analog + digital
    }
}

extension WM8960State: CustomStringConvertible {
    /// One line per block, in words: `headphones: powered at -20.0 dB`.
    public var description: String {
        func gain(_ value: Double?) -> String { value.map { "\($0) dB" } ?? "muted" }
        func output(_ name: String, _ powered: Bool, _ stage: Stereo) -> String {
            guard powered else { return "\(name): off" }
            let analog = stage.dB.map { "\($0) dB" } ?? (stage.left == nil && stage.right == nil
                ? "muted" : "L \(gain(stage.left)), R \(gain(stage.right))")
            return "\(name): powered at \(analog)"
        }
        let vmidText = switch vmid {
        case .off: "off"
        case .playback: "2x50k"
        case .lowPower: "2x250k"
        case .fastStart: "2x5k"
        }
        let rate = frameProblem ?? sampleRate.map { "\(Int($0.rounded())) Hz" } ?? "no clock"
        return [
            "references: VMID \(vmidText), VREF \(vref ? "on" : "off")",
            "clock: \(sysclkFromPLL ? "PLL" : "MCLK")\(pllEnabled ? ", PLL on" : ""), \(rate), \(wordLength)-bit "
                + (isI2S ? "I2S" : "other format") + (isClockProvider ? ", codec drives BCLK/LRCLK" : ""),
            dacPowered ? "DAC: powered at \(gain(dacGain.dB))\(dacSoftMuted ? ", soft-muted" : "")" : "DAC: off",
            output("headphones", headphonesPowered, headphoneGain),
            output("speaker", speakerPowered, speakerGain),
            adcPowered ? "input: PGA \(gain(inputPGAdB)), mic bias \(micBias ? "on" : "off")" : "input: off",
        ].joined(separator: "\n")
    }
}
