import Codec8_24
import Queue

/// Which ReplayGain the player applies (MPD's `replay_gain_mode`): none, each track's own, or the album's so
/// an album keeps its loudness steps. Off by default, as in MPD.
enum ReplayGainMode: String, Hashable, Sendable, CaseIterable, Codable {
    case off, track, album
}

/// The gain a file plays at under a ReplayGain mode and preamp, with the ReplayGain 2.0 specification's
/// clipping prevention: never more than the peak allows (gain * peak <= 1.0).
struct AppliedReplayGain: Hashable, Sendable {
    /// The gain in dB (0 when the mode is off or the file has no gain tags).
    var decibels: Double
    /// Whether the peak lowered it below tag gain + preamp.
    var peakLimited: Bool
    /// Whether the file's tags gave a gain (false: played at unity).
    var tagged: Bool

    static let unity = AppliedReplayGain(decibels: 0, peakLimited: false, tagged: false)

    /// The preamp range MPD allows (`replaygain_preamp`, -15 ... 15 dB).
    static let preampRange = -15.0...15.0

    /// The gain for a file tagged `tags` under `mode`; album falls back to track when the album pair is
    /// missing, as the ReplayGain 2.0 specification says players should.
    init(mode: ReplayGainMode, preampDB: Double, tags: ReplayGain) {
        let chosen: (gain: Double?, peak: Double?) = switch mode {
        case .off: (nil, nil)
        case .track: (tags.trackGain, tags.trackPeak)
        case .album: tags.albumGain != nil ? (tags.albumGain, tags.albumPeak ?? tags.trackPeak) : (tags.trackGain, tags.trackPeak)
        }
        guard let gain = chosen.gain, gain.isFinite else {
            self = .unity
            return
        }
        let wanted = gain + (preampDB.isFinite ? preampDB : 0)
        // Clipping prevention: gain * peak <= 1.0, i.e. at most -20 log10(peak) dB.
        if let peak = chosen.peak, peak > 0, peak.isFinite {
            let ceiling = -Decibels.decibels(peak)
            if wanted > ceiling {
                self.init(decibels: ceiling, peakLimited: true, tagged: true)
                return
            }
        }
        self.init(decibels: wanted, peakLimited: false, tagged: true)
    }

    init(decibels: Double, peakLimited: Bool, tagged: Bool) {
        self.decibels = decibels
        self.peakLimited = peakLimited
        self.tagged = tagged
    }

    /// As an 8.24 gain (at most 8.24's range; 0 dB is exactly 1.0).
    var gain: Fixed824 { decibels == 0 ? .one : Decibels.gain(decibels) }

    /// For `status`: "-6.0 dB", "-1.2 dB (peak-limited)", "none (no tags)".
    var shown: String {
        guard tagged else { return "0 dB (no ReplayGain tags)" }
        return formatDecibels(decibels, decimals: 1) + (peakLimited ? " (peak-limited)" : "")
    }
}
