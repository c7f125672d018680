/// The Wolfson/Cirrus WM8960 stereo codec (Waveshare WM8960 Audio HAT, Seeed ReSpeaker 2-Mics): a
/// write-only 7+9 control port, so every read-modify-write goes through a `RegisterCache` of what the chip
/// was last told. Every operation is an ordered `CodecRecipe`; the `...Recipe` functions build them
/// without touching the chip, so diagnostics can print them and tests can compare them.
public final class WM8960: RecipeDrivenCodec {
    public let name = "WM8960"
    public let registers: RegisterCache
    public let clock: any MonotonicClock
    /// The master clock on the board (MCLK pin), in Hz.
    public let mclk: Int
    /// The board's volume ceiling in dB (hearing and amplifier safety), at most +6.
    public let maximumVolumeDB: Double

    public internal(set) var powerState: CodecPowerState = .off
    public var transcript: CodecTranscript?
    public internal(set) var format: CodecStreamFormat?
    public internal(set) var clockPlan: WM8960ClockPlan?
    public private(set) var output: CodecOutput = .headphones
    private var volumes: [CodecOutput: VolumeSetting] = [:]
    /// The selected input as its register values, applied when powered (nil: no input).
    private var input: (path: RegisterValue, micBias: Bool, code: RegisterValue)?

    /// The documented waits: VMID charging through 2x50k at power-up, and its discharge at power-down (the
    /// Linux driver's 100 ms and 600 ms).
    public static let vmidChargeDelay: Duration = .milliseconds(100)
    public static let vmidDischargeDelay: Duration = .milliseconds(600)
    /// Time the PLL gets to lock before SYSCLK switches to it. The datasheet gives no lock time; the kernel's
    /// sound/soc/codecs/wm8960.c `wm8960_set_pll` powers the PLL, sleeps 250 ms, then sets CLKSEL.
    public static let pllLockDelay: Duration = .milliseconds(250)

    public init(bus: any RegisterBus, clock: any MonotonicClock, mclk: Int, maximumVolumeDB: Double = 6) {
        registers = RegisterCache(bus: bus, map: WM8960Register.map)
        self.clock = clock
        self.mclk = mclk
        self.maximumVolumeDB = Swift.min(maximumVolumeDB, WM8960VolumeSplit.outputStage.maximumDB)
        for output in [CodecOutput.headphones, .speaker] {
            volumes[output] = WM8960VolumeSplit.split(WM8960VolumeSplit.minimumDB - 1, output: output)
        }
    }

    public var capabilities: CodecCapabilities {
        CodecCapabilities(
            outputs: [.headphones, .speaker], inputs: [.microphone, .line],
            outputStages: [.headphones: [WM8960VolumeSplit.outputStage, WM8960VolumeSplit.dacStage],
                           .speaker: [WM8960VolumeSplit.outputStage, WM8960VolumeSplit.dacStage]],
            inputStages: [WM8960VolumeSplit.inputStage],
            sampleRates: WM8960ClockPlan.supportedRates(mclk: mclk), wordLengths: [16, 20, 24, 32],
            hardwareEQ: .none, jackDetect: .codecSwitchesOutputs, micBias: true)
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
        guard output != .line else {
            throw .unsupportedOutput(codec: name, output, hint: "the WM8960 has no separate line output; its "
                                     + "headphone output drives line-level inputs (select headphones)")
        }
        guard output != self.output else { return }
        if powerState == .on {
            var steps = outputOffSteps(self.output)
            steps += outputOnSteps(output)
            try run(CodecRecipe("WM8960 output \(self.output) -> \(output)", steps))
        }
        self.output = output
    }

    @discardableResult
    public func select(input: CodecInput, micBias: Bool, pgaGainDB: Double) throws(CodecError) -> Double {
        guard !pgaGainDB.isNaN else { throw .invalidGain(pgaGainDB) }
        let path: RegisterValue
        switch input {
        case .microphone:
            path = WM8960Bits.input1ToPGA | WM8960Bits.pgaToBoostMixer
        case .line:
            path = WM8960Bits.input3ToPGA | WM8960Bits.pgaToBoostMixer
        case .headsetMicrophone:
            throw .unsupportedInput(codec: name, input, hint: "the board wires the WM8960's inputs; use "
                                    + "microphone (LINPUT1/RINPUT1) or line (LINPUT3/RINPUT3)")
        }
        let code = WM8960VolumeSplit.inputCode(pgaGainDB)
        if powerState == .on {
            try run(CodecRecipe("WM8960 input \(input)", inputSteps(path: path, micBias: micBias, code: code)))
        }
        self.input = (path, micBias, code)
        return WM8960VolumeSplit.inputDB(code: code)
    }

    @discardableResult
    public func setVolume(_ dB: Double, output: CodecOutput) throws(CodecError) -> VolumeSetting {
        guard !dB.isNaN else { throw .invalidGain(dB) }
        guard output != .line else {
            throw .unsupportedOutput(codec: name, output, hint: "set the headphone volume instead")
        }
        let setting = WM8960VolumeSplit.split(Swift.min(dB, maximumVolumeDB), output: output)
        // Only a powered output's registers are written; the others apply at power-up or selection.
        if powerState == .on && output == self.output {
            try run(CodecRecipe("WM8960 \(output) volume \(setting.levelDB) dB", volumeSteps(setting)))
        }
        volumes[output] = setting
        return setting
    }

    public func volume(of output: CodecOutput) -> VolumeSetting {
        volumes[output] ?? WM8960VolumeSplit.split(WM8960VolumeSplit.minimumDB - 1, output: output)
    }

    // MARK: Recipes

    public var resetRecipe: CodecRecipe {
        CodecRecipe("WM8960 reset", [
            .write(WM8960Register.reset, 0x000, reason: "soft reset: every register back to its default (outputs off, muted)"),
        ])
    }

    /// The MCLK divisions or PLL that make `format`'s rate.
    func plan(for format: CodecStreamFormat) throws(CodecError) -> WM8960ClockPlan {
        try WM8960ClockPlan.plan(mclk: mclk, rate: format.sampleRate)
    }

    /// Clocks, word length and framing; wrapped in a DAC soft mute when the outputs are live.
    func configureRecipe(_ format: CodecStreamFormat, plan: WM8960ClockPlan) throws(CodecError) -> CodecRecipe {
        let wordCodes: [Int: RegisterValue] = [16: 0, 20: 1, 24: 2, 32: 3]
        guard let wordCode = wordCodes[format.wordLength] else {
            throw .unsupportedWordLength(codec: name, bits: format.wordLength, supported: [16, 20, 24, 32])
        }
        var steps: [CodecStep] = []
        if powerState == .on {
            steps += muteDACSteps(rate: self.format?.sampleRate ?? format.sampleRate)
        }
        let dividers = plan.rateDividerCode << 6 | plan.rateDividerCode << 3
        if let pll = plan.pll {
            steps += [
                .update(WM8960Register.clocking1, mask: WM8960Bits.sysclkFromPLL, value: 0,
                        reason: "SYSCLK from MCLK while the PLL is reprogrammed, so it never runs on a changing clock"),
                .update(WM8960Register.power2, mask: WM8960Bits.pllEnable, value: 0,
                        reason: "PLL off before N and K change"),
                .update(WM8960Register.pll1, mask: WM8960Bits.pllFractional | WM8960Bits.pllPrescale | WM8960Bits.pllN,
                        value: (pll.k != 0 ? WM8960Bits.pllFractional : 0) | (pll.prescale ? WM8960Bits.pllPrescale : 0)
                            | RegisterValue(pll.n),
                        reason: "PLL N=\(pll.n)\(pll.prescale ? ", MCLK/2 in" : ""), fractional mode for K"),
                .update(WM8960Register.pllK1, mask: 0xFF, value: RegisterValue(pll.k >> 16 & 0xFF), reason: "PLL K[23:16]"),
                .update(WM8960Register.pllK2, mask: 0xFF, value: RegisterValue(pll.k >> 8 & 0xFF), reason: "PLL K[15:8]"),
                .update(WM8960Register.pllK3, mask: 0xFF, value: RegisterValue(pll.k & 0xFF), reason: "PLL K[7:0]"),
                .update(WM8960Register.power2, mask: WM8960Bits.pllEnable, value: WM8960Bits.pllEnable,
                        reason: "PLL on: f2 = \(CodecError.megahertz(plan.sysclk * 8))"),
                .delay(Self.pllLockDelay, reason: "PLL lock before SYSCLK switches to it (kernel wm8960_set_pll: 250 ms)"),
                .update(WM8960Register.clocking1, mask: 0x1FF, value: dividers | 0b100 | WM8960Bits.sysclkFromPLL,
                        reason: "SYSCLK = PLL/4/2 = \(CodecError.megahertz(plan.sysclk)); ADC/DAC divider for \(format.sampleRate) Hz"),
            ]
        } else {
            steps += [
                .update(WM8960Register.clocking1, mask: 0x1FF,
                        value: dividers | (plan.sysclkDivider == 2 ? 0b100 : 0),
                        reason: "SYSCLK = MCLK/\(plan.sysclkDivider); ADC/DAC divider for \(format.sampleRate) Hz"),
                .update(WM8960Register.power2, mask: WM8960Bits.pllEnable, value: 0,
                        reason: "PLL not needed: off"),
            ]
        }
        let formatCode: RegisterValue = switch format.format {
        case .i2s: 0b10
        case .leftJustified: 0b01
        case .rightJustified: 0b00
        }
        let provider = format.role == .provider
        steps.append(.update(WM8960Register.audioInterface1,
                             mask: WM8960Bits.clockProvider | WM8960Bits.wordLength | WM8960Bits.interfaceFormat,
                             value: (provider ? WM8960Bits.clockProvider : 0) | wordCode << 2 | formatCode,
                             reason: "\(format.wordLength)-bit \(format.format.rawValue), codec \(format.role.rawValue) of BCLK/LRCLK"))
        if provider {
            // The codec makes BCLK, so it must make the frame the Pi's I2S expects (the board's i2s:).
            guard format.frame.problem(rate: format.sampleRate, wordLength: format.wordLength) == nil,
                  let bits = format.frame.bitsPerFrame(rate: format.sampleRate),
                  let code = plan.bclkDividerCode(bitsPerFrame: bits) else {
                throw .frameMismatch(codec: name, frame: format.frame, reason: format.frame.problem(
                    rate: format.sampleRate, wordLength: format.wordLength) ?? "no BCLKDIV makes that frame from "
                    + "SYSCLK \(CodecError.megahertz(plan.sysclk)) at \(format.sampleRate) Hz")
            }
            steps.append(.update(WM8960Register.clocking2, mask: WM8960Bits.bclkDivider, value: code,
                                 reason: "BCLK = \(bits) fs: SYSCLK / BCLKDIV"))
        }
        if powerState == .on {
            steps.append(.update(WM8960Register.dacControl1, mask: WM8960Bits.dacMute, value: 0,
                                 reason: "DAC soft unmute on the new clock"))
        }
        return CodecRecipe("WM8960 configure \(format)", steps)
    }

    /// Off to playing on the selected output.
    public func powerUpRecipe() -> CodecRecipe {
        var steps: [CodecStep] = [
            .update(WM8960Register.dacControl1, mask: WM8960Bits.dacMute, value: WM8960Bits.dacMute,
                    reason: "DAC soft-muted while the analog side powers up"),
            .update(WM8960Register.dacControl2, mask: WM8960Bits.dacSoftMuteMode, value: WM8960Bits.dacSoftMuteMode,
                    reason: "soft-mute mode: unmuting ramps the DAC volume up instead of stepping"),
            .write(WM8960Register.antiPop1,
                   WM8960Bits.outputBiasFromVGS | WM8960Bits.dcBufferOpen | WM8960Bits.ioBuffers | WM8960Bits.softStart,
                   reason: "anti-pop: outputs biased from VGS, soft start, before VMID comes up"),
            .update(WM8960Register.power1, mask: WM8960Bits.vmidSelect, value: WM8960Bits.vmid50k,
                    reason: "VMID on through the 2x50k divider: a slow charge of the VMID capacitor is what avoids the pop"),
            .delay(Self.vmidChargeDelay, reason: "VMID charging"),
            .update(WM8960Register.power1, mask: WM8960Bits.vref, value: WM8960Bits.vref,
                    reason: "VREF on: bias for converters and outputs"),
            .write(WM8960Register.antiPop1, WM8960Bits.ioBuffers,
                   reason: "anti-pop off: outputs now biased from VREF; I/O buffers stay on"),
            .update(WM8960Register.additionalControl1, mask: WM8960Bits.zeroCrossTimeout, value: WM8960Bits.zeroCrossTimeout,
                    reason: "zero-cross timeout: volume changes still apply on silence or DC"),
            .update(WM8960Register.leftOutputMixer, mask: WM8960Bits.dacToOutputMixer, value: WM8960Bits.dacToOutputMixer,
                    reason: "left DAC into the left output mixer"),
            .update(WM8960Register.rightOutputMixer, mask: WM8960Bits.dacToOutputMixer, value: WM8960Bits.dacToOutputMixer,
                    reason: "right DAC into the right output mixer"),
            .update(WM8960Register.power3, mask: WM8960Bits.leftOutputMixer | WM8960Bits.rightOutputMixer,
                    value: WM8960Bits.leftOutputMixer | WM8960Bits.rightOutputMixer, reason: "output mixers on"),
            .update(WM8960Register.power2, mask: WM8960Bits.leftDAC | WM8960Bits.rightDAC,
                    value: WM8960Bits.leftDAC | WM8960Bits.rightDAC, reason: "DACs on (soft-muted)"),
        ]
        steps += outputOnSteps(output)
        if let input { steps += inputSteps(path: input.path, micBias: input.micBias, code: input.code) }
        steps.append(.update(WM8960Register.dacControl1, mask: WM8960Bits.dacMute, value: 0,
                             reason: "DAC soft unmute: ramps up to the set volume"))
        return CodecRecipe("WM8960 power-up (\(output))", steps)
    }

    /// Playing to off, the reverse of power-up.
    public func powerDownRecipe() -> CodecRecipe {
        var steps = muteDACSteps(rate: format?.sampleRate ?? 8_000)
        steps += outputOffSteps(output)
        steps += [
            .update(WM8960Register.power2, mask: WM8960Bits.leftDAC | WM8960Bits.rightDAC, value: 0, reason: "DACs off"),
            .update(WM8960Register.power3, mask: WM8960Bits.leftOutputMixer | WM8960Bits.rightOutputMixer
                        | WM8960Bits.leftMicPower | WM8960Bits.rightMicPower, value: 0,
                    reason: "output mixers and input PGAs' mixers off"),
            .write(WM8960Register.antiPop1,
                   WM8960Bits.outputBiasFromVGS | WM8960Bits.dcBufferOpen | WM8960Bits.ioBuffers | WM8960Bits.softStart,
                   reason: "anti-pop on: outputs held by VGS while VMID discharges"),
            .write(WM8960Register.power1, 0x000, reason: "VMID, VREF, ADCs, input PGAs and mic bias off"),
            .delay(Self.vmidDischargeDelay, reason: "VMID discharge"),
            .update(WM8960Register.power2, mask: WM8960Bits.pllEnable, value: 0,
                    reason: "PLL off last: the clock outlives the analog side"),
        ]
        return CodecRecipe("WM8960 power-down", steps)
    }

    /// Playing to a quiet low-power hold: outputs off, VMID kept charged through 2x250k.
    public func standbyRecipe() -> CodecRecipe {
        var steps = muteDACSteps(rate: format?.sampleRate ?? 8_000)
        steps += outputOffSteps(output)
        steps += [
            .update(WM8960Register.power2, mask: WM8960Bits.leftDAC | WM8960Bits.rightDAC, value: 0, reason: "DACs off"),
            .update(WM8960Register.power1, mask: WM8960Bits.vmidSelect, value: WM8960Bits.vmid250k,
                    reason: "VMID through 2x250k: low power, capacitor stays charged for a quiet wake"),
        ]
        return CodecRecipe("WM8960 standby", steps)
    }

    public func wakeRecipe() -> CodecRecipe {
        var steps: [CodecStep] = [
            .update(WM8960Register.power1, mask: WM8960Bits.vmidSelect, value: WM8960Bits.vmid50k,
                    reason: "VMID back to 2x50k for playback (already charged: no wait)"),
            .update(WM8960Register.power2, mask: WM8960Bits.leftDAC | WM8960Bits.rightDAC,
                    value: WM8960Bits.leftDAC | WM8960Bits.rightDAC, reason: "DACs on (soft-muted)"),
        ]
        steps += outputOnSteps(output)
        steps.append(.update(WM8960Register.dacControl1, mask: WM8960Bits.dacMute, value: 0,
                             reason: "DAC soft unmute"))
        return CodecRecipe("WM8960 wake", steps)
    }

    // MARK: Pieces

    /// The time the DAC soft mute takes at `rate`: 255 half-dB steps of 2 samples each (DACMR = 0), rounded
    /// up to a millisecond.
    public static func softMuteRamp(rate: Int) -> Duration {
        .milliseconds((510 * 1000 + rate - 1) / rate)
    }

    private func muteDACSteps(rate: Int) -> [CodecStep] {
        [
            .update(WM8960Register.dacControl1, mask: WM8960Bits.dacMute, value: WM8960Bits.dacMute,
                    reason: "DAC soft mute: ramps the signal down"),
            .delay(Self.softMuteRamp(rate: rate), reason: "soft-mute ramp at \(rate) Hz"),
        ]
    }

    private func outputRegisters(_ output: CodecOutput) -> (left: RegisterAddress, right: RegisterAddress, power: RegisterValue) {
        output == .speaker
            ? (WM8960Register.leftSpeaker, WM8960Register.rightSpeaker, WM8960Bits.leftSpeaker | WM8960Bits.rightSpeaker)
            : (WM8960Register.leftHeadphone, WM8960Register.rightHeadphone, WM8960Bits.leftHeadphone | WM8960Bits.rightHeadphone)
    }

    /// Powers `output` on (muted), then sets its stored volume with zero-cross.
    private func outputOnSteps(_ output: CodecOutput) -> [CodecStep] {
        let (_, _, power) = outputRegisters(output)
        var steps: [CodecStep] = [
            .update(WM8960Register.power2, mask: power, value: power, reason: "\(output) drivers on (still muted)"),
        ]
        if output == .speaker {
            steps.append(.update(WM8960Register.classDControl1, mask: WM8960Bits.speakerOutputs,
                                 value: WM8960Bits.speakerOutputs, reason: "class D speaker outputs enabled"))
        }
        let setting = volume(of: output)
        steps += volumeSteps(setting, force: true)
        return steps
    }

    /// Mutes `output` at a zero crossing, then powers it off.
    private func outputOffSteps(_ output: CodecOutput) -> [CodecStep] {
        let (left, right, power) = outputRegisters(output)
        var steps: [CodecStep] = [
            .write(left, WM8960Bits.outputZeroCross, reason: "\(output) left to mute at a zero crossing (latched by the right write)"),
            .write(right, WM8960Bits.outputVolumeUpdate | WM8960Bits.outputZeroCross,
                   reason: "\(output) right to mute, update both"),
        ]
        if output == .speaker {
            steps.append(.update(WM8960Register.classDControl1, mask: WM8960Bits.speakerOutputs, value: 0,
                                 reason: "class D speaker outputs disabled"))
        }
        steps.append(.update(WM8960Register.power2, mask: power, value: 0, reason: "\(output) drivers off"))
        return steps
    }

    /// The writes that put `setting` on the chip: output PGA left then right (the right write carries the
    /// update bit so both channels change together, at a zero crossing), then the DAC volume likewise.
    /// A pair goes out only when one of its registers changes, unless `force`.
    private func volumeSteps(_ setting: VolumeSetting, force: Bool = false) -> [CodecStep] {
        let (left, right, _) = outputRegisters(setting.output)
        let code = WM8960VolumeSplit.outputCode(setting)
        let dac = WM8960VolumeSplit.dacCode(setting)
        let text = setting.isMuted ? "mute" : "\(setting.stageDB[0]) dB"
        let dacText = setting.isMuted ? "mute" : "\(setting.stageDB[1]) dB"
        var steps: [CodecStep] = []
        let leftValue = WM8960Bits.outputZeroCross | code
        let rightValue = WM8960Bits.outputVolumeUpdate | WM8960Bits.outputZeroCross | code
        if force || registers.cachedValue(left) != leftValue || registers.cachedValue(right) != rightValue {
            steps += [
                .write(left, leftValue, reason: "\(setting.output) left \(text), zero-cross, latched by the right write"),
                .write(right, rightValue, reason: "\(setting.output) right \(text), update both"),
            ]
        }
        let leftDAC = dac
        let rightDAC = WM8960Bits.dacVolumeUpdate | dac
        if force || registers.cachedValue(WM8960Register.leftDACVolume) != leftDAC
            || registers.cachedValue(WM8960Register.rightDACVolume) != rightDAC {
            steps += [
                .write(WM8960Register.leftDACVolume, leftDAC, reason: "left DAC \(dacText), latched by the right write"),
                .write(WM8960Register.rightDACVolume, rightDAC, reason: "right DAC \(dacText), update both"),
            ]
        }
        return steps
    }

    /// Routes the input into the PGA, sets its gain (unmuted, zero-cross, both channels latched together),
    /// then powers the PGAs, ADCs and mic bias.
    private func inputSteps(path: RegisterValue, micBias: Bool, code: RegisterValue) -> [CodecStep] {
        let pathMask = WM8960Bits.input1ToPGA | WM8960Bits.input2ToPGA | WM8960Bits.input3ToPGA | WM8960Bits.pgaToBoostMixer
        let power: RegisterValue = WM8960Bits.leftInputPGA | WM8960Bits.rightInputPGA | WM8960Bits.leftADC | WM8960Bits.rightADC
        let db = WM8960VolumeSplit.inputDB(code: code)
        return [
            .update(WM8960Register.leftInputPath, mask: pathMask, value: path, reason: "left input into the PGA and boost mixer"),
            .update(WM8960Register.rightInputPath, mask: pathMask, value: path, reason: "right input into the PGA and boost mixer"),
            .write(WM8960Register.leftInputVolume, WM8960Bits.inputZeroCross | code,
                   reason: "left PGA \(db) dB, unmuted, zero-cross, latched by the right write"),
            .write(WM8960Register.rightInputVolume, WM8960Bits.inputVolumeUpdate | WM8960Bits.inputZeroCross | code,
                   reason: "right PGA \(db) dB, update both"),
            .update(WM8960Register.power3, mask: WM8960Bits.leftMicPower | WM8960Bits.rightMicPower,
                    value: WM8960Bits.leftMicPower | WM8960Bits.rightMicPower, reason: "input PGAs' mixers on"),
            .update(WM8960Register.power1, mask: power | WM8960Bits.micBias,
                    value: power | (micBias ? WM8960Bits.micBias : 0),
                    reason: "input PGAs and ADCs on, mic bias \(micBias ? "on" : "off")"),
        ]
    }
}
