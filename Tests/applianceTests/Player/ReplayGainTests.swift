import Testing
@testable import Queue
@testable import appliance

/// The gain a file plays at, from its tags, by the ReplayGain 2.0 specification: track or album gain plus the
/// preamp, album falling back to track, and clipping prevention (gain limited so that peak x gain <= 1.0).
@Suite("ReplayGain")
struct ReplayGainTests {
    @Test func theModeChoosesTheTagsAndAlbumFallsBackToTrack() {
        let tags = ReplayGain(trackGain: -6, trackPeak: 0.25, albumGain: -4, albumPeak: 0.5)
        #expect(AppliedReplayGain(mode: .off, preampDB: 0, tags: tags) == .unity)
        #expect(AppliedReplayGain(mode: .track, preampDB: 0, tags: tags).decibels == -6)
        #expect(AppliedReplayGain(mode: .album, preampDB: 0, tags: tags).decibels == -4)
        // No album pair: the track's.
        let trackOnly = ReplayGain(trackGain: -3.5, trackPeak: 0.5)
        #expect(AppliedReplayGain(mode: .album, preampDB: 0, tags: trackOnly).decibels == -3.5)
        // No tags at all: unity, and said so.
        let none = AppliedReplayGain(mode: .track, preampDB: 3, tags: ReplayGain())
        #expect(none == .unity && !none.tagged)
        // The preamp adds to the tagged gain.
        #expect(AppliedReplayGain(mode: .track, preampDB: 2, tags: tags).decibels == -4)
    }

    @Test func thePeakLimitsTheGainSoNothingClips() {
        // Peak 0.5 allows at most 20 log10(1/0.5) = +6.0206 dB (ReplayGain 2.0, clipping prevention).
        let loud = ReplayGain(trackGain: 9, trackPeak: 0.5)
        let applied = AppliedReplayGain(mode: .track, preampDB: 0, tags: loud)
        #expect(applied.peakLimited)
        #expect(abs(applied.decibels - 6.020_599_913) < 1e-9)
        #expect(abs(applied.gain.doubleValue * 0.5 - 1.0) < 1e-6)
        // Album mode limits by the album peak (the album's loudest sample), the track peak when it is missing.
        let album = ReplayGain(trackGain: 2, trackPeak: 0.25, albumGain: 3, albumPeak: 0.8)
        let byAlbum = AppliedReplayGain(mode: .album, preampDB: 0, tags: album)
        #expect(byAlbum.peakLimited && abs(byAlbum.decibels - 1.938_200_260) < 1e-9)   // -20 log10(0.8)
        // Under the limit: untouched. Without a peak tag: no limit (as MPD does).
        #expect(AppliedReplayGain(mode: .track, preampDB: 0, tags: ReplayGain(trackGain: 3, trackPeak: 0.5)).peakLimited == false)
        #expect(AppliedReplayGain(mode: .track, preampDB: 0, tags: ReplayGain(trackGain: 3)).decibels == 3)
        #expect(applied.shown == "+6.0 dB (peak-limited)")
    }
}
