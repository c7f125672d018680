/// The TI PCM5122 stereo DAC (HiFiBerry DAC+ family, IQaudio DAC+): line outputs only, a readable 8+8
/// control port with paged registers (see `PCM512xRegister`; transfers go through a `PagedRegisterBus`),
/// a PLL that runs from SCK or BCLK (see `PCM512xClockPlan`), a soft-ramped digital volume and a 0/-6 dB
/// analog stage (see `PCM512xVolumeSplit`). Every operation is an ordered `CodecRecipe`; the `...Recipe`
/// functions build them without touching the chip.
///
/// The sequences follow the datasheet's: registers are written in standby (RQST), clocks change only
/// while the output is soft-muted and the DAC in standby, and a mute is given the datasheet's mute time
/// (150 sample periods + 0.2 ms) before anything stops. The chip runs as a clock consumer (the SoC drives
/// BCLK and LRCLK).
public final class PCM512x: RecipeDrivenCodec {
    public let name = "PCM5122"
    public let registers: RegisterCache
    /// The paging wrapper the cache writes through.
    public let pagedBus: PagedRegisterBus
    public let clock: any MonotonicClock
    public let clockSource: PCM512xClockSource
    /// The board's volume ceiling in dB (hearing and amplifier safety), at most +24. Defaults to 0 dB:
    /// digital gain above 0 dB clips a full-scale signal (the HiFiBerry driver limits it likewise).
    public let maximumVolumeDB: Double

    public internal(set) var powerState: CodecPowerState = .off
    public var transcript: CodecTranscript?
    public internal(set) var format: CodecStreamFormat?
    public internal(set) var clockPlan: PCM512xClockPlan?
    private var line: VolumeSetting

    public static let wordLengths = [16, 20, 24, 32]

    /// `bus` is the chip's 8+8 control port (wire addresses); the driver pages it itself.
    public init(bus: any RegisterBus, clock: any MonotonicClock, clockSource: PCM512xClockSource,
                maximumVolumeDB: Double = 0) {
        pagedBus = PagedRegisterBus(bus: bus)
        registers = RegisterCache(bus: pagedBus, map: PCM512xRegister.map)
        self.clock = clock
        self.clockSource = clockSource
        self.maximumVolumeDB = Swift.min(maximumVolumeDB, PCM512xVolumeSplit.digitalStage.maximumDB)
        line = PCM512xVolumeSplit.split(PCM512xVolumeSplit.minimumDB - 1)
    }

    public var capabilities: CodecCapabilities {
        CodecCapabilities(
            outputs: [.line], inputs: [],
            outputStages: [.line: [PCM512xVolumeSplit.analogStage, PCM512xVolumeSplit.digitalStage]],
            inputStages: [], sampleRates: PCM512xClockPlan.supportedRates(source: clockSource),
            wordLengths: Self.wordLengths, hardwareEQ: .none, jackDetect: .none, micBias: false)
    }

    /// The datasheet's mute time: the soft ramp to zero, then the analog mute, 150 sample periods + 0.2 ms
    /// (enough for the default 1 dB-a-sample ramp from +24 dB, 128 samples).
    public static func muteDelay(rate: Int) -> Duration {
        .nanoseconds((150 * 1_000_000_000 + rate - 1) / rate + 200_000)
    }

    // MARK: AudioCodec

    /// Soft-resets the chip, identifies it by reading back registers with distinctive reset values (it has
    /// no ID register: `PCM512xRegister.identityChecks`), then puts it in standby for configuration.
    @discardableResult
    public func reset() throws(CodecError) -> CodecIdentity {
        let target = pagedBus.target
        pagedBus.forgetPage()
        do {
            try run(resetRecipe)
        } catch {
            guard case .transferFailed(_, _, let i2c) = error else { throw error }
            throw .notIdentified(codec: name, evidence: "the reset write was not acknowledged: \(i2c)",
                                 hint: "Check the board's I2C address (0x4c or 0x4d, set by the ADR pins), that the "
                                    + "HAT is seated and powered, and `i2cdetect -y \(target.bus)`")
        }
        pagedBus.chipDidReset()
        forgetChipState()
        var found: [String] = []
        for check in PCM512xRegister.identityChecks {
            let value: RegisterValue
            do {
                let reply = try pagedBus.perform(.read(reg: check.register))
                value = pagedBus.layout.value(fromReadBytes: reply.bytes)
                transcript?.append(driverTransfer: reply.exchanges, in: resetRecipe.name,
                                   reason: "identification: P0 R\(check.register) resets to "
                                       + I2CHex.value(check.value, bits: 8) + " on a PCM512x")
            } catch {
                throw .notIdentified(codec: name, evidence: "a chip at \(target) took the reset but the read-back "
                                        + "of P0 R\(check.register) failed: \(error)",
                                     hint: "The PCM512x answers reads; a write-only chip at this address is another codec")
            }
            guard value == check.value else {
                throw .notIdentified(
                    codec: name,
                    evidence: "after reset P0 R\(check.register) at \(target) reads \(I2CHex.value(value, bits: 8)), "
                        + "a PCM512x resets it to \(I2CHex.value(check.value, bits: 8))",
                    hint: "Another chip answers at this address: check the board file's codec and address")
            }
            found.append("R\(check.register)=\(I2CHex.value(value, bits: 8))")
        }
        try run(setupRecipe)
        return CodecIdentity(name: name, chipID: nil,
                             evidence: "no ID register; after reset page 0 " + found.joined(separator: " ")
                                + " read back at their reset values at \(target)")
    }

    public func select(output: CodecOutput) throws(CodecError) {
        guard output == .line else {
            throw .unsupportedOutput(codec: name, output, hint: "the PCM5122 has only its line outputs (OUTL/OUTR); "
                                     + "headphones or a speaker need an amplifier on the board: select line")
        }
    }

    @discardableResult
    public func select(input: CodecInput, micBias: Bool, pgaGainDB: Double) throws(CodecError) -> Double {
        throw .unsupportedInput(codec: name, input, hint: "the PCM5122 is a DAC only: it has no inputs, no ADC and no "
                                + "mic bias; record through a USB or I2S microphone instead")
    }

    @discardableResult
    public func setVolume(_ dB: Double, output: CodecOutput) throws(CodecError) -> VolumeSetting {
        guard !dB.isNaN else { throw .invalidGain(dB) }
        guard output == .line else {
            throw .unsupportedOutput(codec: name, output, hint: "set the line output's volume")
        }
        let setting = PCM512xVolumeSplit.split(Swift.min(dB, maximumVolumeDB), output: .line)
        // Only a playing chip is written; otherwise the level applies at power-up or wake.
        if powerState == .on {
            try run(CodecRecipe("PCM5122 line volume \(setting.levelDB) dB", volumeSteps(setting)))
        }
        line = setting
        return setting
    }

    public func volume(of output: CodecOutput) -> VolumeSetting {
        output == .line ? line : PCM512xVolumeSplit.split(PCM512xVolumeSplit.minimumDB - 1, output: output)
    }

    // MARK: Recipes

    public var resetRecipe: CodecRecipe {
        CodecRecipe("PCM5122 reset", [
            .write(PCM512xRegister.reset, PCM512xBits.resetModules | PCM512xBits.resetRegisters,
                   reason: "reset the DSP and DAC modules (RSTM) and every register (RSTR), page select included"),
            .write(PCM512xRegister.reset, 0x00, reason: "release the reset bits"),
        ])
    }

    /// After reset: standby for configuration; on switched-oscillator boards the two enable GPIOs become
    /// outputs driven from P0 R86 (both oscillators still off).
    public var setupRecipe: CodecRecipe {
        var steps: [CodecStep] = [
            .update(PCM512xRegister.power, mask: PCM512xBits.standby, value: PCM512xBits.standby,
                    reason: "standby (RQST): the DAC stays stopped until the clocks are configured"),
        ]
        let oscillators = clockSource.oscillators
        if !oscillators.isEmpty {
            let pins = oscillators.reduce(RegisterValue(0)) { $0 | PCM512xBits.gpio($1.gpio) }
            steps.append(.update(PCM512xRegister.gpioEnable, mask: pins, value: pins,
                                 reason: "GPIO" + oscillators.map { String($0.gpio) }.joined(separator: "/GPIO")
                                    + " outputs: they enable the oscillators"))
            for oscillator in oscillators {
                steps.append(.update(PCM512xRegister.gpioOutput(oscillator.gpio), mask: PCM512xBits.gpioSelect,
                                     value: PCM512xBits.gpioFromRegister,
                                     reason: "GPIO\(oscillator.gpio) follows its bit in R86 (\(oscillator))"))
            }
        }
        return CodecRecipe("PCM5122 setup", steps)
    }

    /// The PLL and dividers for `format` from SCK or from BCLK, whose rate the board's I2S frame sets; the
    /// chip runs as a clock consumer only.
    func plan(for format: CodecStreamFormat) throws(CodecError) -> PCM512xClockPlan {
        guard format.role == .consumer else {
            throw .unsupportedMasterClock(codec: name, mclk: clockSource.nominalMasterClock,
                                          reason: "this driver runs the PCM5122 as a clock consumer; let the SoC "
                                            + "drive BCLK and LRCLK (role consumer)")
        }
        if let problem = format.frame.problem(rate: format.sampleRate, wordLength: format.wordLength) {
            throw .frameMismatch(codec: name, frame: format.frame, reason: problem)
        }
        // Without SCK the PLL's reference is BCLK, whose rate the board's I2S frame sets.
        var source = clockSource
        if case .bitClock = clockSource, let bits = format.frame.bitsPerFrame(rate: format.sampleRate) {
            source = .bitClock(bitsPerFrame: bits)
        }
        return try PCM512xClockPlan.plan(source: source, rate: format.sampleRate)
    }

    /// The clock tree, word length and framing for `format`; on a playing chip wrapped in a soft mute and
    /// standby, since the clocks must not change under a running DAC.
    func configureRecipe(_ format: CodecStreamFormat, plan: PCM512xClockPlan) throws(CodecError) -> CodecRecipe {
        let wordCodes: [Int: RegisterValue] = [16: 0, 20: 1, 24: 2, 32: 3]
        guard let wordCode = wordCodes[format.wordLength] else {
            throw .unsupportedWordLength(codec: name, bits: format.wordLength, supported: Self.wordLengths)
        }
        let formatCode: RegisterValue = switch format.format {
        case .i2s: 0x00
        case .rightJustified: 0x20
        case .leftJustified: 0x30
        }
        let live = powerState == .on
        var steps: [CodecStep] = []
        if live { steps += muteSteps(rate: self.format?.sampleRate ?? format.sampleRate) }
        steps.append(.update(PCM512xRegister.power, mask: PCM512xBits.standby, value: PCM512xBits.standby,
                             reason: "standby: the clock tree changes only while the DAC is stopped"))
        if let oscillator = plan.oscillator {
            let pins = clockSource.oscillators.reduce(RegisterValue(0)) { $0 | PCM512xBits.gpio($1.gpio) }
            steps.append(.update(PCM512xRegister.gpioControl, mask: pins, value: PCM512xBits.gpio(oscillator.gpio),
                                 reason: "SCK from the \(oscillator), the other oscillator off"))
        }
        var ignore = PCM512xBits.ignoreFSDetect | PCM512xBits.ignoreBCKDetect | PCM512xBits.ignoreSCKDetect
        var why = "our dividers, not the chip's auto set-up (DCAS); its ratio checks (IDFS, IDBK, IDSK) off"
        if plan.pll?.fromBitClock == true {
            ignore |= PCM512xBits.ignoreClockHalt
            why += "; no SCK on this board, so no SCK-halt error (IDCH)"
        }
        if plan.pll == nil {
            ignore |= PCM512xBits.ignorePLLUnlock
            why += "; PLL unused, its lock ignored (IPLK)"
        }
        steps.append(.update(PCM512xRegister.errorDetect, mask: 0x7F, value: ignore | PCM512xBits.manualDividers,
                             reason: why))
        if let pll = plan.pll {
            steps += [
                .write(PCM512xRegister.pll, 0x00, reason: "PLL off while P, J.D and R change"),
                .update(PCM512xRegister.pllReference, mask: PCM512xBits.pllReference,
                        value: pll.fromBitClock ? PCM512xBits.pllFromBCK : PCM512xBits.pllFromSCK,
                        reason: "PLL reference: " + (pll.fromBitClock ? "BCLK" : "SCK")
                            + " \(CodecError.megahertz(plan.referenceHertz))"),
                .update(PCM512xRegister.pllP, mask: 0x0F, value: RegisterValue(pll.p - 1), reason: "PLL P = \(pll.p)"),
                .update(PCM512xRegister.pllJ, mask: 0x3F, value: RegisterValue(pll.j), reason: "PLL J = \(pll.j)"),
                .update(PCM512xRegister.pllDHigh, mask: 0x3F, value: RegisterValue(pll.d >> 8), reason: "PLL D = \(pll.d), high bits"),
                .update(PCM512xRegister.pllDLow, mask: 0xFF, value: RegisterValue(pll.d & 0xFF), reason: "PLL D, low bits"),
                .update(PCM512xRegister.pllR, mask: 0x0F, value: RegisterValue(pll.r - 1), reason: "PLL R = \(pll.r)"),
                .write(PCM512xRegister.pll, PCM512xBits.pllEnable,
                       reason: "PLL on: \(CodecError.megahertz(pll.outputHertz)) master clock"),
            ]
        } else {
            steps.append(.write(PCM512xRegister.pll, 0x00, reason: "PLL off: the DSP runs from SCK"))
        }
        steps += [
            .update(PCM512xRegister.dspDivider, mask: 0x7F, value: RegisterValue(plan.dspDivider - 1),
                    reason: "DSP clock = MCK/\(plan.dspDivider) = \(CodecError.megahertz(plan.dspHertz)) (at most 50 MHz)"),
            .update(PCM512xRegister.dacDivider, mask: 0x7F, value: RegisterValue(plan.dacDivider - 1),
                    reason: "DAC clock = MCK/\(plan.dacDivider) = \(CodecError.megahertz(plan.dacHertz)) (at most 6.144 MHz)"),
            .update(PCM512xRegister.ncpDivider, mask: 0x7F, value: RegisterValue(plan.ncpDivider - 1),
                    reason: "charge pump clock = DAC/\(plan.ncpDivider) = \(CodecError.megahertz(plan.ncpHertz))"),
            .update(PCM512xRegister.osrDivider, mask: 0x7F, value: RegisterValue(plan.osrDivider - 1),
                    reason: "oversampling clock = DAC/\(plan.osrDivider) = 16 fs"),
            .update(PCM512xRegister.speedMode, mask: PCM512xBits.speedMode, value: plan.speedMode,
                    reason: "FS speed mode \(["single", "double", "quad"][Int(plan.speedMode)]) rate"),
            .update(PCM512xRegister.idacHigh, mask: 0xFF, value: RegisterValue(plan.idac >> 8),
                    reason: "IDAC = \(plan.idac) DSP clocks a sample, high byte"),
            .update(PCM512xRegister.idacLow, mask: 0xFF, value: RegisterValue(plan.idac & 0xFF), reason: "IDAC low byte"),
            .update(PCM512xRegister.i2sFormat, mask: PCM512xBits.interfaceFormat | PCM512xBits.wordLength,
                    value: formatCode | wordCode,
                    reason: "\(format.wordLength)-bit \(format.format.rawValue)"),
        ]
        if live {
            steps += [
                .update(PCM512xRegister.power, mask: PCM512xBits.standby, value: 0,
                        reason: "out of standby on the new clock"),
                .update(PCM512xRegister.mute, mask: PCM512xBits.muteBoth, value: 0,
                        reason: "soft unmute: the digital volume ramps back up"),
            ]
        }
        return CodecRecipe("PCM5122 configure \(format)", steps)
    }

    /// Standby to playing: muted, auto-mute and ramps as the split needs them, the volume set, then out
    /// of standby and unmuted (the digital volume ramps up by itself).
    public func powerUpRecipe() -> CodecRecipe {
        var steps: [CodecStep] = [
            .update(PCM512xRegister.mute, mask: PCM512xBits.muteBoth, value: PCM512xBits.muteBoth,
                    reason: "soft mute while the DAC starts"),
            .update(PCM512xRegister.autoMute, mask: PCM512xBits.autoMuteBoth, value: PCM512xBits.autoMuteBoth,
                    reason: "auto-mute: zero data on both channels mutes the analog outputs (no hiss between tracks)"),
            .update(PCM512xRegister.volumeRamp, mask: 0xFF, value: PCM512xBits.defaultRamp,
                    reason: "volume ramps 1 dB a sample both ways: the soft ramp volume changes and mutes rely on"),
        ]
        steps += volumeSteps(line, force: true)
        steps += [
            .update(PCM512xRegister.power, mask: PCM512xBits.standby | PCM512xBits.powerDown, value: 0,
                    reason: "out of standby and power-down: charge pump, DAC and line drivers start"),
            .update(PCM512xRegister.mute, mask: PCM512xBits.muteBoth, value: 0,
                    reason: "soft unmute: the digital volume ramps up to the set level"),
        ]
        return CodecRecipe("PCM5122 power-up", steps)
    }

    /// Playing to off: soft mute and its mute time, standby, then power-down (charge pump and references).
    public func powerDownRecipe() -> CodecRecipe {
        var steps = muteSteps(rate: format?.sampleRate ?? 8_000)
        steps += [
            .update(PCM512xRegister.power, mask: PCM512xBits.standby, value: PCM512xBits.standby,
                    reason: "standby: DAC and line drivers stop while muted"),
            .update(PCM512xRegister.power, mask: PCM512xBits.powerDown, value: PCM512xBits.powerDown,
                    reason: "power down (RQPD): charge pump and references off"),
        ]
        return CodecRecipe("PCM5122 power-down", steps)
    }

    /// Playing to standby: soft mute, then RQST; the charge pump and references stay up for a quick wake.
    public func standbyRecipe() -> CodecRecipe {
        var steps = muteSteps(rate: format?.sampleRate ?? 8_000)
        steps.append(.update(PCM512xRegister.power, mask: PCM512xBits.standby, value: PCM512xBits.standby,
                             reason: "standby: DAC and line drivers stop while muted"))
        return CodecRecipe("PCM5122 standby", steps)
    }

    public func wakeRecipe() -> CodecRecipe {
        var steps = volumeSteps(line)
        steps += [
            .update(PCM512xRegister.power, mask: PCM512xBits.standby | PCM512xBits.powerDown, value: 0,
                    reason: "out of standby"),
            .update(PCM512xRegister.mute, mask: PCM512xBits.muteBoth, value: 0, reason: "soft unmute"),
        ]
        return CodecRecipe("PCM5122 wake", steps)
    }

    // MARK: Pieces

    private func muteSteps(rate: Int) -> [CodecStep] {
        [
            .update(PCM512xRegister.mute, mask: PCM512xBits.muteBoth, value: PCM512xBits.muteBoth,
                    reason: "soft mute: the digital volume ramps down to mute"),
            .delay(Self.muteDelay(rate: rate), reason: "mute time at \(rate) Hz: 150 samples + 0.2 ms"),
        ]
    }

    /// The writes that put `setting` on the chip: the analog gain (page 1) and the digital volume of both
    /// channels (page 0), each only when it changes unless `force`. Their order keeps the level between
    /// the old and the new one never louder than both: an analog drop goes first, an analog rise last.
    private func volumeSteps(_ setting: VolumeSetting, force: Bool = false) -> [CodecStep] {
        let analog = PCM512xVolumeSplit.analogGainValue(setting)
        let code = PCM512xVolumeSplit.digitalCode(setting)
        let oldAnalog = registers.cachedValue(PCM512xRegister.analogGain) ?? 0
        var analogSteps: [CodecStep] = []
        if force || oldAnalog != analog {
            analogSteps.append(.write(PCM512xRegister.analogGain, analog,
                                      reason: "analog gain \(setting.stageDB[0]) dB, both channels (page 1)"))
        }
        let text = setting.isMuted ? "mute" : "\(setting.stageDB[1]) dB"
        var digitalSteps: [CodecStep] = []
        if force || registers.cachedValue(PCM512xRegister.leftVolume) != code
            || registers.cachedValue(PCM512xRegister.rightVolume) != code {
            digitalSteps = [
                .write(PCM512xRegister.leftVolume, code, reason: "left digital volume \(text), ramped"),
                .write(PCM512xRegister.rightVolume, code, reason: "right digital volume \(text), ramped"),
            ]
        }
        let analogDrops = analog != 0 && oldAnalog == 0
        return analogDrops ? analogSteps + digitalSteps : digitalSteps + analogSteps
    }
}
