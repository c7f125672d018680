/// The Wolfson/Cirrus WM8731 stereo codec (Audio Injector Stereo, MikroElektronika Audio Codec PROTO
/// and similar Pi boards): a write-only 7+9 control port, so every read-modify-write goes through a
/// `RegisterCache`. It has no PLL (rates come from a table of MCLK ratios, see `WM8731ClockPlan`), no DAC
/// digital volume (the 8.24 stage takes the fine part, see `WM8731VolumeSplit`) and one power bit for
/// both the headphone and the line outputs. Every operation is an ordered `CodecRecipe`; the `...Recipe`
/// functions build them without touching the chip.
///
/// The "both channels" bits (LRHPBOTH, LRINBOTH) are never used: each channel gets its own write, so the
/// cache (and the simulated chip) always hold what the chip holds.
public final class WM8731: RecipeDrivenCodec {
    public let name = "WM8731"
    public let registers: RegisterCache
    public let clock: any MonotonicClock
    /// The master clock on the board (MCLK pin, or the crystal on XTI/XTO), in Hz.
    public let mclk: Int
    /// Whether `mclk` is a bare crystal on XTI/XTO (Audio Injector: 12 MHz) rather than a clock driven into
    /// MCLK: the on-chip oscillator (R6 OSCPD) must then stay powered, or there is no clock at all.
    public let crystal: Bool
    /// The board's volume ceiling in dB (hearing and amplifier safety), at most +6.
    public let maximumVolumeDB: Double

    public internal(set) var powerState: CodecPowerState = .off
    public var transcript: CodecTranscript?
    public internal(set) var format: CodecStreamFormat?
    public internal(set) var clockPlan: WM8731ClockPlan?
    private var headphones: VolumeSetting
    /// The selected input as its register values, applied when powered (nil: no input).
    private var input: (microphone: Bool, boost: Bool, lineCode: RegisterValue)?

    /// The datasheet gives no soft-mute ramp time; this is a margin for the DAC soft mute to finish before
    /// the interface stops or the outputs switch off (not a datasheet figure).
    public static let softMuteDelay: Duration = .milliseconds(20)

    public init(bus: any RegisterBus, clock: any MonotonicClock, mclk: Int, crystal: Bool = false,
                maximumVolumeDB: Double = 6) {
        registers = RegisterCache(bus: bus, map: WM8731Register.map)
        self.clock = clock
        self.mclk = mclk
        self.crystal = crystal
        self.maximumVolumeDB = Swift.min(maximumVolumeDB, WM8731VolumeSplit.headphoneStage.maximumDB)
        headphones = WM8731VolumeSplit.split(WM8731VolumeSplit.minimumDB - 1, output: .headphones)
    }

    public var capabilities: CodecCapabilities {
        CodecCapabilities(
            outputs: [.headphones], inputs: [.microphone, .line],
            outputStages: [.headphones: [WM8731VolumeSplit.headphoneStage]],
            inputStages: [WM8731VolumeSplit.lineInputStage, WM8731VolumeSplit.micStage],
            sampleRates: WM8731ClockPlan.supportedRates(mclk: mclk, role: crystal ? .provider : .consumer), wordLengths: [16, 20, 24, 32],
            hardwareEQ: .none, jackDetect: .none, micBias: true)
    }

    // MARK: AudioCodec

    @discardableResult
    public func reset() throws(CodecError) -> CodecIdentity {
        try run(resetRecipe)
        forgetChipState()
        return CodecIdentity(name: name, chipID: nil,
                             evidence: "no ID register; acknowledged the reset write at \(registers.bus.target)")
    }

    public func select(output: CodecOutput) throws(CodecError) {
        guard output == .headphones else {
            throw .unsupportedOutput(codec: name, output, hint: "the WM8731 drives its headphone and line outputs "
                                     + "together (one power bit); select headphones, the line outputs follow at 0 dB")
        }
    }

    @discardableResult
    public func select(input: CodecInput, micBias: Bool, pgaGainDB: Double) throws(CodecError) -> Double {
        guard !pgaGainDB.isNaN else { throw .invalidGain(pgaGainDB) }
        let chosen: (microphone: Bool, boost: Bool, lineCode: RegisterValue)
        let gain: Double
        switch input {
        case .microphone:
            let boost = pgaGainDB >= 10
            chosen = (true, boost, WM8731VolumeSplit.lineInputCode(0))
            gain = boost ? 20 : 0
        case .line:
            let code = WM8731VolumeSplit.lineInputCode(pgaGainDB)
            chosen = (false, false, code)
            gain = WM8731VolumeSplit.lineInputDB(code: code)
        case .headsetMicrophone:
            throw .unsupportedInput(codec: name, input, hint: "the WM8731 has one mic input (MICIN) and a line "
                                    + "input; use microphone or line")
        }
        if powerState == .on {
            try run(CodecRecipe("WM8731 input \(input)", inputSteps(chosen)))
        }
        self.input = chosen
        return gain
    }

    @discardableResult
    public func setVolume(_ dB: Double, output: CodecOutput) throws(CodecError) -> VolumeSetting {
        guard !dB.isNaN else { throw .invalidGain(dB) }
        guard output == .headphones else {
            throw .unsupportedOutput(codec: name, output, hint: "the line outputs are fixed at 0 dB; set the "
                                     + "headphone volume (and the 8.24 gain) instead")
        }
        let setting = WM8731VolumeSplit.split(Swift.min(dB, maximumVolumeDB), output: output)
        // Only powered outputs are written; otherwise the level applies at power-up.
        if powerState == .on {
            try run(CodecRecipe("WM8731 headphones volume \(setting.levelDB) dB", volumeSteps(setting)))
        }
        headphones = setting
        return setting
    }

    public func volume(of output: CodecOutput) -> VolumeSetting {
        output == .headphones ? headphones : WM8731VolumeSplit.split(WM8731VolumeSplit.minimumDB - 1, output: output)
    }

    // MARK: Recipes

    public var resetRecipe: CodecRecipe {
        CodecRecipe("WM8731 reset", [
            .write(WM8731Register.reset, 0x000, reason: "soft reset: every register back to its default (powered down, DAC muted)"),
        ])
    }

    /// Word length, framing and the sampling-control row. The datasheet allows R7/R8 changes only while
    /// the interface is inactive, so a live codec is soft-muted and deactivated around them.
    /// The rate's row, checked against the board's I2S frame: as provider in USB mode the WM8731 makes BCLK
    /// at 12 MHz, so the Pi must frame `divisor` bit clocks (the machine driver's bclk_ratio), and bcm2835-i2s
    /// can frame at most 1024 (8 kHz would need 1500).
    func plan(for format: CodecStreamFormat) throws(CodecError) -> WM8731ClockPlan {
        let plan = try WM8731ClockPlan.plan(mclk: mclk, rate: format.sampleRate, role: format.role)
        if let problem = format.frame.problem(rate: format.sampleRate, wordLength: format.wordLength) {
            throw .frameMismatch(codec: name, frame: format.frame, reason: problem)
        }
        if format.role == .provider, let bits = plan.providerBitsPerFrame,
           bits != format.frame.bitsPerFrame(rate: format.sampleRate) {
            throw .frameMismatch(codec: name, frame: format.frame, reason: "in USB mode its BCLK is the "
                + "\(CodecError.megahertz(plan.mclk)) clock, \(bits) bit clocks a frame at \(format.sampleRate) Hz")
        }
        return plan
    }

    /// The recipe for `format` with its clock plan already made.
    func configureRecipe(_ format: CodecStreamFormat, plan: WM8731ClockPlan) throws(CodecError) -> CodecRecipe {
        let wordCodes: [Int: RegisterValue] = [16: 0, 20: 1, 24: 2, 32: 3]
        guard let wordCode = wordCodes[format.wordLength] else {
            throw .unsupportedWordLength(codec: name, bits: format.wordLength, supported: [16, 20, 24, 32])
        }
        let formatCode: RegisterValue = switch format.format {
        case .i2s: 0b10
        case .leftJustified: 0b01
        case .rightJustified: 0b00
        }
        let live = powerState == .on
        var steps: [CodecStep] = []
        if live {
            steps += muteDACSteps()
            steps.append(.update(WM8731Register.active, mask: WM8731Bits.activate, value: 0,
                                 reason: "interface inactive: R7/R8 may change only while ACTIVE is 0"))
        }
        let provider = format.role == .provider
        steps += [
            .update(WM8731Register.interfaceFormat,
                    mask: WM8731Bits.clockProvider | WM8731Bits.wordLength | WM8731Bits.format,
                    value: (provider ? WM8731Bits.clockProvider : 0) | wordCode << 2 | formatCode,
                    reason: "\(format.wordLength)-bit \(format.format.rawValue), codec \(format.role.rawValue) of BCLK/LRCLK"),
            .update(WM8731Register.sampling, mask: 0x0FF, value: plan.samplingControl,
                    reason: "sampling control: \(plan)"),
        ]
        if live {
            steps += [
                .update(WM8731Register.active, mask: WM8731Bits.activate, value: WM8731Bits.activate,
                        reason: "interface active again on the new clock"),
                .update(WM8731Register.digitalPath, mask: WM8731Bits.dacMute, value: 0,
                        reason: "DAC soft unmute on the new clock"),
            ]
        }
        return CodecRecipe("WM8731 configure \(format)", steps)
    }

    /// Off to playing, the datasheet's pop-free order: references on with everything else down, the DAC
    /// path set up soft-muted, the interface active, the outputs powered last, then unmute.
    public func powerUpRecipe() -> CodecRecipe {
        var steps: [CodecStep] = [
            .update(WM8731Register.digitalPath, mask: WM8731Bits.dacMute, value: WM8731Bits.dacMute,
                    reason: "DAC soft-muted while the analog side powers up"),
            .update(WM8731Register.powerDown, mask: WM8731Bits.powerOff | WM8731Bits.clockOutDown | WM8731Bits.oscillatorDown,
                    value: WM8731Bits.clockOutDown | (crystal ? 0 : WM8731Bits.oscillatorDown),
                    reason: "chip on: references and VMID first; CLKOUT off; "
                        + (crystal ? "crystal oscillator on (the crystal on XTI/XTO is the only clock)"
                                   : "crystal oscillator off (MCLK is driven in)")
                        + "; converters and outputs still down"),
            .update(WM8731Register.analogPath,
                    mask: WM8731Bits.dacSelect | WM8731Bits.bypass | WM8731Bits.sidetone,
                    value: WM8731Bits.dacSelect,
                    reason: "DAC to the outputs; line bypass and sidetone off"),
            .update(WM8731Register.powerDown, mask: WM8731Bits.dacDown, value: 0, reason: "DAC on (soft-muted)"),
        ]
        steps += volumeSteps(headphones, force: true)
        if let input { steps += inputSteps(input) }
        steps += [
            .update(WM8731Register.active, mask: WM8731Bits.activate, value: WM8731Bits.activate,
                    reason: "digital audio interface active"),
            .update(WM8731Register.powerDown, mask: WM8731Bits.outputsDown, value: 0,
                    reason: "outputs on last, as the datasheet's pop-free sequence says"),
            .update(WM8731Register.digitalPath, mask: WM8731Bits.dacMute, value: 0,
                    reason: "DAC soft unmute: the headphones play at the set volume"),
        ]
        return CodecRecipe("WM8731 power-up", steps)
    }

    /// Playing to off, the reverse of power-up.
    public func powerDownRecipe() -> CodecRecipe {
        var steps = muteDACSteps()
        steps += headphoneMuteSteps()
        steps += [
            .update(WM8731Register.powerDown, mask: WM8731Bits.outputsDown, value: WM8731Bits.outputsDown,
                    reason: "outputs off first"),
            .update(WM8731Register.active, mask: WM8731Bits.activate, value: 0, reason: "digital audio interface inactive"),
            .update(WM8731Register.powerDown,
                    mask: WM8731Bits.dacDown | WM8731Bits.adcDown | WM8731Bits.micDown | WM8731Bits.lineInDown,
                    value: WM8731Bits.dacDown | WM8731Bits.adcDown | WM8731Bits.micDown | WM8731Bits.lineInDown,
                    reason: "DAC, ADC, mic and line inputs off"),
            .update(WM8731Register.powerDown, mask: WM8731Bits.powerOff, value: WM8731Bits.powerOff,
                    reason: "chip off: references last"),
        ]
        return CodecRecipe("WM8731 power-down", steps)
    }

    /// Playing to a quiet hold: outputs and DAC off, interface inactive, references kept on so `wake` is
    /// quick and quiet.
    public func standbyRecipe() -> CodecRecipe {
        var steps = muteDACSteps()
        steps += [
            .update(WM8731Register.powerDown, mask: WM8731Bits.outputsDown, value: WM8731Bits.outputsDown,
                    reason: "outputs off (references stay on)"),
            .update(WM8731Register.active, mask: WM8731Bits.activate, value: 0, reason: "digital audio interface inactive"),
            .update(WM8731Register.powerDown, mask: WM8731Bits.dacDown, value: WM8731Bits.dacDown, reason: "DAC off"),
        ]
        return CodecRecipe("WM8731 standby", steps)
    }

    public func wakeRecipe() -> CodecRecipe {
        var steps: [CodecStep] = [
            .update(WM8731Register.powerDown, mask: WM8731Bits.dacDown, value: 0, reason: "DAC on (soft-muted)"),
        ]
        steps += volumeSteps(headphones)
        steps += [
            .update(WM8731Register.active, mask: WM8731Bits.activate, value: WM8731Bits.activate,
                    reason: "digital audio interface active"),
            .update(WM8731Register.powerDown, mask: WM8731Bits.outputsDown, value: 0, reason: "outputs on last"),
            .update(WM8731Register.digitalPath, mask: WM8731Bits.dacMute, value: 0, reason: "DAC soft unmute"),
        ]
        return CodecRecipe("WM8731 wake", steps)
    }

    // MARK: Pieces

    private func muteDACSteps() -> [CodecStep] {
        [
            .update(WM8731Register.digitalPath, mask: WM8731Bits.dacMute, value: WM8731Bits.dacMute,
                    reason: "DAC soft mute: ramps the signal down"),
            .delay(Self.softMuteDelay, reason: "soft-mute ramp (margin; the datasheet gives no time)"),
        ]
    }

    /// Both headphone channels to the mute code at a zero crossing.
    private func headphoneMuteSteps() -> [CodecStep] {
        [
            .write(WM8731Register.leftHeadphone, WM8731Bits.headphoneZeroCross, reason: "left headphone mute at a zero crossing"),
            .write(WM8731Register.rightHeadphone, WM8731Bits.headphoneZeroCross, reason: "right headphone mute at a zero crossing"),
        ]
    }

    /// The writes that put `setting` on the headphone amplifier, left then right, zero-cross on; only when
    /// a register changes, unless `force`.
    private func volumeSteps(_ setting: VolumeSetting, force: Bool = false) -> [CodecStep] {
        let value = WM8731Bits.headphoneZeroCross | WM8731VolumeSplit.headphoneCode(setting)
        let text = setting.isMuted ? "mute" : "\(setting.stageDB[0]) dB"
        var steps: [CodecStep] = []
        if force || registers.cachedValue(WM8731Register.leftHeadphone) != value {
            steps.append(.write(WM8731Register.leftHeadphone, value, reason: "left headphone \(text), zero-cross"))
        }
        if force || registers.cachedValue(WM8731Register.rightHeadphone) != value {
            steps.append(.write(WM8731Register.rightHeadphone, value, reason: "right headphone \(text), zero-cross"))
        }
        return steps
    }

    /// Routes the input to the ADC, sets its gain, then powers the ADC and the input.
    private func inputSteps(_ input: (microphone: Bool, boost: Bool, lineCode: RegisterValue)) -> [CodecStep] {
        if input.microphone {
            return [
                .update(WM8731Register.analogPath, mask: WM8731Bits.inputSelect | WM8731Bits.muteMic | WM8731Bits.micBoost,
                        value: WM8731Bits.inputSelect | (input.boost ? WM8731Bits.micBoost : 0),
                        reason: "microphone to the ADC, unmuted, boost \(input.boost ? "+20" : "0") dB"),
                .update(WM8731Register.powerDown, mask: WM8731Bits.adcDown | WM8731Bits.micDown | WM8731Bits.lineInDown,
                        value: WM8731Bits.lineInDown, reason: "ADC and mic amplifier (with bias) on, line input off"),
            ]
        }
        let db = WM8731VolumeSplit.lineInputDB(code: input.lineCode)
        return [
            .update(WM8731Register.analogPath, mask: WM8731Bits.inputSelect | WM8731Bits.muteMic,
                    value: WM8731Bits.muteMic, reason: "line input to the ADC, mic muted"),
            .write(WM8731Register.leftLineIn, input.lineCode, reason: "left line input \(db) dB, unmuted"),
            .write(WM8731Register.rightLineIn, input.lineCode, reason: "right line input \(db) dB, unmuted"),
            .update(WM8731Register.powerDown, mask: WM8731Bits.adcDown | WM8731Bits.micDown | WM8731Bits.lineInDown,
                    value: WM8731Bits.micDown, reason: "ADC and line input on, mic amplifier off"),
        ]
    }
}
