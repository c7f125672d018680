/// The simulated WM8731: a `SimulatedRegisterBus` with the chip's register map (R0-R9, R15 write-only),
/// and the analog state its registers imply, so tests can say "headphones: powered at -20.0 dB" instead
/// of comparing bytes.
///
/// A write to R15 resets every register, as on the chip. Limit of the twin: the "both channels" bits are
/// not modelled (the driver never sets them).
public final class WM8731Model: Sendable {
    public let bus: SimulatedRegisterBus
    public let mclk: Int
    /// Whether `mclk` is a crystal on XTI/XTO, which oscillates only while R6 OSCPD is clear.
    public let crystal: Bool
    /// The frame the Pi's I2S expects (the board's `i2s:`).
    public let frame: I2SFrame

    /// A WM8731 on `bus` at `address` (0x1a with CSB low, 0x1b with it high), clocked from `mclk` Hz, a
    /// crystal's or a clock driven into MCLK, on an I2S link framed as `frame`.
    public init(bus: Int = 1, address: I2CAddress, mclk: Int, crystal: Bool = false, frame: I2SFrame = .standard) {
        self.bus = SimulatedRegisterBus(bus: bus, address: address, layout: .reg7Value9, registerMap: WM8731Register.map,
                                        behavior: SoftResetRegister(WM8731Register.reset))
        self.mclk = mclk
        self.crystal = crystal
        self.frame = frame
    }

    private func value(_ register: RegisterAddress) -> RegisterValue { bus.registerValue(register) ?? 0 }

    /// What the registers currently say about the analog side.
    public var state: WM8731State {
        let power = value(WM8731Register.powerDown)
        let chipOn = power & WM8731Bits.powerOff == 0
        let analog = value(WM8731Register.analogPath)
        let interface = value(WM8731Register.interfaceFormat)
        let left = value(WM8731Register.leftHeadphone), right = value(WM8731Register.rightHeadphone)
        let leftLine = value(WM8731Register.leftLineIn)
        let adcOn = chipOn && power & WM8731Bits.adcDown == 0
        let micSelected = analog & WM8731Bits.inputSelect != 0
        return WM8731State(
            poweredOn: chipOn,
            active: value(WM8731Register.active) & WM8731Bits.activate != 0,
            dacPowered: chipOn && power & WM8731Bits.dacDown == 0,
            dacSoftMuted: value(WM8731Register.digitalPath) & WM8731Bits.dacMute != 0,
            dacSelected: analog & WM8731Bits.dacSelect != 0,
            bypass: analog & WM8731Bits.bypass != 0,
            outputsPowered: chipOn && power & WM8731Bits.outputsDown == 0,
            headphoneGain: WM8731State.Stereo(
                left: WM8731VolumeSplit.headphoneDB(code: left & WM8731Bits.headphoneVolume),
                right: WM8731VolumeSplit.headphoneDB(code: right & WM8731Bits.headphoneVolume),
                zeroCross: left & right & WM8731Bits.headphoneZeroCross != 0),
            sampleRate: sampleRate,
            clockProblem: clockProblem,
            wordLength: [16, 20, 24, 32][Int(interface & WM8731Bits.wordLength) >> 2],
            isI2S: interface & WM8731Bits.format == 0b10,
            isClockProvider: interface & WM8731Bits.clockProvider != 0,
            input: !adcOn ? nil : micSelected
                ? (power & WM8731Bits.micDown == 0 && analog & WM8731Bits.muteMic == 0
                    ? .microphone(boostDB: analog & WM8731Bits.micBoost != 0 ? 20 : 0) : nil)
                : (power & WM8731Bits.lineInDown == 0 && leftLine & WM8731Bits.lineInMute == 0
                    ? .line(dB: WM8731VolumeSplit.lineInputDB(code: leftLine)) : nil))
    }

    /// Why the chip has no usable clock: the crystal's oscillator powered down (datasheet R6 "Power Down
    /// Control", OSCPD bit 5: 1 = oscillator powered down; the kernel's wm8731.c powers this "OSC" supply for
    /// the DAC and ADC only with a crystal, `wm8731_check_osc`), or, as provider in USB mode where BCLK is the 12 MHz
    /// clock itself, a frame that is not the one the Pi expects. Nil when the clock runs and fits.
    public var clockProblem: String? {
        if crystal && value(WM8731Register.powerDown) & WM8731Bits.oscillatorDown != 0 {
            return "no clock: OSCPD powers the crystal oscillator down"
        }
        guard let row = row, value(WM8731Register.interfaceFormat) & WM8731Bits.clockProvider != 0, row.usbMode else {
            return nil
        }
        let rate = Int(row.rate.rounded())
        let expected = frame.bitsPerFrame(rate: rate)
        if row.divisor != expected {
            return "frame mismatch: USB mode clocks \(row.divisor) bits a frame, the Pi expects "
                + (expected.map { "\($0)" } ?? "none at \(rate) Hz")
        }
        return nil
    }

    /// The datasheet row R8 selects for `mclk`, nil when it is not in the table for this clock.
    private var row: WM8731ClockPlan.Setting? {
        let sampling = value(WM8731Register.sampling)
        let core = sampling & WM8731Bits.clockInDivide2 != 0 ? mclk / 2 : mclk
        return WM8731ClockPlan.table.first {
            $0.coreClock == core && $0.usbMode == (sampling & WM8731Bits.usbMode != 0)
                && $0.bosr == (sampling & WM8731Bits.baseOversampling != 0)
                && $0.sr == (sampling & WM8731Bits.sampleRate) >> 2
        }
    }

    /// The sample rate R8 makes from `mclk`: nil when the row is not in the datasheet's table for this clock,
    /// or the chip has no usable clock (see `clockProblem`).
    public var sampleRate: Double? {
        guard clockProblem == nil else { return nil }
        return row?.rate
    }
}

/// The WM8731's analog state as its registers imply it.
public struct WM8731State: Hashable, Sendable {
    /// A stereo gain in dB per channel, nil where muted.
    public struct Stereo: Hashable, Sendable {
        public var left: Double?
        public var right: Double?
        public var zeroCross: Bool
        /// Both channels' gain when they agree, nil when muted or different.
        public var dB: Double? { left == right ? left : nil }
    }

    /// What feeds the ADC, when it is powered and unmuted.
    public enum Input: Hashable, Sendable {
        case microphone(boostDB: Double)
        case line(dB: Double)
    }

    /// POWEROFF clear: references and VMID up.
    public var poweredOn: Bool
    /// ACTIVE: the digital audio interface runs.
    public var active: Bool
    public var dacPowered: Bool
    public var dacSoftMuted: Bool
    /// DACSEL: the DAC feeds the outputs.
    public var dacSelected: Bool
    public var bypass: Bool
    /// OUTPD clear (headphone and line outputs) with the chip on.
    public var outputsPowered: Bool
    public var headphoneGain: Stereo
    public var sampleRate: Double?
    /// Why there is no clock (oscillator off, frame mismatch), nil when it runs.
    public var clockProblem: String?
    public var wordLength: Int
    public var isI2S: Bool
    public var isClockProvider: Bool
    public var input: Input?

    /// Whether the DAC reaches the headphones: powered, routed, active and unmuted.
    public var headphonesPlaying: Bool { outputsPowered && dacPowered && dacSelected && active && !dacSoftMuted }

    /// The level the DAC reaches the headphones at, nil when it does not or the amplifier is muted.
    public func level(_ output: CodecOutput) -> Double? {
        guard output == .headphones, headphonesPlaying else { return nil }
        return headphoneGain.dB
    }
}

extension WM8731State: CustomStringConvertible {
    /// One line per block, in words: `headphones: powered at -20.0 dB`.
    public var description: String {
        let rate = sampleRate.map { "\(Int($0.rounded())) Hz" } ?? clockProblem ?? "no clock"
        let headphones: String
        if !outputsPowered {
            headphones = "headphones: off"
        } else {
            let gain = headphoneGain.dB.map { "\($0) dB" } ?? (headphoneGain.left == nil && headphoneGain.right == nil
                ? "muted" : "L \(headphoneGain.left.map { "\($0) dB" } ?? "muted"), R \(headphoneGain.right.map { "\($0) dB" } ?? "muted")")
            headphones = "headphones: powered at \(gain)"
        }
        let inputText: String = switch input {
        case nil: "input: off"
        case .microphone(let boost)?: "input: microphone, boost \(boost) dB"
        case .line(let dB)?: "input: line at \(dB) dB"
        }
        return [
            "chip: \(poweredOn ? "on" : "off"), interface \(active ? "active" : "inactive")",
            "clock: \(rate), \(wordLength)-bit " + (isI2S ? "I2S" : "other format")
                + (isClockProvider ? ", codec drives BCLK/LRCLK" : ""),
            dacPowered ? "DAC: powered\(dacSoftMuted ? ", soft-muted" : "")\(dacSelected ? "" : ", not routed")" : "DAC: off",
            headphones,
            inputText,
        ].joined(separator: "\n")
    }
}
