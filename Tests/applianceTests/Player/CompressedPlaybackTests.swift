import Codec8_24
import Foundation
import Queue
import TestSupport
import Testing
@testable import appliance

/// The player with compressed files (decoded off the render thread by DecodingFileFeed), on the real engine
/// in manual mode: FLAC albums play gaplessly and bit for bit as `flac -d` decodes them, a damaged file plays
/// to the damage and the player says so and moves on, and ReplayGain sets the level the closed form gives.
@Suite("Compressed playback", .serialized, .enabled(if: CodecParts.flac, "the FLAC part has not landed"))
struct CompressedPlaybackTests {
    typealias Harness = PlaybackServiceTests.Harness

    /// A 16-bit stereo WAV made by sox, encoded by the reference `flac` with `tags` (NAME=VALUE).
    static func flac(_ wav: String, _ path: String, tags: [String] = []) throws {
        try ReferenceTool.run("flac", ["-s", "-f", "-o", path] + tags.flatMap { ["-T", $0] } + [wav])
    }

    /// The reference decoder's samples of a FLAC file (flac -d to WAV, read by sox as S32).
    static func referenceDecode(_ path: String, in media: PlayerDirectory) throws -> [Int32] {
        let wav = media.file("decoded-\(UUID().uuidString).wav")
        try ReferenceTool.run("flac", ["-s", "-d", "-f", "-o", wav, path])
        defer { try? FileManager.default.removeItem(atPath: wav) }
        return try soxSamples(wav)
    }

    static func rms(_ samples: ArraySlice<Fixed824>) -> Double {
        (samples.reduce(0.0) { $0 + $1.doubleValue * $1.doubleValue } / Double(max(1, samples.count))).squareRoot()
    }

    // MARK: Gapless, bit-exact

    /// Two FLAC files cut from one sine play as `flac -d` decodes them, one after the other with nothing
    /// between (no gap, no click): the same queue carries both (same rate and channels).
    @Test func twoFLACTracksCutFromOneSinePlayGaplesslyAsFlacDecodesThem() throws {
        let media = PlayerDirectory()
        media.makeDirectory("album")
        let whole = media.file("whole.wav")
        try sox(["-n", "-r", "48000", "-c", "2", "-b", "16", whole, "synth", "1", "sine", "440", "gain", "-3"])
        try sox([whole, media.file("a.wav"), "trim", "0", "17761s"])
        try sox([whole, media.file("b.wav"), "trim", "17761s"])
        try Self.flac(media.file("a.wav"), media.file("album/1 a.flac"))
        try Self.flac(media.file("b.wav"), media.file("album/2 b.flac"))
        let reference = try Self.referenceDecode(media.file("album/1 a.flac"), in: media)
            + Self.referenceDecode(media.file("album/2 b.flac"), in: media)
        #expect(reference.count == 2 * 48000)

        let player = try Harness(media: media.path)
        let listing = player.perform(.list("album"))
        // 17761 frames = 0.37 s, 30239 = 0.63 s at 48 kHz: `ls` shows the lengths (m:ss.t, rounded down).
        #expect(listing == .ok(["album/1 a.flac  0:00.3", "album/2 b.flac  0:00.6"]))
        #expect(player.perform(.play("album")).outcome == .ok)
        let out = try player.render(periods: 200)
        let heard = PlaybackServiceTests.asSox(out.prefix(reference.count))
        #expect(ReferenceTool.firstDifference(heard, reference) == nil, "bit for bit, the join at sample \(2 * 17761)")
        #expect(player.events == ["EVENT transport playing album/1 a.flac", "EVENT transport track 1/2 album/1 a.flac",
                                  "EVENT transport track 2/2 album/2 b.flac", "EVENT transport stopped"])
    }

    /// Seek in a FLAC file lands on the exact frame (the decoder seeks by frame, not by packet).
    @Test func seekInAFLACFileLandsOnTheFrame() throws {
        let media = PlayerDirectory()
        try sox(["-n", "-r", "48000", "-c", "2", "-b", "16", media.file("sweep.wav"), "synth", "2", "sine", "200-6000", "gain", "-3"])
        try Self.flac(media.file("sweep.wav"), media.file("sweep.flac"))
        let reference = try Self.referenceDecode(media.file("sweep.flac"), in: media)
        let player = try Harness(media: media.path)
        #expect(player.perform(.play("sweep.flac")).outcome == .ok)
        _ = try player.render(periods: 10)
        #expect(player.perform(.seek(.absolute(seconds: 0.5))).outcome == .ok)
        let out = PlaybackServiceTests.asSox(try player.render(periods: 40)[...])
        // Frame 24000 + 480 (past the reset's 5 ms fades) appears once, and the file continues from it.
        let probe = Array(reference[(2 * 24480)..<(2 * 26480)])
        let found = stride(from: 0, to: out.count - probe.count, by: 2).filter { out[$0] == probe[0] && Array(out[$0..<($0 + probe.count)]) == probe }
        #expect(found.count == 1, "found at \(found)")
    }

    /// Three Opus files cut from one sine (opusenc each; pre-skip and end trimming keep their exact lengths,
    /// RFC 7845 4.2 and 4.4) play one after the other in one queue: every frame as opusdec decodes each file
    /// (float output, no dither), within 1e-4 of full scale (both libopus; 8.24 quantization is 6e-8), and
    /// exactly as many frames as the three files hold, so nothing is lost or added at the joins.
    @Test(.enabled(if: CodecParts.opus, "the Opus part has not landed"))
    func threeOpusTracksCutFromOneSinePlayGaplessly() throws {
        try albumCutFromOneSine(seconds: 1, cuts: [13_001, 31_337], fileExtension: "opus", tolerance: 1e-4) { part, opus, media in
            try ReferenceTool.run("opusenc", ["--quiet", "--bitrate", "128", part, opus])
            let decoded = media.file("decoded-\(UUID().uuidString).wav")
            try ReferenceTool.run("opusdec", ["--quiet", "--float", "--no-dither", opus, decoded])
            return try soxSamples(decoded)
        }
    }

    /// Three MP3 files cut from one sine (lame, whose LAME tag carries the encoder delay and padding) play in
    /// one queue, track after track with nothing lost or added at the joins: every frame as FFmpeg's gapless
    /// decode of each file gives it, within 2^-14 of full scale (two decoders' rounding: mpg123's integer
    /// output against FFmpeg's float decoder). The cuts are not on 1152-frame boundaries.
    @Test(.enabled(if: CodecParts.mp3, "the MP3 part has not landed"))
    func threeMP3TracksCutFromOneSinePlayGaplessly() throws {
        try albumCutFromOneSine(seconds: 1.5, cuts: [23_000, 47_111], fileExtension: "mp3", tolerance: 1.0 / 16384) { part, mp3, _ in
            try ReferenceTool.run("lame", ["--quiet", "-V2", part, mp3])
            return try ReferenceTool.ffmpegSamples(mp3)
        }
    }

    /// A 48 kHz stereo sine of `seconds` cut at `cuts` into three tracks, each encoded by `encode` (part WAV,
    /// output path, media directory), which returns the reference decoder's samples of it; the album played
    /// through one queue must be those samples one after the other within `tolerance` of full scale, exactly
    /// as long, and silent after.
    func albumCutFromOneSine(seconds: Double, cuts: [Int], fileExtension: String, tolerance: Double,
                             encode: (String, String, PlayerDirectory) throws -> [Int32]) throws {
        let media = PlayerDirectory()
        media.makeDirectory("album")
        let whole = media.file("whole.wav")
        try sox(["-n", "-r", "48000", "-c", "2", "-b", "16", whole, "synth", "\(seconds)", "sine", "440", "gain", "-6"])
        let edges = [0] + cuts + [Int(seconds * 48000)]
        var reference: [Int32] = []
        for index in 0..<(edges.count - 1) {
            let part = media.file("part\(index).wav")
            try sox([whole, part, "trim", "\(edges[index])s", "\(edges[index + 1] - edges[index])s"])
            let samples = try encode(part, media.file("album/\(index + 1).\(fileExtension)"), media)
            #expect(samples.count == 2 * (edges[index + 1] - edges[index]), "the reference decode keeps part \(index)'s length")
            reference += samples
        }
        let player = try Harness(media: media.path)
        #expect(player.perform(.play("album")).outcome == .ok)
        let out = try player.render(periods: Int(seconds * 48000) / 256 + 30)
        let tracks = (1...3).map { "EVENT transport track \($0)/3 album/\($0).\(fileExtension)" }
        #expect(player.events == ["EVENT transport playing album/1.\(fileExtension)"] + tracks + ["EVENT transport stopped"])
        let heard = PlaybackServiceTests.asSox(out.prefix(reference.count))
        var worst = 0.0, worstAt = 0
        for i in 0..<reference.count {
            let difference = abs(Double(heard[i]) - Double(reference[i])) / 2_147_483_648
            if difference > worst { (worst, worstAt) = (difference, i) }
        }
        #expect(worst <= tolerance, "largest difference \(worst) at sample \(worstAt) (joins at frames \(cuts))")
        // After the last frame: silence (the queue ended; nothing was added).
        #expect(out[reference.count..<(reference.count + 2 * 256)].allSatisfy { abs($0.doubleValue) < 1e-6 })
    }

    // MARK: Damage

    /// A FLAC file cut short plays up to the damage; the player says so (EVENT error with the decoder's
    /// message) and goes on with the next track.
    @Test func aDamagedFilePlaysToTheDamageThenThePlayerSaysSoAndMovesOn() throws {
        let media = PlayerDirectory()
        media.makeDirectory("list")
        try sox(["-n", "-r", "48000", "-c", "2", "-b", "16", media.file("one.wav"), "synth", "1", "sine", "440", "gain", "-3"])
        try Self.flac(media.file("one.wav"), media.file("list/1.flac"))
        try sox(["-n", "-r", "48000", "-c", "2", "-b", "16", media.file("list/2.wav"), "synth", "0.2", "sine", "880", "gain", "-3"])
        // Cut at half its bytes: STREAMINFO still promises 48000 frames.
        let path = media.file("list/1.flac")
        let size = try #require(try FileManager.default.attributesOfItem(atPath: path)[.size] as? Int)
        let handle = try FileHandle(forWritingTo: URL(fileURLWithPath: path))
        try handle.truncate(atOffset: UInt64(size / 2))
        try handle.close()
        let reference = try soxSamples(media.file("one.wav"))

        let player = try Harness(media: media.path)
        #expect(player.perform(.play("list")).outcome == .ok)
        let out = try player.render(periods: 300)
        let events = player.events
        let damage = try #require(events.first { $0.hasPrefix("EVENT error player: 'list/1.flac' is damaged after ") }, "\(events)")
        #expect(damage.hasSuffix("; playing on"), "\(damage)")
        #expect(events.contains("EVENT transport track 2/2 list/2.wav"))
        #expect(events.last == "EVENT transport stopped")
        // What came before the damage is the file's audio: the first 0.2 s, bit for bit.
        let first = PlaybackServiceTests.asSox(out.prefix(2 * 9600))
        #expect(ReferenceTool.firstDifference(first, Array(reference.prefix(2 * 9600))) == nil)
    }

    // MARK: ReplayGain

    /// A sine of amplitude 0.5 (RMS 0.5/sqrt(2), closed form) tagged by the reference encoder with a track
    /// and an album gain; the level heard in the middle of the file, against 10^(gain/20) of that.
    func heardRMS(tags: [String], mode: ReplayGainMode, preampDB: Double = 0) throws -> (rms: Double, peak: Double, status: [String]) {
        let media = PlayerDirectory()
        // sox: amplitude 1 less 6.0206 dB = 0.5 (20 log10 0.5 = -6.0206).
        try sox(["-n", "-r", "48000", "-c", "2", "-b", "24", media.file("sine.wav"), "synth", "1", "sine", "1000", "gain", "-6.0206"])
        try Self.flac(media.file("sine.wav"), media.file("sine.flac"), tags: tags)
        var settings = ApplianceSettings()
        settings.replayGain = mode
        settings.replayGainPreampDB = preampDB
        let player = try Harness(media: media.path, settings: settings)
        #expect(player.perform(.play("sine.flac")).outcome == .ok)
        let out = try player.render(periods: 100)
        let status = player.service.statusLines
        // From 0.1 s (past the fade-in) to 0.5 s.
        let middle = out[(2 * 4800)..<(2 * 24000)]
        return (Self.rms(middle), middle.map { abs($0.doubleValue) }.max() ?? 0, status)
    }

    static let sineRMS = 0.5 / 2.0.squareRoot()

    @Test func aTrackTaggedMinusSixDecibelsPlaysSixDecibelsLower() throws {
        let tags = ["REPLAYGAIN_TRACK_GAIN=-6.00 dB", "REPLAYGAIN_TRACK_PEAK=0.500000"]
        let off = try heardRMS(tags: tags, mode: .off)
        #expect(abs(20 * log10(off.rms / Self.sineRMS)) < 0.01, "off: unity, \(off.rms)")
        let track = try heardRMS(tags: tags, mode: .track)
        #expect(abs(20 * log10(track.rms / Self.sineRMS) - -6) < 0.01, "track: -6 dB, \(track.rms)")
        #expect(track.status.contains("replaygain: track, applied -6.0 dB"), "\(track.status)")
        // The preamp adds: -6 + 2 = -4 dB.
        let preamp = try heardRMS(tags: tags, mode: .track, preampDB: 2)
        #expect(abs(20 * log10(preamp.rms / Self.sineRMS) - -4) < 0.01)
    }

    /// +12 dB asked, but the peak (0.5) allows only +6.02 dB (ReplayGain 2.0 clipping prevention): the sine
    /// reaches full scale and no further.
    @Test func theGainIsLimitedSoThePeakDoesNotClip() throws {
        let loud = try heardRMS(tags: ["REPLAYGAIN_TRACK_GAIN=+12.00 dB", "REPLAYGAIN_TRACK_PEAK=0.500000"], mode: .track)
        #expect(abs(20 * log10(loud.rms / Self.sineRMS) - 6.0206) < 0.01, "\(loud.rms)")
        #expect(loud.peak <= 1.0 && loud.peak > 0.999, "peak \(loud.peak)")
        #expect(loud.status.contains("replaygain: track, applied +6.0 dB (peak-limited)"), "\(loud.status)")
    }

    /// Two tracks of one album, gaplessly joined, with different track gains (-6 and -12 dB): each plays at
    /// its own level from its own frames on, and the change at the join (frame 24,012: 500.25 cycles, at the
    /// sine's crest, where a step in gain would show most) is a 10 ms ramp, not a step. Closed
    /// form: a sine of amplitude A at f Hz moves at most A 2 pi f / fs per sample (0.5 x 2 pi x 1000 / 48000 =
    /// 0.0654 at full level); the ramp from 10^(-6/20) to 10^(-12/20) over 480 frames adds at most
    /// 0.5 x (0.501 - 0.251) / 480 = 0.00026 a sample.
    @Test func gaplessTracksOfDifferentGainsChangeLevelWithoutAClick() throws {
        let media = PlayerDirectory()
        media.makeDirectory("album")
        try sox(["-n", "-r", "48000", "-c", "2", "-b", "24", media.file("sine.wav"), "synth", "1", "sine", "1000", "gain", "-6.0206"])
        try sox([media.file("sine.wav"), media.file("a.wav"), "trim", "0", "24012s"])
        try sox([media.file("sine.wav"), media.file("b.wav"), "trim", "24012s"])
        try Self.flac(media.file("a.wav"), media.file("album/1.flac"), tags: ["REPLAYGAIN_TRACK_GAIN=-6 dB"])
        try Self.flac(media.file("b.wav"), media.file("album/2.flac"), tags: ["REPLAYGAIN_TRACK_GAIN=-12 dB"])
        var settings = ApplianceSettings()
        settings.replayGain = .track
        let player = try Harness(media: media.path, settings: settings)
        #expect(player.perform(.play("album")).outcome == .ok)
        let out = try player.render(periods: 200)
        #expect(player.events.contains("EVENT transport track 2/2 album/2.flac"))
        #expect(player.events.filter { $0.hasPrefix("EVENT transport playing") }.count == 1, "one queue: \(player.events)")
        let before = Self.rms(out[(2 * 4800)..<(2 * 24000)])
        let after = Self.rms(out[(2 * 25012)..<(2 * 47012)])
        #expect(abs(20 * log10(before / Self.sineRMS) - -6) < 0.01, "\(before)")
        #expect(abs(20 * log10(after / Self.sineRMS) - -12) < 0.01, "\(after)")
        let left = stride(from: 2 * 23000, to: 2 * 25000, by: 2).map { out[$0].doubleValue }
        let steepest = zip(left, left.dropFirst()).map { abs($1 - $0) }.max() ?? 1
        #expect(steepest < 0.0654 * 0.5012 + 0.0003, "largest step \(steepest) around the join")
    }

    @Test func albumModeUsesTheAlbumGainAndFallsBackToTheTracks() throws {
        let both = ["REPLAYGAIN_TRACK_GAIN=-6.00 dB", "REPLAYGAIN_TRACK_PEAK=0.5", "REPLAYGAIN_ALBUM_GAIN=-10.00 dB",
                    "REPLAYGAIN_ALBUM_PEAK=0.6"]
        let album = try heardRMS(tags: both, mode: .album)
        #expect(abs(20 * log10(album.rms / Self.sineRMS) - -10) < 0.01)
        let trackOnly = try heardRMS(tags: ["REPLAYGAIN_TRACK_GAIN=-3.00 dB"], mode: .album)
        #expect(abs(20 * log10(trackOnly.rms / Self.sineRMS) - -3) < 0.01)
    }
}
