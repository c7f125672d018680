/// How the WM8960 splits an output level across its stages: the output PGA (headphone or speaker,
/// -73...+6 dB in 1 dB steps, zero-cross) takes the level rounded up to a whole dB, the DAC's digital
/// volume (-127...0 dB in 0.5 dB steps) takes the rest rounded up to half a dB, and what is left, in
/// (-0.5, 0] dB, goes to the 8.24 stage. Every stage only ever attenuates past the analog one, so the
/// software stage never boosts (no clipping), and the sum is the requested level exactly: the curve is the
/// identity, monotonic and without jumps.
public enum WM8960VolumeSplit {
    public static let outputStage = GainStage("output PGA", minimumDB: -73, maximumDB: 6, stepDB: 1, zeroCross: true)
    public static let dacStage = GainStage("DAC digital volume", minimumDB: -127, maximumDB: 0, stepDB: 0.5,
                                           softRamp: true)
    /// The lowest level the stages reach together; below it the output mutes.
    public static let minimumDB = outputStage.minimumDB + dacStage.minimumDB

    /// The split of `dB` (already capped at the board maximum, at most +6).
    public static func split(_ dB: Double, output: CodecOutput) -> VolumeSetting {
        let level = Swift.min(dB, outputStage.maximumDB)
        guard level >= minimumDB else {
            return VolumeSetting(output: output, levelDB: level, stageDB: [outputStage.minimumDB, dacStage.minimumDB],
                                 fineDB: 0, isMuted: true)
        }
        let analog = Swift.max(outputStage.minimumDB, level.rounded(.up))
        let rest = level - analog
        let digital = Swift.max(dacStage.minimumDB, (rest * 2).rounded(.up) / 2)
        return VolumeSetting(output: output, levelDB: level, stageDB: [analog, digital], fineDB: rest - digital,
                             isMuted: false)
    }

    /// R2/R3 or R40/R41 volume code: 0x30 = -73 dB ... 0x7F = +6 dB; 0x00 mutes.
    public static func outputCode(_ setting: VolumeSetting) -> RegisterValue {
        setting.isMuted ? 0 : RegisterValue(0x30 + Int(setting.stageDB[0] - outputStage.minimumDB))
    }

    /// R10/R11 code: 0x01 = -127 dB ... 0xFF = 0 dB; 0x00 mutes.
    public static func dacCode(_ setting: VolumeSetting) -> RegisterValue {
        setting.isMuted ? 0 : RegisterValue(0xFF + Int(setting.stageDB[1] * 2))
    }

    /// The output PGA's gain for a code, nil when muted.
    public static func outputDB(code: RegisterValue) -> Double? {
        code < 0x30 ? nil : Double(Int(code) - 0x30) + outputStage.minimumDB
    }

    /// The DAC volume's gain for a code, nil when muted.
    public static func dacDB(code: RegisterValue) -> Double? {
        code == 0 ? nil : Double(Int(code) - 0xFF) / 2
    }

    /// Input PGA (R0/R1): -17.25...+30 dB in 0.75 dB steps, code 0x00...0x3F.
    public static let inputStage = GainStage("input PGA", minimumDB: -17.25, maximumDB: 30, stepDB: 0.75,
                                             zeroCross: true)

    /// The input PGA code nearest `dB`, inside the range.
    public static func inputCode(_ dB: Double) -> RegisterValue {
        let steps = ((dB - inputStage.minimumDB) / inputStage.stepDB).rounded()
        return RegisterValue(Swift.max(0, Swift.min(63, steps)))
    }

    public static func inputDB(code: RegisterValue) -> Double {
        inputStage.minimumDB + Double(code & 0x3F) * inputStage.stepDB
    }
}
