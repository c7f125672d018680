/// How the simulated PCM512x reacts to its control port: register 0 of every page selects the page (the
/// other wire addresses are stored at `page * 256 + register`), and a write with RSTR set puts every
/// register back to its default, page select included.
public struct PCM512xChipBehavior: SimulatedChipBehavior {
    public init() {}

    public func storageAddress(of wireRegister: RegisterAddress,
                               registers: [RegisterAddress: RegisterValue]) -> RegisterAddress {
        wireRegister == PCM512xRegister.pageSelect ? wireRegister : (registers[PCM512xRegister.pageSelect] ?? 0) << 8 | wireRegister
    }

    public func didWrite(_ register: RegisterAddress, _ value: RegisterValue,
                         registers: inout [RegisterAddress: RegisterValue],
                         resetValues: [RegisterAddress: RegisterValue]) {
        // RSTR resets the registers (and itself: it reads back 0); RSTM resets only the DSP and DAC modules.
        if register == PCM512xRegister.reset && value & PCM512xBits.resetRegisters != 0 { registers = resetValues }
    }
}

/// The simulated PCM5122: a `SimulatedRegisterBus` (8-bit registers and values) with the chip's paged
/// register map and behaviour, and the analog state its registers imply, so tests can say
/// "line: playing at -20.0 dB" instead of comparing bytes.
///
/// Limits of the twin: the chip's automatic clock set-up (DCAS = 0, the reset state) is not modelled (the
/// rate is then unknown), the PLL lock flag stays clear, and the DAC always runs from the master clock
/// (SDAC = 0, which the driver never changes).
public final class PCM512xModel: Sendable {
    public let bus: SimulatedRegisterBus
    public let clockSource: PCM512xClockSource
    /// The frame the Pi's I2S sends (the board's `i2s:`): BCLK is this frame times the stream rate, whatever
    /// the driver assumed. Nil: the frame `clockSource` names.
    public let frame: I2SFrame?

    /// A PCM512x on `bus` at `address` (0x4c or 0x4d, set by its ADR pins), clocked from `clockSource`, on an
    /// I2S link framed as `frame`.
    public init(bus: Int = 1, address: I2CAddress, clockSource: PCM512xClockSource, frame: I2SFrame? = nil) {
        self.bus = SimulatedRegisterBus(bus: bus, address: address, layout: .reg8Value8, registerMap: PCM512xRegister.map,
                                        behavior: PCM512xChipBehavior())
        self.clockSource = clockSource
        self.frame = frame
    }

    private func value(_ register: RegisterAddress) -> RegisterValue { bus.registerValue(register) ?? 0 }

    /// The analog state, for boards with a clock on SCK.
    public var state: PCM512xState { state(streamRate: nil) }

    /// The analog state when the SoC sends I2S at `streamRate` (needed to know BCLK on boards whose PLL
    /// runs from it).
    public func state(streamRate: Int?) -> PCM512xState {
        let power = value(PCM512xRegister.power), mute = value(PCM512xRegister.mute)
        let gain = value(PCM512xRegister.analogGain)
        let i2s = value(PCM512xRegister.i2sFormat)
        let clock = clockTree(streamRate: streamRate)
        return PCM512xState(
            standby: power & PCM512xBits.standby != 0,
            poweredDown: power & PCM512xBits.powerDown != 0,
            softMuted: .init(left: mute & PCM512xBits.muteLeft != 0, right: mute & PCM512xBits.muteRight != 0),
            digitalDB: .init(left: PCM512xVolumeSplit.digitalDB(code: value(PCM512xRegister.leftVolume)),
                             right: PCM512xVolumeSplit.digitalDB(code: value(PCM512xRegister.rightVolume))),
            analogGainDB: .init(left: gain & PCM512xBits.analogGainLeft != 0 ? -6 : 0,
                                right: gain & PCM512xBits.analogGainRight != 0 ? -6 : 0),
            pllEnabled: value(PCM512xRegister.pll) & PCM512xBits.pllEnable != 0,
            pllFromBitClock: value(PCM512xRegister.pllReference) & PCM512xBits.pllReference == PCM512xBits.pllFromBCK,
            manualDividers: value(PCM512xRegister.errorDetect) & PCM512xBits.manualDividers != 0,
            sckHertz: sckHertz,
            sampleRate: clock?.rate,
            clockWithinLimits: clock?.withinLimits ?? false,
            wordLength: [16, 20, 24, 32][Int(i2s & PCM512xBits.wordLength)],
            isI2S: i2s & PCM512xBits.interfaceFormat == 0,
            autoMute: value(PCM512xRegister.autoMute) & 0x03 == 0x03)
    }

    /// The clock on SCK: the board's MCLK, or the one oscillator the GPIOs enable (nil: none, or both).
    public var sckHertz: Int? {
        switch clockSource {
        case .masterClock(let hertz):
            return hertz
        case .bitClock:
            return nil
        case .switchedOscillators:
            let enabled = clockSource.oscillators.filter { oscillator in
                value(PCM512xRegister.gpioEnable) & PCM512xBits.gpio(oscillator.gpio) != 0
                    && value(PCM512xRegister.gpioOutput(oscillator.gpio)) & PCM512xBits.gpioSelect == PCM512xBits.gpioFromRegister
                    && value(PCM512xRegister.gpioControl) & PCM512xBits.gpio(oscillator.gpio) != 0
            }
            return enabled.count == 1 ? enabled[0].hertz : nil
        }
    }

    /// The rate the clock tree makes and whether every clock in it lies inside the datasheet's limits;
    /// nil when the dividers are left to the chip (DCAS = 0) or the reference clock is missing.
    private func clockTree(streamRate: Int?) -> (rate: Double, withinLimits: Bool)? {
        guard value(PCM512xRegister.errorDetect) & PCM512xBits.manualDividers != 0 else { return nil }
        let fromBCK = value(PCM512xRegister.pllReference) & PCM512xBits.pllReference == PCM512xBits.pllFromBCK
        let pllOn = value(PCM512xRegister.pll) & PCM512xBits.pllEnable != 0
        var bitClock: Double?
        if case .bitClock(let bits) = clockSource, let streamRate {
            bitClock = Double((frame?.bitsPerFrame(rate: streamRate) ?? bits) * streamRate)
        }
        let sck = sckHertz.map(Double.init)
        var limits = true
        let master: Double
        if pllOn {
            guard let reference = fromBCK ? bitClock : sck else { return nil }
            let p = Int(value(PCM512xRegister.pllP) & 0x0F) + 1
            let j = Int(value(PCM512xRegister.pllJ) & 0x3F)
            let d = Int(value(PCM512xRegister.pllDHigh) & 0x3F) << 8 | Int(value(PCM512xRegister.pllDLow))
            let r = Int(value(PCM512xRegister.pllR) & 0x0F) + 1
            let input = reference / Double(p)
            master = input * Double(r) * (Double(j) + Double(d) / 10_000)
            let inputRange = d == 0 ? PCM512xClockPlan.pllInputRange : PCM512xClockPlan.pllFractionalInputRange
            limits = limits && Double(inputRange.lowerBound) <= input && input <= Double(inputRange.upperBound)
                && (1...63).contains(j) && d <= 9_999 && (d == 0 || ((4...11).contains(j) && r == 1))
                && Double(PCM512xClockPlan.pllOutputRange.lowerBound) <= master
                && master <= Double(PCM512xClockPlan.pllOutputRange.upperBound)
        } else {
            guard let sck else { return nil }
            master = sck
        }
        let dsp = master / Double(value(PCM512xRegister.dspDivider) & 0x7F + 1)
        let dac = master / Double(value(PCM512xRegister.dacDivider) & 0x7F + 1)
        let osr = dac / Double(value(PCM512xRegister.osrDivider) & 0x7F + 1)
        let ncp = dac / Double(value(PCM512xRegister.ncpDivider) & 0x7F + 1)
        let idac = Int(value(PCM512xRegister.idacHigh)) << 8 | Int(value(PCM512xRegister.idacLow))
        guard idac > 0 else { return nil }
        let rate = dsp / Double(idac)
        let speed = Int(value(PCM512xRegister.speedMode) & PCM512xBits.speedMode)
        limits = limits && dsp <= Double(PCM512xClockPlan.dspMaximum) && dac <= Double(PCM512xClockPlan.dacMaximum)
            && (osr - 16 * rate).magnitude < 1e-6 * osr && ncp <= Double(PCM512xClockPlan.ncpMaximum)
            && idac >= PCM512xClockPlan.minimumDSPClocksPerSample
            && speed == (rate <= 48_000 ? 0 : rate <= 96_000 ? 1 : 2)
        if bitClock != nil, let streamRate {
            // The tree must make the rate the SoC's frames arrive at.
            limits = limits && (rate - Double(streamRate)).magnitude < 1e-6 * rate
        }
        return (rate, limits)
    }
}

/// The PCM512x's analog state as its registers imply it.
public struct PCM512xState: Hashable, Sendable {
    public struct Pair<Value: Hashable & Sendable>: Hashable, Sendable {
        public var left: Value
        public var right: Value
    }

    /// RQST: DAC and line drivers stopped.
    public var standby: Bool
    /// RQPD: charge pump and references off too.
    public var poweredDown: Bool
    /// RQML / RQMR: the digital volume ramped down to mute.
    public var softMuted: Pair<Bool>
    /// Digital volume per channel, nil at the mute code.
    public var digitalDB: Pair<Double?>
    /// Page 1 analog gain per channel: 0 or -6 dB.
    public var analogGainDB: Pair<Double>
    public var pllEnabled: Bool
    public var pllFromBitClock: Bool
    /// DCAS: the driver's dividers, not the chip's automatic set-up.
    public var manualDividers: Bool
    /// The clock on SCK, nil when there is none.
    public var sckHertz: Int?
    /// The sample rate the clock tree makes, nil when unknown (automatic set-up, or no reference clock).
    public var sampleRate: Double?
    /// Every clock of the tree inside the datasheet's limits (PLL, DSP, DAC, OSR = 16 fs, NCP, FSSP).
    public var clockWithinLimits: Bool
    public var wordLength: Int
    public var isI2S: Bool
    /// Zero-data auto-mute enabled on both channels.
    public var autoMute: Bool

    /// The DAC runs and drives the line outputs.
    public var playing: Bool { !standby && !poweredDown }

    /// The level on the line outputs (digital + analog), nil when not playing, muted, or the channels differ.
    public func level(_ output: CodecOutput) -> Double? {
        guard output == .line, playing, !softMuted.left, !softMuted.right,
              let left = digitalDB.left, let right = digitalDB.right else { return nil }
        let l = left + analogGainDB.left, r = right + analogGainDB.right
        return l == r ? l : nil
    }
}

extension PCM512xState: CustomStringConvertible {
    /// `power: on`, `clock: 48000 Hz, PLL from BCLK`, `line: playing at -20.0 dB`.
    public var description: String {
        let power = poweredDown ? "powered down" : standby ? "standby" : "on"
        var clock: String
        if let sampleRate {
            clock = "\(Int(sampleRate.rounded())) Hz, " + (pllEnabled ? (pllFromBitClock ? "PLL from BCLK" : "PLL from SCK") : "SCK")
            if !clockWithinLimits { clock += " (outside the datasheet's limits)" }
        } else {
            clock = manualDividers ? "no reference clock" : "automatic"
        }
        let line: String
        if !playing {
            line = "line: off"
        } else if let level = level(.line) {
            line = "line: playing at \(level) dB"
        } else if softMuted.left || softMuted.right || (digitalDB.left == nil && digitalDB.right == nil) {
            line = "line: muted"
        } else {
            line = "line: playing, channels differ"
        }
        return ["power: \(power)", "clock: \(clock), \(wordLength)-bit " + (isI2S ? "I2S" : "other format"), line]
            .joined(separator: "\n")
    }
}
