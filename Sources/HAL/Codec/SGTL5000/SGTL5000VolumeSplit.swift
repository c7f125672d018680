import Codec8_24

/// How the SGTL5000 splits an output level across its stages:
/// - headphones: the headphone amplifier (-51.5...+12 dB in 0.5 dB steps, changes at zero crossings with
///   EN_ZCD_HP) takes the level rounded up to half a dB; below its range the DAC volume (-90...0 dB in
///   0.5 dB steps, ramped by VOL_RAMP_EN) takes the rest;
/// - line out: the line output level (0.5 dB steps, no zero-cross) likewise, above the DAC volume.
/// What is left, in (-0.5, 0] dB, goes to the 8.24 stage, so the software stage never boosts and
/// `codecDB + fineDB == levelDB` exactly: the curve is the identity, monotonic and without jumps.
///
/// The datasheet gives the DAC step as 0.5017 dB; this split and the model count it as 0.5 dB (0.17 %
/// of a step, 0.03 dB at the bottom of the 90 dB range).
///
/// The line output's 0 dB is the datasheet's recommended LO_VOL code, `40 log10(VAG / LO_VAGCNTRL) + 15`
/// (code 14 on a 3.3 V board): unity from the DAC's full scale to the line level. Codes below it would
/// boost past line level, so the stage stops at 0 dB; each code above it is 0.5 dB less, down to code 31.
public struct SGTL5000VolumeSplit: Hashable, Sendable {
    public static let headphoneStage = GainStage("headphone amplifier", minimumDB: -51.5, maximumDB: 12,
                                                 stepDB: 0.5, zeroCross: true)
    public static let dacStage = GainStage("DAC digital volume", minimumDB: -90, maximumDB: 0, stepDB: 0.5,
                                           softRamp: true)
    /// Microphone preamp (CHIP_MIC_CTRL GAIN): 0, +20, +30, +40 dB; listed from +20 (its 10 dB grid),
    /// 0 dB is the bypass setting below it.
    public static let micStage = GainStage("microphone preamp", minimumDB: 20, maximumDB: 40, stepDB: 10,
                                           canMute: false)
    /// ADC analog volume (CHIP_ANA_ADC_CTRL): 0...+22.5 dB in 1.5 dB steps, shifted down by 6 dB with
    /// ADC_VOL_M6DB; changes at zero crossings with EN_ZCD_ADC.
    public static let adcStage = GainStage("ADC analog volume", minimumDB: -6, maximumDB: 22.5, stepDB: 1.5,
                                           zeroCross: true)

    /// The line-out code that is 0 dB (see the type's comment).
    public let lineOutNominalCode: Int

    public init(lineOutNominalCode: Int = 14) {
        self.lineOutNominalCode = Swift.max(0, Swift.min(31, lineOutNominalCode))
    }

    public var lineOutStage: GainStage {
        GainStage("line output", minimumDB: -0.5 * Double(31 - lineOutNominalCode), maximumDB: 0, stepDB: 0.5)
    }

    /// The stages `output` is split across, coarse first.
    public func stages(for output: CodecOutput) -> [GainStage] {
        [output == .line ? lineOutStage : Self.headphoneStage, Self.dacStage]
    }

    /// The lowest level `output` plays at; below it the output mutes.
    public func minimumDB(for output: CodecOutput) -> Double {
        stages(for: output).reduce(0) { $0 + $1.minimumDB }
    }

    /// The split of `dB` (already capped at the board maximum) for headphones or line out.
    public func split(_ dB: Double, output: CodecOutput) -> VolumeSetting {
        let stages = stages(for: output)
        let analogStage = stages[0], digitalStage = stages[1]
        let level = Swift.min(dB, analogStage.maximumDB)
        guard level >= minimumDB(for: output) else {
            return VolumeSetting(output: output, levelDB: level,
                                 stageDB: [analogStage.minimumDB, digitalStage.minimumDB], fineDB: 0, isMuted: true)
        }
        let analog = Swift.max(analogStage.minimumDB, (level * 2).rounded(.up) / 2) + 0
        let rest = level - analog
        let digital = Swift.max(digitalStage.minimumDB, (rest * 2).rounded(.up) / 2) + 0
        return VolumeSetting(output: output, levelDB: level, stageDB: [analog, digital], fineDB: rest - digital,
                             isMuted: false)
    }

    // MARK: Codes

    /// CHIP_ANA_HP_CTRL code (one channel): 0x00 = +12 dB ... 0x18 = 0 dB ... 0x7F = -51.5 dB.
    public static func headphoneCode(_ dB: Double) -> RegisterValue {
        RegisterValue(Swift.max(0, Swift.min(0x7F, Int(((12 - dB) * 2).rounded()))))
    }

    public static func headphoneDB(code: RegisterValue) -> Double { 12 - Double(code & 0x7F) / 2 }

    /// CHIP_DAC_VOL code (one channel): 0x3C = 0 dB ... 0xF0 = -90 dB; 0xFC mutes.
    public static func dacCode(_ dB: Double?) -> RegisterValue {
        guard let dB else { return 0xFC }
        return RegisterValue(0x3C + Swift.max(0, Swift.min(0xB4, Int((-dB * 2).rounded()))))
    }

    /// The DAC volume for a code, nil when muted (0xFC and above) or reserved (below 0x3C, read as 0 dB by
    /// the chip; this model calls it 0 dB too). Codes 0xF1...0xFB are -90.5...-95.5 dB on the grid.
    public static func dacDB(code: RegisterValue) -> Double? {
        let code = Int(code & 0xFF)
        if code >= 0xFC { return nil }
        return Double(0x3C - Swift.max(0x3C, code)) / 2
    }

    /// CHIP_LINE_OUT_VOL code (one channel) for `dB` on the line stage.
    public func lineOutCode(_ dB: Double) -> RegisterValue {
        RegisterValue(Swift.max(0, Swift.min(31, lineOutNominalCode + Int((-dB * 2).rounded()))))
    }

    public func lineOutDB(code: RegisterValue) -> Double { Double(lineOutNominalCode - Int(code & 0x1F)) / 2 }

    /// The split's output-stage code and DAC code for `setting` (muted: bottom of the amplifier, DAC muted).
    public func codes(_ setting: VolumeSetting) -> (analog: RegisterValue, dac: RegisterValue) {
        let analog = setting.output == .line ? lineOutCode(setting.stageDB[0]) : Self.headphoneCode(setting.stageDB[0])
        return (analog, Self.dacCode(setting.isMuted ? nil : setting.stageDB[1]))
    }

    // MARK: Input

    /// The input gain as register codes: mic preamp GAIN (0...3), ADC volume code (0...15) and M6DB.
    public struct InputGain: Hashable, Sendable {
        public var micGainCode: RegisterValue
        public var adcCode: RegisterValue
        public var adcMinus6dB: Bool

        public var micDB: Double { [0, 20, 30, 40][Int(micGainCode & 3)] }
        public var adcDB: Double { Double(adcCode & 0xF) * 1.5 - (adcMinus6dB ? 6 : 0) }
        /// Preamp plus ADC volume.
        public var totalDB: Double { micDB + adcDB }
    }

    /// The setting nearest `dB`: the microphone uses preamp and ADC volume together (-6...+62.5 dB), the
    /// line input the ADC volume only (-6...+22.5 dB). On a tie the larger preamp gain wins (less noise).
    public static func inputGain(_ dB: Double, microphone: Bool) -> InputGain {
        var best: (gain: InputGain, error: Double)?
        for micCode in microphone ? [RegisterValue(3), 2, 1, 0] : [0] {
            let mic = [0.0, 20, 30, 40][Int(micCode)]
            let wanted = Swift.max(adcStage.minimumDB, Swift.min(adcStage.maximumDB, dB - mic))
            let steps = Int(((wanted - adcStage.minimumDB) / adcStage.stepDB).rounded())
            let adc = adcStage.minimumDB + Double(steps) * adcStage.stepDB
            let gain = adc < 0
                ? InputGain(micGainCode: micCode, adcCode: RegisterValue(steps), adcMinus6dB: true)
                : InputGain(micGainCode: micCode, adcCode: RegisterValue(Int((adc / 1.5).rounded())), adcMinus6dB: false)
            let error = abs(gain.totalDB - dB)
            if best == nil || error < best!.error - 1e-9 { best = (gain, error) }
        }
        return best!.gain
    }
}
