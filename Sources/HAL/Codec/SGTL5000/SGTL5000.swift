import Codec8_24

private typealias R = SGTL5000Register
private typealias B = SGTL5000Bits

/// The NXP (Freescale) SGTL5000 stereo codec (Fe-Pi Audio Z V2, Teensy audio boards): 16-bit registers on a
/// readable control port, a headphone amplifier with zero-cross detection, a line output, a DAC volume with
/// its own ramp, mic preamp and ADC volume, and a digital audio processor (DAP) whose graphic EQ or 7-band
/// PEQ can run an `EQPreset` (`apply(preset:)`). Every operation is an ordered `CodecRecipe`; the
/// `...Recipe` functions build them without touching the chip.
///
/// The chip has no reset register: `reset()` reads CHIP_ID (refusing another part), brings VAG down
/// quietly if a previous user left it up, then writes every register the driver uses back to its
/// power-on value, outputs muted first and clocks before the blocks they feed.
public final class SGTL5000: RecipeDrivenCodec {
    public let name = "SGTL5000"
    public let registers: RegisterCache
    public let clock: any MonotonicClock
    /// The master clock on the board (SYS_MCLK pin), in Hz (the Fe-Pi's crystal: 12.288 MHz).
    public let mclk: Int
    public let supplies: SGTL5000Supplies
    /// The microphone bias the board wires (Fe-Pi: 3.0 V through 2 kΩ), applied when an input asks for bias.
    public let micBias: SGTL5000MicBias
    /// The board's volume ceiling in dB (hearing and amplifier safety), at most +12.
    public let maximumVolumeDB: Double
    public let volumeSplit: SGTL5000VolumeSplit

    public internal(set) var powerState: CodecPowerState = .off
    public var transcript: CodecTranscript?
    public internal(set) var format: CodecStreamFormat?
    public internal(set) var clockPlan: SGTL5000ClockPlan?
    public private(set) var output: CodecOutput = .headphones
    /// Which EQ runs the last preset given to `apply(preset:)`, and why.
    public private(set) var activeEQPath: EQPath = .software("no preset applied: the DAP is bypassed")
    /// The plan behind `activeEQPath` (nil before the first preset).
    public private(set) var eqPlan: SGTL5000EQPlan?
    private var eqPreset: EQPreset?
    private var volumes: [CodecOutput: VolumeSetting] = [:]
    /// The selected input as register settings, applied when powered (nil: no input).
    private var input: (lineIn: Bool, micBias: Bool, gain: SGTL5000VolumeSplit.InputGain)?

    /// The documented waits: VAG ramps slowly with SMALL_POP set (the datasheet: about 400 ms to ramp
    /// down; Linux waits 500 ms both ways, which this driver follows).
    public static let vagRampDelay: Duration = .milliseconds(500)
    /// How long a DAC mute or volume change ramps (VOL_RAMP_EN). The datasheet states the ramp's shape
    /// (linear over the top four octaves) and flags it in VOL_BUSY_DAC_*, not its length; 100 ms is a
    /// conservative wait before anything after the mute changes.
    public static let dacRampDelay: Duration = .milliseconds(100)
    /// Headphone amplifier power bits: the amplifier and its capless virtual ground (HP_VGND), as the
    /// datasheet's start-up example powers them.
    static let headphonePower = B.headphonePowerUp | B.caplessHeadphonePowerUp

    public init(bus: any RegisterBus, clock: any MonotonicClock, mclk: Int, supplies: SGTL5000Supplies = .fePi,
                micBias: SGTL5000MicBias = .kernelDefault, maximumVolumeDB: Double = 12) {
        registers = RegisterCache(bus: bus, map: SGTL5000Register.map)
        self.clock = clock
        self.mclk = mclk
        self.supplies = supplies
        self.micBias = micBias
        volumeSplit = SGTL5000VolumeSplit(lineOutNominalCode: supplies.lineOutNominalCode)
        self.maximumVolumeDB = Swift.min(maximumVolumeDB, SGTL5000VolumeSplit.headphoneStage.maximumDB)
        for output in [CodecOutput.headphones, .line] {
            volumes[output] = volumeSplit.split(-.infinity, output: output)
        }
    }

    public var capabilities: CodecCapabilities {
        CodecCapabilities(
            outputs: [.headphones, .line], inputs: [.microphone, .line, .headsetMicrophone],
            outputStages: [.headphones: volumeSplit.stages(for: .headphones), .line: volumeSplit.stages(for: .line)],
            inputStages: [SGTL5000VolumeSplit.micStage, SGTL5000VolumeSplit.adcStage],
            sampleRates: SGTL5000ClockPlan.supportedRates(mclk: mclk, role: format?.role ?? .consumer),
            wordLengths: [16, 20, 24, 32], hardwareEQ: .graphic(bands: 5), jackDetect: .none, micBias: true)
    }

    // MARK: AudioCodec

    /// Identifies the chip by CHIP_ID (part 0xA0 in bits 15:8), then puts the registers the driver uses
    /// back to their power-on values (see `resetRecipe(vagWasOn:)`).
    @discardableResult
    public func reset() throws(CodecError) -> CodecIdentity {
        let id = try readChip(R.chipID, reason: "reading CHIP_ID")
        guard id >> 8 == R.partID else {
            throw .notIdentified(codec: name, evidence: "CHIP_ID at \(registers.bus.target) reads 0x"
                                    + String(id, radix: 16, uppercase: true) + ", not part 0xA0 in bits 15:8",
                                 hint: "Check the board file's codec and I2C address")
        }
        let power = try readChip(R.analogPower, reason: "reading CHIP_ANA_POWER")
        try run(resetRecipe(vagWasOn: power & B.vagPowerUp != 0, analogPower: power))
        forgetChipState()
        eqPlan = nil
        eqPreset = nil
        activeEQPath = .software("no preset applied: the DAP is bypassed")
        return CodecIdentity(name: name, chipID: id,
                             evidence: "CHIP_ID part 0xA0, revision 0x" + String(id & 0xFF, radix: 16, uppercase: true)
                                + " at \(registers.bus.target)")
    }

    public func configure(_ format: CodecStreamFormat) throws(CodecError) {
        try configureClocks(format)
        // The PEQ's coefficients belong to a sample rate: plan the preset again for the new one.
        if let eqPreset { try apply(preset: eqPreset) }
    }

    public func select(output: CodecOutput) throws(CodecError) {
        guard output != .speaker else {
            throw .unsupportedOutput(codec: name, output, hint: "the SGTL5000 has no speaker amplifier; drive an "
                                     + "amplifier from the line output (select line)")
        }
        guard output != self.output else { return }
        if powerState == .on {
            var steps = outputOffSteps(self.output)
            steps += outputOnSteps(output)
            steps.append(unmuteStep(output))
            try run(CodecRecipe("SGTL5000 output \(self.output) -> \(output)", steps))
        }
        self.output = output
    }

    /// Microphone and headset microphone both use MIC_IN (the chip has one; the Fe-Pi wires it to its
    /// headset jack's ring), with the preamp and ADC volume; line uses LINEIN and the ADC volume only.
    /// Mic bias, when on, is the board's `micBias` (the kernel's default 1.25 V through 4 kΩ unless set).
    @discardableResult
    public func select(input: CodecInput, micBias: Bool, pgaGainDB: Double) throws(CodecError) -> Double {
        guard !pgaGainDB.isNaN else { throw .invalidGain(pgaGainDB) }
        let lineIn = input == .line
        let gain = SGTL5000VolumeSplit.inputGain(pgaGainDB, microphone: !lineIn)
        self.input = (lineIn, micBias, gain)
        if powerState == .on {
            try run(CodecRecipe("SGTL5000 input \(input)", inputSteps()))
        }
        return lineIn ? gain.adcDB : gain.totalDB
    }

    @discardableResult
    public func setVolume(_ dB: Double, output: CodecOutput) throws(CodecError) -> VolumeSetting {
        guard !dB.isNaN else { throw .invalidGain(dB) }
        guard output != .speaker else {
            throw .unsupportedOutput(codec: name, output, hint: "set the line output's volume instead")
        }
        let setting = volumeSplit.split(Swift.min(dB, maximumVolumeDB), output: output)
        volumes[output] = setting
        // Only the selected output's registers are written (the DAC volume is shared); others apply on selection.
        if powerState == .on && output == self.output {
            try run(CodecRecipe("SGTL5000 \(output) volume \(setting.levelDB) dB", volumeSteps(setting)))
        }
        return setting
    }

    public func volume(of output: CodecOutput) -> VolumeSetting {
        volumes[output] ?? volumeSplit.split(-.infinity, output: output)
    }

    /// Puts `preset` on the DAP when it fits (see `SGTL5000Equalizer`) and bypasses the DAP when it does not;
    /// returns which path runs it. With the software path the caller runs the preset in its 8.24 EQ; with the
    /// hardware path the 8.24 EQ should stay flat. On a powered chip the DAC is muted around the change.
    @discardableResult
    public func apply(preset: EQPreset) throws(CodecError) -> EQPath {
        let plan = SGTL5000Equalizer.plan(preset, sampleRate: Double(format?.sampleRate ?? 48_000))
        try run(eqRecipe(plan))
        eqPlan = plan
        eqPreset = preset
        activeEQPath = plan.path
        return plan.path
    }

    // MARK: Recipes

    /// The registers `reset()` writes back, in this order, with why each comes where it does. Values are
    /// the register map's power-on values.
    static let resetOrder: [(RegisterAddress, String)] = [
        (R.analogControl, "outputs and ADC muted first: nothing that follows reaches the jacks"),
        (R.adcDACControl, "DAC muted, volume ramp on"),
        (R.clockControl, "clock from MCLK (256 Fs, 48 kHz) before the PLL can power down under it"),
        (R.analogPower, "analog blocks off: PLL, VAG, outputs, converters; startup supplies and REFTOP as at power-on"),
        (R.digitalPower, "digital blocks off: I2S, DAP, DAC, ADC"),
        (R.pllControl, "PLL divisors to power-on value"),
        (R.clockTopControl, "PLL input undivided, internal oscillator off"),
        (R.i2sControl, "I2S: 24-bit, 64 Fs, codec consumer"),
        (R.sourceSelect, "DAC fed from I2S in, DAP from the ADC, I2S out from the ADC"),
        (R.dacVolume, "DAC 0 dB"),
        (R.adcAnalogVolume, "ADC volume 0 dB"),
        (R.headphoneVolume, "headphone amplifier 0 dB"),
        (R.regulatorControl, "VDDD regulator and charge-pump assignment to power-on value"),
        (R.referenceControl, "references to power-on value (VAG 0.8 V, fast ramp)"),
        (R.micControl, "mic bias off, preamp 0 dB"),
        (R.lineOutControl, "line-out reference and bias to power-on value"),
        (R.lineOutVolume, "line-out level to power-on value"),
        (R.shortControl, "headphone short detect off"),
        (R.dapControl, "DAP off"),
        (R.dapPEQ, "no PEQ filters"),
        (R.dapAudioEQ, "DAP EQ off"),
        (R.eqBands[0], "graphic EQ 115 Hz band 0 dB"),
        (R.eqBands[1], "graphic EQ 330 Hz band 0 dB"),
        (R.eqBands[2], "graphic EQ 990 Hz band 0 dB"),
        (R.eqBands[3], "graphic EQ 3 kHz band 0 dB"),
        (R.eqBands[4], "graphic EQ 9.9 kHz band 0 dB"),
        (R.dapMainChannel, "DAP main channel 100 %"),
    ]

    /// The writes that stand in for the missing reset: when VAG was left on, it ramps down first with the
    /// outputs muted (cutting it along with everything else pops).
    public func resetRecipe(vagWasOn: Bool, analogPower: RegisterValue = 0x7060) -> CodecRecipe {
        var steps: [CodecStep] = []
        for (index, (register, reason)) in Self.resetOrder.enumerated() {
            steps.append(.write(register, R.map[register]?.reset ?? 0, reason: reason))
            if index == 1 && vagWasOn {
                steps += [
                    .write(R.analogPower, analogPower & ~B.vagPowerUp,
                           reason: "VAG off alone, outputs still powered and muted: they follow it down"),
                    .delay(Self.vagRampDelay, reason: "VAG ramp down"),
                ]
            }
        }
        return CodecRecipe("SGTL5000 reset", steps)
    }

    /// The PLL or MCLK ratio that makes `format`'s rate, as clock consumer or provider.
    func plan(for format: CodecStreamFormat) throws(CodecError) -> SGTL5000ClockPlan {
        try SGTL5000ClockPlan.plan(mclk: mclk, rate: format.sampleRate, role: format.role)
    }

    /// Clocks, word length and framing; wrapped in a DAC mute when the outputs are live.
    func configureRecipe(_ format: CodecStreamFormat, plan: SGTL5000ClockPlan) throws(CodecError) -> CodecRecipe {
        let lengths: [Int: RegisterValue] = [32: 0, 24: 1, 20: 2, 16: 3]
        let allowed = format.format == .rightJustified ? [20, 24] : [16, 20, 24, 32]
        guard allowed.contains(format.wordLength), let lengthCode = lengths[format.wordLength] else {
            throw .unsupportedWordLength(codec: name, bits: format.wordLength, supported: allowed)
        }
        let live = powerState == .on
        var steps: [CodecStep] = live ? muteDACSteps() : []
        let pllBits = B.pllPowerUp | B.vcoAmpPowerUp
        if let pll = plan.pll, let divisors = plan.pllControlValue {
            steps += [
                .update(R.clockTopControl, mask: B.inputFrequencyDiv2, value: pll.halvedInput ? B.inputFrequencyDiv2 : 0,
                        reason: pll.halvedInput ? "PLL input MCLK / 2 (MCLK above 17 MHz)" : "PLL input MCLK undivided"),
                .update(R.pllControl, mask: 0xFFFF, value: divisors,
                        reason: "PLL \(pll.integer) + \(pll.fraction)/2048: \(CodecError.megahertz(pll.output))\(pll.errorText)"),
                .update(R.analogPower, mask: pllBits, value: pllBits,
                        reason: "PLL and VCO amplifier on, before CLK_CTRL selects the PLL (datasheet order)"),
                .update(R.clockControl, mask: B.rateMode | B.sysFS | B.mclkFrequency, value: plan.clockControlValue,
                        reason: "SYS_FS \(plan.systemRate) Hz / \(plan.rateDivider) from the PLL"),
            ]
        } else {
            steps += [
                .update(R.clockControl, mask: B.rateMode | B.sysFS | B.mclkFrequency, value: plan.clockControlValue,
                        reason: "SYS_FS \(plan.systemRate) Hz / \(plan.rateDivider), MCLK = \(plan.mclkRatio ?? 256) Fs"),
                .update(R.analogPower, mask: pllBits, value: 0,
                        reason: "PLL not needed: off, after CLK_CTRL left it"),
            ]
        }
        let mode: RegisterValue = switch format.format {
        case .i2s: 0
        case .leftJustified: B.lrAlign
        case .rightJustified: 1 << 2
        }
        // SCLKFREQ (datasheet CHIP_I2S_CTRL): the BCLK rate the codec makes as provider, or must be told as
        // consumer: 64 or 32 Fs. The board's I2S frame decides it, not the word length (the Pi's overlay pins
        // two 32-bit slots, so a 16-bit stream still runs 64 bit clocks a frame).
        if let problem = format.frame.problem(rate: format.sampleRate, wordLength: format.wordLength) {
            throw .frameMismatch(codec: name, frame: format.frame, reason: problem)
        }
        let bits = format.frame.bitsPerFrame(rate: format.sampleRate)
        guard bits == 64 || bits == 32 else {
            throw .frameMismatch(codec: name, frame: format.frame, reason: "its I2S port runs 64 or 32 bit clocks a frame")
        }
        let sclk: RegisterValue = bits == 32 ? B.sclk32fs : 0
        let provider: RegisterValue = format.role == .provider ? B.clockProvider : 0
        steps.append(.update(R.i2sControl, mask: 0x01FF, value: sclk | provider | lengthCode << 4 | mode,
                             reason: "\(format.wordLength)-bit \(format.format.rawValue), \(sclk != 0 ? 32 : 64) Fs BCLK, "
                                + "codec \(format.role.rawValue)"))
        if live { steps.append(unmuteDACStep()) }
        return CodecRecipe("SGTL5000 configure \(format)", steps)
    }

    /// Off to playing on the selected output, the datasheet's start-up order: supplies, references, short
    /// detect, zero-cross, digital blocks, volumes, converters and outputs (muted), then VAG ramping slowly,
    /// then unmute.
    public func powerUpRecipe() -> CodecRecipe {
        let internalVDDD = !supplies.externalVDDD
        var steps: [CodecStep] = [
            .update(R.analogControl, mask: B.headphoneMute | B.lineOutMute | B.adcMute,
                    value: B.headphoneMute | B.lineOutMute | B.adcMute,
                    reason: "headphones, line out and ADC muted while the analog side powers up"),
            .update(R.adcDACControl, mask: B.dacMute | B.volumeRamp | B.volumeExponentialRamp, value: B.dacMute | B.volumeRamp,
                    reason: "DAC muted; volume ramp on (linear): unmute and volume changes glide"),
            .update(R.regulatorControl, mask: B.vdddLevel | B.chargePumpOverride | B.chargePumpFromVDDIO,
                    value: supplies.regulatorControl,
                    reason: (internalVDDD ? "VDDD regulator 1.2 V" : "VDDD external")
                        + (supplies.bothRailsHigh ? "; charge pump from VDDIO (VDDA and VDDIO above 3.1 V)" : "")),
            .update(R.analogPower, mask: B.linregDPowerUp | B.startupPowerUp | B.linregSimplePowerUp,
                    value: internalVDDD ? B.linregDPowerUp | B.startupPowerUp | B.linregSimplePowerUp : 0,
                    reason: internalVDDD ? "VDDD regulator on (start-up supplies kept, as Linux does)"
                        : "start-up supplies off: VDDD comes from the board"),
        ]
        if supplies.needsChargePump {
            steps += [
                .update(R.clockTopControl, mask: B.internalOscillator, value: B.internalOscillator,
                        reason: "internal oscillator on: it clocks the charge pump"),
                .update(R.analogPower, mask: B.chargePumpPowerUp, value: B.chargePumpPowerUp,
                        reason: "charge pump on: VDDA and VDDIO below 3.1 V"),
            ]
        }
        let vag = RegisterValue(supplies.vagCode)
        steps += [
            .update(R.referenceControl, mask: B.vagLevel | B.biasControl | B.smallPop,
                    value: vag << 4 | 0b111 << 1 | B.smallPop,
                    reason: "VAG \(SGTL5000Equalizer.rounded(0.8 + 0.025 * Double(vag))) V (VDDA/2, at most 1.575 V); "
                        + "bias current -50 %; SMALL_POP: VAG ramps slowly"),
            .update(R.lineOutControl, mask: 0x0F3F, value: 0x3 << 8 | RegisterValue(supplies.lineOutVAGCode),
                    reason: "line-out reference VDDIO/2, bias 0.36 mA (10 kΩ, 1 nF load)"),
            .update(R.shortControl, mask: 0x7777, value: 0x1106,
                    reason: "headphone short detect on for L/R and centre, 75 mA trip (datasheet's setting)"),
            .update(R.analogControl, mask: B.headphoneZeroCross | B.adcZeroCross, value: B.headphoneZeroCross | B.adcZeroCross,
                    reason: "zero-cross detect: headphone and ADC volume change at zero crossings"),
        ]
        if clockPlan?.pll != nil {
            steps.append(.update(R.analogPower, mask: B.pllPowerUp | B.vcoAmpPowerUp, value: B.pllPowerUp | B.vcoAmpPowerUp,
                                 reason: "PLL back on: clocks before analog power"))
        }
        let dap = eqPlan?.setting != nil
        steps.append(.update(R.digitalPower, mask: B.i2sInPowerUp | B.dacPowerUp | B.dapPowerUp,
                             value: B.i2sInPowerUp | B.dacPowerUp | (dap ? B.dapPowerUp : 0),
                             reason: "I2S in and digital DAC on" + (dap ? ", DAP on for the hardware EQ" : "")))
        steps += volumeSteps(volume(of: output))
        steps.append(.update(R.analogPower, mask: B.dacAnalogPowerUp | outputPower(output),
                             value: B.dacAnalogPowerUp | outputPower(output),
                             reason: "DAC and \(output) \(output == .line ? "driver" : "amplifier") on, still muted"))
        steps += [
            .update(R.analogPower, mask: B.vagPowerUp, value: B.vagPowerUp,
                    reason: "VAG on last, every output muted: it ramps slowly to mid-supply"),
            .delay(Self.vagRampDelay, reason: "VAG ramp up"),
        ]
        if input != nil { steps += inputSteps() }
        steps += [unmuteStep(output), unmuteDACStep()]
        return CodecRecipe("SGTL5000 power-up (\(output))", steps)
    }

    /// Playing to off: mute, VAG down while the outputs are still powered, then the blocks, the PLL last.
    public func powerDownRecipe() -> CodecRecipe {
        var steps = muteDACSteps()
        steps += [
            .update(R.analogControl, mask: B.headphoneMute | B.lineOutMute | B.adcMute,
                    value: B.headphoneMute | B.lineOutMute | B.adcMute, reason: "headphones, line out and ADC muted"),
            .update(R.analogPower, mask: B.vagPowerUp, value: 0,
                    reason: "VAG off first, outputs still powered: they follow it down slowly (SMALL_POP)"),
            .delay(Self.vagRampDelay, reason: "VAG ramp down"),
            .update(R.analogPower, mask: Self.headphonePower | B.lineOutPowerUp | B.dacAnalogPowerUp | B.adcAnalogPowerUp,
                    value: 0, reason: "outputs, DAC and ADC off"),
            .update(R.digitalPower, mask: 0x0073, value: 0, reason: "digital blocks off: I2S, DAP, DAC, ADC"),
            .update(R.analogPower, mask: B.pllPowerUp | B.vcoAmpPowerUp, value: 0,
                    reason: "PLL off last: the clock outlives the analog side"),
        ]
        return CodecRecipe("SGTL5000 power-down", steps)
    }

    /// Playing to a quiet hold: outputs and DAC off, VAG kept up (charged) so wake needs no ramp.
    public func standbyRecipe() -> CodecRecipe {
        var steps = muteDACSteps()
        steps += outputOffSteps(output)
        steps += [
            .update(R.analogPower, mask: B.dacAnalogPowerUp | B.adcAnalogPowerUp, value: 0, reason: "DAC and ADC off; VAG stays up"),
            .update(R.digitalPower, mask: B.dacPowerUp | B.adcPowerUp | B.i2sOutPowerUp, value: 0,
                    reason: "digital DAC, ADC and I2S out off"),
        ]
        return CodecRecipe("SGTL5000 standby", steps)
    }

    public func wakeRecipe() -> CodecRecipe {
        var steps: [CodecStep] = [
            .update(R.digitalPower, mask: B.dacPowerUp, value: B.dacPowerUp, reason: "digital DAC on"),
            .update(R.analogPower, mask: B.dacAnalogPowerUp, value: B.dacAnalogPowerUp,
                    reason: "DAC on (VAG already up: no ramp to wait for)"),
        ]
        steps += outputOnSteps(output)
        if input != nil { steps += inputSteps() }
        steps += [unmuteStep(output), unmuteDACStep()]
        return CodecRecipe("SGTL5000 wake", steps)
    }

    /// The DAP writes for `plan`: routing I2S in through the DAP and its EQ setting for the hardware path,
    /// the DAP bypassed for the software path. Wrapped in a DAC mute when the outputs are live.
    public func eqRecipe(_ plan: SGTL5000EQPlan) -> CodecRecipe {
        var steps: [CodecStep] = []
        let routing = B.dapSelect | B.dacSelect
        if let setting = plan.setting {
            steps += [
                .update(R.digitalPower, mask: B.dapPowerUp, value: B.dapPowerUp, reason: "DAP powered"),
                .update(R.dapControl, mask: B.dapEnable, value: B.dapEnable, reason: "DAP enabled"),
                .update(R.sourceSelect, mask: routing, value: 1 << 6 | 3 << 4, reason: "I2S in -> DAP -> DAC"),
            ]
            switch setting {
            case .graphic(let codes, let main):
                steps.append(.update(R.dapAudioEQ, mask: B.eqMode, value: 3, reason: "DAP EQ: 5-band graphic"))
                for (index, code) in codes.enumerated() {
                    let centre = SGTL5000Equalizer.graphicCentres[index]
                    steps.append(.update(R.eqBands[index], mask: 0x7F, value: code,
                                         reason: "\(Int(centre)) Hz band \(SGTL5000Equalizer.graphicDB(code: code)) dB"))
                }
                steps.append(mainChannelStep(main))
            case .parametric(let filters, let main):
                steps.append(.update(R.dapAudioEQ, mask: B.eqMode, value: 1, reason: "DAP EQ: PEQ"))
                let names = ["b0", "b1", "b2", "a1", "a2"]
                for (index, filter) in filters.enumerated() {
                    for (k, port) in R.coefficientPorts.enumerated() {
                        let (msb, lsb) = filter.registerValues(k)
                        steps += [
                            .write(port.msb, msb, reason: "filter \(index) \(names[k]) bits 19:4"),
                            .write(port.lsb, lsb, reason: "filter \(index) \(names[k]) bits 3:0"),
                        ]
                    }
                    steps.append(.write(R.dapCoefficientAccess, B.coefficientWrite | RegisterValue(index),
                                        reason: "latch the five coefficients into filter \(index)"))
                }
                steps.append(.update(R.dapPEQ, mask: 0x7, value: RegisterValue(filters.count),
                                     reason: "\(filters.count) PEQ filters run"))
                steps.append(mainChannelStep(main))
            }
        } else {
            steps += [
                .update(R.sourceSelect, mask: routing, value: 1 << 4, reason: "I2S in -> DAC, DAP bypassed"),
                .update(R.dapAudioEQ, mask: B.eqMode, value: 0, reason: "DAP EQ off"),
                .update(R.dapControl, mask: B.dapEnable, value: 0, reason: "DAP disabled"),
                .update(R.digitalPower, mask: B.dapPowerUp, value: 0, reason: "DAP unpowered"),
            ]
        }
        if powerState == .on { steps = muteDACSteps() + steps + [unmuteDACStep()] }
        return CodecRecipe("SGTL5000 EQ (\(plan.path))", steps)
    }

    // MARK: Pieces

    /// Reads `register` straight from the chip; no answer means no SGTL5000 there.
    private func readChip(_ register: RegisterAddress, reason: String) throws(CodecError) -> RegisterValue {
        do {
            let bus = registers.bus
            let reply = try bus.perform(.read(reg: register))
            transcript?.append(driverTransfer: reply.exchanges, in: "SGTL5000 reset", reason: reason)
            return bus.layout.value(fromReadBytes: reply.bytes)
        } catch {
            throw .notIdentified(codec: name, evidence: "\(reason) at \(registers.bus.target) failed: \(error)",
                                 hint: "Check the board file's I2C bus and address, and that the HAT is seated")
        }
    }

    private func mainChannelStep(_ main: RegisterValue) -> CodecStep {
        .update(R.dapMainChannel, mask: 0xFFFF, value: main,
                reason: "DAP main channel \(SGTL5000Equalizer.rounded(SGTL5000Equalizer.mainChannelDB(code: main))) dB: "
                    + "the design's pre-cut, ahead of the EQ")
    }

    private func muteDACSteps() -> [CodecStep] {
        [
            .update(R.adcDACControl, mask: B.dacMute, value: B.dacMute, reason: "DAC mute: ramps down (VOL_RAMP_EN)"),
            .delay(Self.dacRampDelay, reason: "DAC volume ramp"),
        ]
    }

    private func unmuteDACStep() -> CodecStep {
        .update(R.adcDACControl, mask: B.dacMute, value: 0, reason: "DAC unmute: ramps up to the set volume")
    }

    private func outputPower(_ output: CodecOutput) -> RegisterValue {
        output == .line ? B.lineOutPowerUp : Self.headphonePower
    }

    private func outputMute(_ output: CodecOutput) -> RegisterValue {
        output == .line ? B.lineOutMute : B.headphoneMute
    }

    private func unmuteStep(_ output: CodecOutput) -> CodecStep {
        .update(R.analogControl, mask: outputMute(output), value: 0,
                reason: output == .line ? "line out unmuted" : "headphones unmuted (at a zero crossing)")
    }

    /// Sets `output`'s stored volume, then powers it on (still muted).
    private func outputOnSteps(_ output: CodecOutput) -> [CodecStep] {
        volumeSteps(volume(of: output)) + [
            .update(R.analogPower, mask: outputPower(output), value: outputPower(output),
                    reason: "\(output) \(output == .line ? "driver" : "amplifier") on, muted"),
        ]
    }

    /// Mutes `output`, then powers it off.
    private func outputOffSteps(_ output: CodecOutput) -> [CodecStep] {
        [
            .update(R.analogControl, mask: outputMute(output), value: outputMute(output), reason: "\(output) muted"),
            .update(R.analogPower, mask: outputPower(output), value: 0, reason: "\(output) off"),
        ]
    }

    /// The writes that put `setting` on the chip: the output stage (both channels in one word), then the
    /// DAC volume (both channels, ramped). Each goes out only when it changes.
    private func volumeSteps(_ setting: VolumeSetting) -> [CodecStep] {
        let (analog, dac) = volumeSplit.codes(setting)
        let analogText = setting.isMuted ? "at its bottom" : "\(setting.stageDB[0]) dB"
        let dacText = setting.isMuted ? "muted" : "\(setting.stageDB[1]) dB"
        let outputStep: CodecStep = setting.output == .line
            ? .update(R.lineOutVolume, mask: 0x1F1F, value: analog << 8 | analog,
                      reason: "line out \(analogText), both channels")
            : .update(R.headphoneVolume, mask: 0x7F7F, value: analog << 8 | analog,
                      reason: "headphones \(analogText), both channels, at a zero crossing")
        return [
            outputStep,
            .update(R.dacVolume, mask: 0xFFFF, value: dac << 8 | dac, reason: "DAC \(dacText), both channels, ramped"),
        ]
    }

    /// Routes the selected input to the ADC with its gain, powers the ADC, and unmutes it.
    private func inputSteps() -> [CodecStep] {
        guard let input else { return [] }
        let gain = input.gain
        let adcWord = (gain.adcMinus6dB ? B.adcMinus6dB : 0) | gain.adcCode << 4 | gain.adcCode
        return [
            .update(R.analogControl, mask: B.adcMute, value: B.adcMute, reason: "ADC muted while its input changes"),
            .update(R.analogControl, mask: B.adcFromLineIn, value: input.lineIn ? B.adcFromLineIn : 0,
                    reason: input.lineIn ? "ADC from LINEIN" : "ADC from MIC_IN"),
            .update(R.micControl, mask: B.micBiasResistor | B.micBiasVoltage | B.micGain,
                    value: (input.micBias ? micBias.micControlBits : 0) | (input.lineIn ? 0 : gain.micGainCode),
                    reason: "mic bias \(input.micBias ? "on, \(micBias)" : "off"), preamp "
                        + "\(input.lineIn ? 0 : gain.micDB) dB"),
            .update(R.adcAnalogVolume, mask: 0x01FF, value: adcWord, reason: "ADC volume \(gain.adcDB) dB, both channels"),
            .update(R.analogPower, mask: B.adcAnalogPowerUp, value: B.adcAnalogPowerUp, reason: "ADC on"),
            .update(R.digitalPower, mask: B.adcPowerUp | B.i2sOutPowerUp, value: B.adcPowerUp | B.i2sOutPowerUp,
                    reason: "digital ADC and I2S out on"),
            .update(R.analogControl, mask: B.adcMute, value: 0, reason: "ADC unmuted (at a zero crossing)"),
        ]
    }
}
