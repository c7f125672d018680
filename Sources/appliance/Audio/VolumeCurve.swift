import Codec8_24

/// The user's 0-100 volume scale on a board's dB range. 0 is silence; 1...100 are linear in dB, 0.5 dB a
/// point, from 49.5 dB under the board's cap up to the cap itself.
///
/// Why this curve: loudness follows the level in dB, not the amplitude, so equal steps in dB sound like equal
/// steps (a linear-amplitude scale crowds every audible change into its bottom tenth). The span and step are
/// Android's default music curve as ESP-ADF quotes it (`esp_codec_dev_vol_map_t`: 1 -> -49.5 dB, 33 -> -33.5,
/// 66 -> -17, 100 -> 0; shared/reference/peers-and-user-needs.md), which is exactly 0.5 dB a point, and 0.5 dB
/// is the step of the WM8960's and SGTL5000's DAC volumes, so every point lands on a codec setting.
struct VolumeCurve: Hashable, Sendable {
    /// The board's cap (`volume: max-db:`): 100 on the scale, and no setting goes above it.
    let maximumDB: Double

    /// dB per point of the scale.
    static let stepDB = 0.5
    /// Points from 1 to 100.
    static let span = 99.0 * stepDB
    /// The level that means silence: every codec stage muted. Decibels.silenceFloor (-144 dB, about a 24-bit
    /// word's range, 20·log10(2^-24) = -144.5 dB) is already where the 8.24 chain treats a signal as gone.
    static let silenceDB = Decibels.silenceFloor

    init(maximumDB: Double) { self.maximumDB = maximumDB }

    /// The lowest audible point (1).
    var floorDB: Double { maximumDB - Self.span }

    /// The level for `percent` (clamped to 0...100).
    func decibels(percent: Int) -> Double {
        let p = min(max(percent, 0), 100)
        return p == 0 ? Self.silenceDB : maximumDB - Double(100 - p) * Self.stepDB
    }

    /// The point nearest `dB`: 0 only for silence, 1 for anything audible below the floor.
    func percent(decibels dB: Double) -> Int {
        guard dB > Self.silenceDB else { return 0 }
        let points = 100 - ((maximumDB - dB) / Self.stepDB).rounded()
        return Int(min(max(points, 1), 100))
    }

    /// `dB` kept inside what the scale allows: at most the cap, and anything at or under silence is silence.
    func clamped(_ dB: Double) -> Double { dB <= Self.silenceDB ? Self.silenceDB : min(dB, maximumDB) }

    /// Whether `dB` means silence.
    static func isSilent(_ dB: Double) -> Bool { dB <= silenceDB }
}
