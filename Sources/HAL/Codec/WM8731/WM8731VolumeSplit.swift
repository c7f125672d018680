import Codec8_24

/// How the WM8731 splits an output level: it has no DAC digital volume, so the headphone amplifier
/// (-73...+6 dB in 1 dB steps, zero-cross) takes the level rounded up to a whole dB and the rest, in
/// (-1, 0] dB, goes to the 8.24 stage. The software stage never boosts (no clipping) and the sum is the
/// requested level exactly. Below the amplifier's range (a level that would round up below -73 dB) the
/// output mutes.
public enum WM8731VolumeSplit {
    public static let headphoneStage = GainStage("headphone amplifier", minimumDB: -73, maximumDB: 6, stepDB: 1,
                                                 zeroCross: true)
    /// The lowest level that still plays: -73 dB on the amplifier, just under -1 dB in software.
    public static let minimumDB = headphoneStage.minimumDB

    /// The split of `dB` (already capped at the board maximum).
    public static func split(_ dB: Double, output: CodecOutput) -> VolumeSetting {
        let level = Swift.min(dB, headphoneStage.maximumDB)
        let analog = level.rounded(.up)
        guard analog >= headphoneStage.minimumDB else {
            return VolumeSetting(output: output, levelDB: level, stageDB: [headphoneStage.minimumDB], fineDB: 0,
                                 isMuted: true)
        }
        return VolumeSetting(output: output, levelDB: level, stageDB: [analog], fineDB: level - analog, isMuted: false)
    }

    /// R2/R3 volume code: 0x30 = -73 dB ... 0x79 = 0 dB ... 0x7F = +6 dB; 0x00 mutes.
    public static func headphoneCode(_ setting: VolumeSetting) -> RegisterValue {
        setting.isMuted ? 0 : RegisterValue(0x30 + Int(setting.stageDB[0] - headphoneStage.minimumDB))
    }

    /// The amplifier's gain for a code, nil when muted (0x2F and below).
    public static func headphoneDB(code: RegisterValue) -> Double? {
        code < 0x30 ? nil : Double(Int(code) - 0x30) + headphoneStage.minimumDB
    }

    /// Line input volume (R0/R1): -34.5...+12 dB in 1.5 dB steps, code 0x00...0x1F.
    public static let lineInputStage = GainStage("line input", minimumDB: -34.5, maximumDB: 12, stepDB: 1.5,
                                                 zeroCross: false)

    /// The line input code nearest `dB`, inside the range.
    public static func lineInputCode(_ dB: Double) -> RegisterValue {
        let steps = ((dB - lineInputStage.minimumDB) / lineInputStage.stepDB).rounded()
        return RegisterValue(Swift.max(0, Swift.min(31, steps)))
    }

    public static func lineInputDB(code: RegisterValue) -> Double {
        lineInputStage.minimumDB + Double(code & WM8731Bits.lineInVolume) * lineInputStage.stepDB
    }

    /// The microphone path's only gain: MICBOOST, 0 or +20 dB.
    public static let micStage = GainStage("mic boost", minimumDB: 0, maximumDB: 20, stepDB: 20, canMute: true)
}
