import Foundation
import HAL
import Testing
import TestSupport
@testable import Queue
@testable import appliance

/// Power cuts and full disks: a take copied mid-recording (the bytes the disk held at that instant, header
/// from the last commit) and cut mid-frame is recovered at start-up and read by sox; a recording on a full
/// tmpfs stops with its file finalized.
@Suite("Recording recovery", .serialized)
struct RecordingRecoveryTests {
    static let take = "2026-11-24_19-45-03"

    @Test(arguments: ["wav", "caf", "aiff"])
    func aTakeCutOffByAPowerLossIsRecoveredAndPlays(container: String) throws {
        let harness = try RecorderHarness()
        defer { harness.removeDirectory() }
        #expect(harness.service.perform(.start(RecordOptions(container: container))).outcome == .ok)
        // 70 periods = 33,600 frames, less than the 1 s commit interval: the header still says 0 frames.
        try harness.periods(70)
        // The power cut: the last 5 bytes (less than one 6-byte frame) never reached the disk.
        let copy = try harness.copyCutByPowerLoss("\(Self.take).\(container)", losing: 5)
        let cut = harness.directory + "/cut"
        _ = harness.service.stopRecording()
        // 33,600 frames with the last cut short: 33,599 whole frames, 0.69998 s at 48 kHz.
        #expect(RecordingRecovery.run(directory: cut) == ["recovered \(Self.take).\(container): 0.7 s"])
        let samples = try soxSamples(copy)
        #expect(samples == expectedSamples(0..<33_599))
        // A second start-up finds nothing more to recover.
        #expect(RecordingRecovery.run(directory: cut).isEmpty)
    }

    @Test func aFileCutInsideItsHeaderIsReportedNotHidden() throws {
        let directory = NSTemporaryDirectory() + "recorder-recovery-" + UUID().uuidString
        try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: directory) }
        FileManager.default.createFile(atPath: directory + "/broken.wav", contents: Data("RIFF".utf8))
        FileManager.default.createFile(atPath: directory + "/notes.txt", contents: Data("not audio".utf8))
        let lines = RecordingRecovery.run(directory: directory)
        #expect(lines.count == 1)
        #expect(lines.first?.hasPrefix("cannot recover broken.wav") == true)
    }

    /// Issue 16 (power cuts, a kill just after `record`): an Ogg Opus take cut before its first audio page
    /// (the ID and comment header pages only, RFC 7845 section 3) is not playable (ffmpeg: "End of file");
    /// the start-up removes it and says so. A cut Opus take with audio pages, and a whole one, are left alone.
    @Test func anOpusTakeCutBeforeItsFirstAudioPageIsRemovedAndSaidSo() throws {
        let directory = NSTemporaryDirectory() + "recorder-recovery-" + UUID().uuidString
        try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let wav = directory + "/source.wav"
        try ReferenceTool.run("sox", ["-n", "-r", "48000", "-c", "2", "-b", "16", wav, "synth", "2", "sine", "1000"])
        let whole = directory + "/whole.opus"
        try ReferenceTool.run("opusenc", ["--quiet", wav, whole])
        try FileManager.default.removeItem(atPath: wav)
        let bytes = try Data(contentsOf: URL(fileURLWithPath: whole))
        // Ogg pages begin with "OggS" (RFC 3533 section 6): the third page is the first audio page.
        let capture = Data("OggS".utf8)
        var pages: [Int] = []
        var from = bytes.startIndex
        while let found = bytes.range(of: capture, in: from..<bytes.endIndex) {
            pages.append(found.lowerBound)
            from = found.upperBound
        }
        try #require(pages.count > 4, "opusenc wrote \(pages.count) pages")
        try bytes[..<pages[2]].write(to: URL(fileURLWithPath: directory + "/headers-only.opus"))
        try bytes[..<(pages[4] + 10)].write(to: URL(fileURLWithPath: directory + "/cut.opus"))
        #expect(RecordingRecovery.run(directory: directory) == ["removed headers-only.opus: cut before any audio reached the disk"])
        #expect(!FileManager.default.fileExists(atPath: directory + "/headers-only.opus"))
        #expect(FileManager.default.fileExists(atPath: directory + "/cut.opus"))
        #expect(FileManager.default.fileExists(atPath: whole))
    }

    @Test func aRecordingOnAFullDiskStopsWithItsFileFinalized() throws {
        // A 1 MiB tmpfs (needs root, as the test host runs): 24-bit stereo at 48 kHz is 288,000 bytes a
        // second, so the disk fills after about 3.6 s of frames.
        let mountPoint = NSTemporaryDirectory() + "recorder-full-" + UUID().uuidString
        try FileManager.default.createDirectory(atPath: mountPoint, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: mountPoint) }
        let mount = try Subprocess.run("/bin/mount", ["-t", "tmpfs", "-o", "size=1m", "tmpfs", mountPoint])
        guard mount.status == 0 else {
            Issue.record("cannot mount a tmpfs here (\(mount.stderrText)); the free-space stop is covered by the threshold test")
            return
        }
        defer { _ = try? Subprocess.run("/bin/umount", [mountPoint]) }
        var settings = ApplianceSettings()
        settings.recording.minimumFreeBytes = 0    // no threshold: the write itself meets ENOSPC
        let harness = try RecorderHarness(directory: mountPoint, settings: settings)
        #expect(harness.service.perform(.start(RecordOptions())).outcome == .ok)
        var periods = 0
        while harness.service.isRecording && periods < 1_000 {
            try harness.periods(1)
            periods += 1
        }
        harness.settle()
        #expect(!harness.service.isRecording, "stopped by itself")
        #expect(periods < 500, "the disk filled after \(periods) periods")
        #expect(harness.eventLines.contains("EVENT record disk-full"))
        #expect(harness.eventLines.last?.hasPrefix("EVENT record stopped \(Self.take) ") == true)
        // Finalized: the header's sizes cover every whole frame written, sox reads them, each equal to the
        // generator's. (The write that met ENOSPC may leave part of a buffer after the data, which the
        // header does not count.)
        let path = harness.file("\(Self.take).wav")
        let frames = try AudioFile.open(path: path).frameCount
        let samples = try soxSamples(path)
        #expect(samples.count == Int(frames) * 2)
        #expect(samples.count > 2 * 48_000 * 3, "over 3 s of the 3.6 s that fit were kept")
        #expect(samples == expectedSamples(0..<frames))
    }
}
