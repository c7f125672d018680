import Codec8_24
import Foundation
import TestSupport
import Testing
@testable import appliance

/// Media files deleted while the player plays them, on the real engine in manual rendering mode.
@Suite(.serialized) struct MediaFaultTests {
    /// The first and the last file of a three-track playlist deleted while the first plays. The first plays to
    /// its end as sox decodes it: the player holds it open, and unlink(2) frees a file only at its last close
    /// (POSIX). The second, still there, plays (the player opens the next file ahead, for a gapless join). The
    /// third is gone when its turn comes: the player stops, says which file in `EVENT error`, and counts it.
    @Test func aDeletedFilePlaysOutAndAMissingNextOneStopsThePlayer() throws {
        guard soxAvailable else { Issue.record("sox is needed"); return }
        let media = PlayerDirectory()
        try sox(["-n", "-r", "48000", "-c", "2", "-b", "16", media.file("1.wav"), "synth", "0.2", "sine", "440", "gain", "-3"])
        try sox(["-n", "-r", "48000", "-c", "2", "-b", "16", media.file("2.wav"), "synth", "0.2", "sine", "880", "gain", "-3"])
        try sox(["-n", "-r", "48000", "-c", "2", "-b", "16", media.file("3.wav"), "synth", "0.2", "sine", "660", "gain", "-3"])
        let reference = try soxSamples(media.file("1.wav"))
        let player = try PlaybackServiceTests.Harness(media: media.path)
        let faults = FaultCounters()
        player.service.faults = faults
        #expect(player.perform(.play(nil)).outcome == .ok)
        var out = try player.render(periods: 2)
        try FileManager.default.removeItem(atPath: media.file("1.wav"))
        try FileManager.default.removeItem(atPath: media.file("3.wav"))
        out += try player.render(periods: 120)
        #expect(reference.count == 2 * 9600)
        let playedOut = PlaybackServiceTests.asSox(out.prefix(reference.count)) == reference
        #expect(playedOut, "the deleted file plays to its end, sample for sample")
        #expect(player.events.contains("EVENT transport track 2/3 2.wav"), "\(player.events)")
        #expect(!player.events.contains("EVENT transport track 3/3 3.wav"), "\(player.events)")
        #expect(player.events.contains("EVENT error player: no such file: '3.wav'"), "\(player.events)")
        #expect(player.events.contains("EVENT transport stopped"), "\(player.events)")
        #expect(!player.service.isPlaying)
        #expect(faults[.mediaMissing] == 1)
        #expect(out.suffix(2 * 256 * 10).allSatisfy { $0 == .zero }, "silent once stopped")
    }
}
