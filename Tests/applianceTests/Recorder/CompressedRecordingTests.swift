import Codec8_24
import Foundation
import HAL
import Testing
import TestSupport
@testable import Queue
@testable import appliance

/// Takes recorded as FLAC, Opus and Apple Lossless through the real capture, input queue and writer thread,
/// read back by the reference decoders (flac -d, opusdec, ffmpeg). Expected samples are the generator's
/// closed-form sine (RecorderHarness.sample), which is also exactly what a WAV take holds
/// (RecordingServiceTests.aTimedRecordingHoldsExactlyTheGeneratorsSamples).
@Suite("Compressed recording", .serialized)
struct CompressedRecordingTests {
    static let take = "2026-11-24_19-45-03"

    /// Records `seconds` in `options`' format; returns the harness (the caller removes its directory).
    static func record(_ options: RecordOptions, periods: Int) throws -> RecorderHarness {
        let harness = try RecorderHarness()
        #expect(harness.service.perform(.start(options)).outcome == .ok)
        try harness.periods(periods)
        harness.settle()
        #expect(!harness.service.isRecording)
        return harness
    }

    /// What each format resolves to: container, extension, data format, encoder settings, and the size a
    /// frame is reckoned at for --split-mb (PCM's for the lossless codecs, their worst case; the bit rate's
    /// share for Opus: 64,000 b/s / 8 / 48,000 = 1/6 byte, so 1 MB holds 6,000,000 frames, 125 s).
    @Test func eachFormatResolvesToItsContainerAndFrameSize() throws {
        let harness = try RecorderHarness()
        defer { harness.removeDirectory() }
        let (flacPlan, flac) = try harness.service.resolve(RecordOptions(container: "flac", splitBytes: 1_000_000))
        #expect(flac.type == .flac && flac.names.fileExtension == "flac")
        #expect(flac.fileFormat == .compressed(.flac, sampleRate: 48_000, channels: 2, bitsPerChannel: 24))
        #expect(flacPlan.splitFrames == 166_666)   // 10^6 bytes / 6 bytes (24-bit stereo), whole frames
        let (opusPlan, opus) = try harness.service.resolve(RecordOptions(container: "opus", splitBytes: 1_000_000, bitRate: 64_000))
        #expect(opus.type == .ogg && opus.names.fileExtension == "opus" && opus.encoder.bitRate == 64_000)
        #expect(opus.fileFormat.formatID == .opus)
        #expect(opusPlan.splitFrames == 6_000_000)
        let (_, alac) = try harness.service.resolve(RecordOptions(container: "alac", bits: 16))
        #expect(alac.type == .m4a && alac.names.fileExtension == "m4a")
        #expect(alac.fileFormat == .compressed(.appleLossless, sampleRate: 48_000, channels: 2, bitsPerChannel: 16))
        // The settings file's format and bit rate are the defaults when `record` names none.
        var saved = ApplianceSettings()
        saved.recording.container = "opus"
        saved.recording.bitRate = 32_000
        let configured = try RecorderHarness(settings: saved)
        defer { configured.removeDirectory() }
        let (_, byDefault) = try configured.service.resolve(RecordOptions())
        #expect(byDefault.type == .ogg && byDefault.encoder.bitRate == 32_000)
    }

    /// 2 s at 48 kHz = 96,000 frames = 200 periods of 480; three more show nothing past the limit is kept.
    @Test
    func aFLACTakeIsBitExactToTheSignal() throws {
        let harness = try Self.record(RecordOptions(container: "flac", seconds: 2), periods: 203)
        defer { harness.removeDirectory() }
        #expect(harness.files == ["\(Self.take).flac"])
        let decoded = harness.file("decoded.wav")
        try ReferenceTool.run("flac", ["-s", "-d", "-o", decoded, harness.file("\(Self.take).flac")])
        let samples = try soxSamples(decoded)
        #expect(samples.count == 2 * 96_000)
        #expect(ReferenceTool.firstDifference(samples, expectedSamples(0..<96_000)) == nil)
        // The stream says 24-bit (the board default) and its exact length (STREAMINFO, RFC 9639 8.2).
        let info = String(decoding: try ReferenceTool.run("metaflac", ["--show-bps", "--show-total-samples",
                                                                          harness.file("\(Self.take).flac")]), as: UTF8.self)
        #expect(info == "24\n96000\n")
        #expect(harness.eventLines.last == "EVENT record stopped \(Self.take) 2.0")
    }

    @Test
    func aSixteenBitFLACTakeWithItsSafetyTrack() throws {
        let harness = try Self.record(RecordOptions(container: "flac", bits: 16, seconds: 0.5, safetyTrack: true), periods: 53)
        defer { harness.removeDirectory() }
        #expect(harness.files == ["\(Self.take)-safety.flac", "\(Self.take).flac"])
        let decoded = harness.file("decoded.wav")
        try ReferenceTool.run("flac", ["-s", "-d", "-o", decoded, harness.file("\(Self.take).flac")])
        let samples = try soxSamples(decoded)
        // 16-bit: the 24-bit signal rounded to 16 bits (Fixed824.int16: to nearest), as sox reads it (v << 16).
        let expected = (0..<Int64(24_000)).flatMap { n in
            (0..<2).map { c in Int32(Fixed824(int24: RecorderHarness.sample(n, c)).int16) << 16 }
        }
        #expect(ReferenceTool.firstDifference(samples, expected) == nil)
    }

    /// Opus is lossy: the frame count is exact (opusdec trims the pre-skip and the end padding, RFC 7845
    /// 4.2 and 4.4) and the decoded sine is within -30 dB of the signal (error RMS over signal RMS; a 1 kHz
    /// sine at 64 kb/s and up is coded far better than that).
    @Test
    func anOpusTakeAtTheChosenBitRateDecodesCloseToTheSignal() throws {
        let harness = try Self.record(RecordOptions(container: "opus", seconds: 2, bitRate: 96_000), periods: 203)
        defer { harness.removeDirectory() }
        #expect(harness.files == ["\(Self.take).opus"])
        let path = harness.file("\(Self.take).opus")
        let decoded = harness.file("decoded.wav")
        try ReferenceTool.run("opusdec", ["--quiet", "--rate", "48000", path, decoded])
        let samples = try soxSamples(decoded)
        #expect(samples.count == 2 * 96_000)
        let expected = expectedSamples(0..<96_000)
        var error = 0.0, signal = 0.0
        for i in 0..<min(samples.count, expected.count) {
            let e = Double(expected[i]) / 2_147_483_648, d = Double(samples[i]) / 2_147_483_648
            error += (d - e) * (d - e)
            signal += e * e
        }
        let ratio = 10 * log10(error / signal)
        #expect(ratio < -30, "error \(ratio) dB relative to the signal")
        // The bit rate asked for reached the encoder: about 96 kb/s (opusinfo's average; VBR varies).
        let info = String(decoding: try ReferenceTool.run("opusinfo", [path]), as: UTF8.self)
        let average = info.split(separator: "\n").first { $0.contains("Average bitrate") }
        #expect(average != nil)
        if let average, let number = average.split(separator: " ").compactMap({ Double($0) }).first {
            #expect(number > 60 && number < 140, "\(average)")
        }
    }

    @Test
    func anAppleLosslessTakeIsBitExactToTheSignal() throws {
        let harness = try Self.record(RecordOptions(container: "alac", seconds: 2), periods: 203)
        defer { harness.removeDirectory() }
        #expect(harness.files == ["\(Self.take).m4a"])
        // ffmpeg decodes ALAC to S32 (a 24-bit sample v as v << 8, as sox reads a 24-bit WAV).
        let samples = try ReferenceTool.ffmpegSamples(harness.file("\(Self.take).m4a"))
        #expect(samples.count == 2 * 96_000)
        #expect(ReferenceTool.firstDifference(samples, expectedSamples(0..<96_000)) == nil)
    }

    /// A FLAC take cut by a power loss (copied mid-recording, after a commit, and cut inside a frame) is
    /// repaired at start-up to its last complete frame: `flac -d` then reads it without an error, every
    /// sample equal to the signal's, and no more than the frame in progress (plus what followed the last
    /// commit) is lost.
    @Test
    func aFLACTakeCutByAPowerLossIsRecovered() throws {
        let harness = try RecorderHarness()
        defer { harness.removeDirectory() }
        #expect(harness.service.perform(.start(RecordOptions(container: "flac"))).outcome == .ok)
        // 1.5 s: past the 1 s commit.
        try harness.periods(150)
        let copy = try harness.copyCutByPowerLoss("\(Self.take).flac", losing: 100)   // inside the last frame
        let cut = harness.directory + "/cut"
        _ = harness.service.stopRecording()
        let lines = RecordingRecovery.run(directory: cut)
        #expect(lines.count == 1 && lines.first?.hasPrefix("recovered \(Self.take).flac: ") == true, "\(lines)")
        let decoded = harness.file("decoded.wav")
        try ReferenceTool.run("flac", ["-s", "-d", "-o", decoded, copy])
        let samples = try soxSamples(decoded)
        let frames = Int64(samples.count / 2)
        // At least the committed second (48,000 frames) minus a FLAC block (4,096 frames, libFLAC's default).
        #expect(frames >= 48_000 - 4_096 && frames < 72_000, "\(frames) frames kept")
        #expect(ReferenceTool.firstDifference(samples, expectedSamples(0..<frames)) == nil)
        #expect(RecordingRecovery.run(directory: cut).isEmpty, "nothing left to recover")
    }

    /// An Apple Lossless take cut by a power loss needs no repair: it is written as fragmented M4A (ISO/IEC
    /// 14496-12 movie fragments, one per commit), so ffmpeg reads the cut file to its last complete fragment,
    /// at least the second committed before the cut, every sample equal to the signal's.
    @Test
    func anAppleLosslessTakeCutByAPowerLossPlaysToItsLastCommit() throws {
        let harness = try RecorderHarness()
        defer { harness.removeDirectory() }
        #expect(harness.service.perform(.start(RecordOptions(container: "alac"))).outcome == .ok)
        try harness.periods(150)
        let copy = try harness.copyCutByPowerLoss("\(Self.take).m4a", losing: 100)
        _ = harness.service.stopRecording()
        #expect(RecordingRecovery.run(directory: harness.directory + "/cut").isEmpty)
        let samples = try ReferenceTool.ffmpegSamples(copy)
        let frames = Int64(samples.count / 2)
        // The committed second (48,000 frames) less at most two ALAC packets of 4,096 frames (FFmpeg's alac
        // encoder default): the one being filled at the commit and the one the encoder still held.
        #expect(frames >= 48_000 - 2 * 4_096 && frames < 72_000, "\(frames) frames kept")
        #expect(ReferenceTool.firstDifference(samples, expectedSamples(0..<frames)) == nil)
        // And the appliance itself opens it (the player, `info`).
        let file = try AudioFile.open(path: copy)
        #expect(file.frameCount == frames)
    }

    /// An Opus take cut by a power loss: Ogg pages delimit themselves (RFC 3533), but the stream has no
    /// end-of-stream page; start-up recovery ends it at its last complete page (issue 16) and says so, and
    /// opusdec reads the file to that page, at least the second committed before the cut.
    @Test
    func anOpusTakeCutByAPowerLossPlaysToItsLastPage() throws {
        let harness = try RecorderHarness()
        defer { harness.removeDirectory() }
        #expect(harness.service.perform(.start(RecordOptions(container: "opus"))).outcome == .ok)
        try harness.periods(150)
        let copy = try harness.copyCutByPowerLoss("\(Self.take).opus", losing: 100)
        _ = harness.service.stopRecording()
        let recovered = RecordingRecovery.run(directory: harness.directory + "/cut")
        #expect(recovered.count == 1 && recovered.first?.hasPrefix("recovered \(Self.take).opus: ") == true, "\(recovered)")
        #expect(RecordingRecovery.run(directory: harness.directory + "/cut").isEmpty, "a second start finds nothing to do")
        let decoded = harness.file("decoded.wav")
        try ReferenceTool.run("opusdec", ["--quiet", copy, decoded])
        let frames = try soxSamples(decoded).count / 2
        #expect(frames >= 48_000 && frames < 72_000, "\(frames) frames")
    }
}
