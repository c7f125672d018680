import Codec8_24

/// How the PCM512x splits the line output's level across its two stages (datasheet "Digital volume
/// control" and page 1 register 2):
///
/// - the analog gain, 0 dB or -6 dB (the coarse stage): -6 dB at or below -6 dB, else 0 dB, so quiet
///   levels leave the DAC's digital headroom alone and lower the analog noise with the signal;
/// - the digital volume, +24...-103 dB in 0.5 dB steps and mute (code 255), which ramps by itself
///   (1 dB a sample by default, register 0x3F), takes the rest rounded up to half a dB;
/// - what is left, in (-0.5, 0] dB, goes to the 8.24 stage.
///
/// The codec part is the level rounded up to half a dB, whichever analog gain is chosen, so the curve is
/// monotonic without jumps and `codecDB + fineDB` is the requested level exactly. Below -109 dB (both
/// stages at their minimum) the output mutes.
public enum PCM512xVolumeSplit {
    public static let analogStage = GainStage("analog gain", minimumDB: -6, maximumDB: 0, stepDB: 6, canMute: false)
    public static let digitalStage = GainStage("digital volume", minimumDB: -103, maximumDB: 24, stepDB: 0.5,
                                               softRamp: true)
    /// The lowest level that still plays.
    public static let minimumDB = analogStage.minimumDB + digitalStage.minimumDB
    /// At or below this level the analog stage attenuates by 6 dB.
    public static let analogThresholdDB = -6.0

    /// The digital volume code that mutes.
    public static let muteCode: RegisterValue = 0xFF

    /// The split of `dB` (already capped at the board maximum, at most +24).
    public static func split(_ dB: Double, output: CodecOutput = .line) -> VolumeSetting {
        let level = Swift.min(dB, digitalStage.maximumDB)
        let codec = (level * 2).rounded(.up) / 2
        guard codec >= minimumDB else {
            return VolumeSetting(output: output, levelDB: level, stageDB: [analogStage.minimumDB, digitalStage.minimumDB],
                                 fineDB: 0, isMuted: true)
        }
        let analog = level <= analogThresholdDB ? analogStage.minimumDB : analogStage.maximumDB
        return VolumeSetting(output: output, levelDB: level, stageDB: [analog, codec - analog], fineDB: level - codec,
                             isMuted: false)
    }

    /// P0 R61/R62 code: 0 = +24 dB, 48 = 0 dB, 254 = -103 dB, 255 mutes.
    public static func digitalCode(_ setting: VolumeSetting) -> RegisterValue {
        setting.isMuted ? muteCode : RegisterValue(48 - Int(setting.stageDB[1] * 2))
    }

    /// P1 R2 value: LAGN and RAGN set for -6 dB.
    public static func analogGainValue(_ setting: VolumeSetting) -> RegisterValue {
        setting.stageDB[0] < 0 ? PCM512xBits.analogGainBoth : 0
    }

    /// The digital volume of a code, nil when muted.
    public static func digitalDB(code: RegisterValue) -> Double? {
        code >= muteCode ? nil : Double(48 - Int(code)) / 2
    }
}
