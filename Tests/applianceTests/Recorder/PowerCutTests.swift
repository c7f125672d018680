import Codec8_24
import Foundation
#if canImport(Glibc)
import Glibc
#endif
import Testing
import TestSupport
@testable import Queue
@testable import appliance

/// Power cuts while recording (issue 16, Deliver 2): the whole appliance (`appliance run --board simulated`, as
/// systemd starts it) records through its console and is SIGKILLed at seeded random points: in the middle of a
/// take, just after `record` (before or while the file is created), around the first commit, right after
/// `stop` (while the take is finalized) and, once more, while the next start is repairing. Each restart must
/// recover every take (no `cannot recover` line), every file must decode with an outside tool (ffmpeg for all;
/// sox, `flac -t`, opusinfo for their formats) and with our AudioFile, and a take must have lost at most the
/// commit interval (plus a buffer and a codec block: `allowedLoss`): what `status` said was written just before the
/// kill, less what plays after the restart.
///
/// `POWERCUT_RUNS` runs per format, `POWERCUT_SEED` the seed (printed on failure). By default 17 per format
/// (102 in all, about 2 minutes) against the release binary (`make test-release`), 3 against the debug build
/// (`make test-host`) and 2 under qemu-user (`make test-arm`), keeping all three within the 5 minutes
/// `make test` allows; `make powercut POWERCUT_RUNS=N` is the long run.
@Suite("Power cuts while recording")
struct PowerCutTests {
    /// The recorder's commit interval (TakeWriter.Output.commitSeconds).
    static let commitSeconds = TakeWriter.Output(type: .wave, fileFormat: .linearPCM(sampleRate: 48_000, channels: 2, bits: 16),
                                                 safetyTrack: false, names: RecordingNames(directory: "", fileExtension: "wav")).commitSeconds
    /// The most a cut may cost by construction: the commit interval, plus the capture buffer that takes the
    /// count past it (RecordingService.bufferSeconds), plus what a codec holds between packets (FLAC's and
    /// FFmpeg ALAC's 4,096-frame blocks, the largest; Opus's 20 ms frames are smaller).
    static let allowedLoss = commitSeconds + RecordingService.bufferSeconds + 4_096.0 / 48_000
    static let environment = ProcessInfo.processInfo.environment
    static let runs = Int(environment["POWERCUT_RUNS"] ?? "")
        ?? (environment["APPLIANCE_LAUNCHER"].map { !$0.isEmpty } == true ? 2 : environment["APPLIANCE_BINARY"] != nil ? 17 : 3)
    static let seed = UInt64(environment["POWERCUT_SEED"] ?? "") ?? 0x16B
    static let hasTools = ["/usr/bin/ffmpeg", "/usr/bin/sox", "/usr/bin/flac", "/usr/bin/opusinfo"]
        .allSatisfy { FileManager.default.isExecutableFile(atPath: $0) }

    /// Where the kill lands.
    enum KillPoint: String, CaseIterable {
        /// Anywhere in a take of up to 2.5 s.
        case midTake
        /// 0-40 ms after `record` answered: the file is being created, its header written.
        case takeStart
        /// Within 60 ms of the first commit (1 s of audio written).
        case commit
        /// 0-15 ms after `stop` was typed: the take is being finalized (trailer, sizes, close).
        case finalize
        /// Mid-take, and the next start is killed too, 0-60 ms in (while it repairs), before the one that checks.
        case recovery
    }

    /// What one run left to check.
    struct Cut {
        var file: String?
        var safety: String?
        var writtenSeconds: Double?
        var point: KillPoint
    }

    @Test(.enabled(if: PowerCutTests.hasTools, "ffmpeg, sox, flac and opus-tools check the recovered files"),
          .timeLimit(.minutes(10)), arguments: AudioFileKind.allCases)
    func everyTakeCutByAPowerLossIsRecoveredPlaysAndLosesAtMostTheCommitInterval(format: AudioFileKind) throws {
        var random = SeededGenerator(seed: Self.seed &+ UInt64(AudioFileKind.allCases.firstIndex(of: format)!) &* 0x9E37_79B9)
        let state = NSTemporaryDirectory() + "appliance-powercut-\(format.rawValue)-\(UUID().uuidString)"
        let recordings = state + "/recordings"
        defer { try? FileManager.default.removeItem(atPath: state) }
        var worstLoss = 0.0
        var points: [KillPoint: Int] = [:]
        var daemon = try Self.start(state)
        for run in 0..<Self.runs {
            let context = "format \(format.rawValue) run \(run) seed \(Self.seed)"
            let point = KillPoint.allCases.randomElement(using: &random)!
            points[point, default: 0] += 1
            let cut = try Self.cut(daemon, format: format, at: point, random: &random, context: context)
            _ = daemon.waitForExit(seconds: 10)
            if point == .recovery {
                let early = try DaemonProcess(arguments: ["--board", "simulated"], stateDirectory: state)
                usleep(UInt32.random(in: 0...60_000, using: &random))
                kill(early.pid, SIGKILL)
                _ = early.waitForExit(seconds: 10)
            }
            daemon = try Self.start(state)
            let problems = daemon.standardError.split(separator: "\n").filter { $0.contains("cannot recover") }
            #expect(problems.isEmpty, "\(context) (\(point)): \(problems)")
            for path in [cut.file, cut.safety].compactMap({ $0 }) where FileManager.default.fileExists(atPath: path) {
                let frames = try Self.checkPlays(path, format: format, context: "\(context) (\(point))")
                if let written = cut.writtenSeconds, path == cut.file {
                    let loss = max(0, written - Double(frames) / 48_000)
                    worstLoss = max(worstLoss, loss)
                    #expect(loss <= Self.allowedLoss,
                            "\(context) (\(point)): \(written) s written, \(Double(frames) / 48_000) s recovered from \(path)")
                }
            }
        }
        #expect(daemon.stop() == 0)
        // Every take in the directory, after all the cuts, opens and decodes.
        let names = (try? FileManager.default.contentsOfDirectory(atPath: recordings)) ?? []
        for name in names.sorted() { _ = try Self.checkPlays(recordings + "/" + name, format: format, context: "final \(name)") }
        let summary = KillPoint.allCases.map { "\($0.rawValue) \(points[$0] ?? 0)" }.joined(separator: ", ")
        // One line per format for RELIABILITY.md.
        print("power cuts \(format.rawValue): \(Self.runs) runs (\(summary)), \(names.count) files, worst loss \(worstLoss) s, seed \(Self.seed)")
    }

    /// A daemon on `state`, ready (a start repairs what the last cut left).
    static func start(_ state: String) throws -> DaemonProcess {
        let daemon = try DaemonProcess(arguments: ["--board", "simulated"], stateDirectory: state)
        _ = try #require(daemon.waitUntilReady(), "no READY=1; stderr: \(daemon.standardError)")
        return daemon
    }

    /// Records and kills at `point`: the take's files and what `status` said was written just before.
    static func cut(_ daemon: DaemonProcess, format: AudioFileKind, at point: KillPoint,
                    random: inout SeededGenerator, context: String) throws -> Cut {
        var line = "record --format \(format.rawValue) --channels \(Bool.random(using: &random) ? 2 : 1)"
        if let bits = format.bitDepths.randomElement(using: &random) { line += " --bits \(bits)" }
        let safety = Int.random(in: 0..<4, using: &random) == 0
        if safety { line += " --safety" }
        let reply = try #require(daemon.command(line), "\(context): no reply to \(line)")
        let started = try #require(reply.first { $0.hasPrefix("recording to ") }, "\(context): \(line): \(reply)")
        let name = String(started.dropFirst("recording to ".count))
        let recordings = daemon.stateDirectory + "/recordings/"
        let base = String(name.dropLast(format.fileExtension.count + 1))
        var cut = Cut(file: recordings + name, safety: safety ? recordings + base + "-safety." + format.fileExtension : nil,
                      point: point)
        switch point {
        case .takeStart:
            usleep(UInt32.random(in: 0...40_000, using: &random))
        case .commit:
            // The file opens with the first buffer (~50 ms); a commit follows each second of audio.
            usleep(UInt32(Self.commitSeconds * 1_000_000) + UInt32.random(in: 20_000...140_000, using: &random))
            cut.writtenSeconds = writtenSeconds(daemon)
        case .midTake, .recovery:
            usleep(UInt32.random(in: 50_000...2_500_000, using: &random))
            cut.writtenSeconds = writtenSeconds(daemon)
        case .finalize:
            usleep(UInt32.random(in: 200_000...1_500_000, using: &random))
            daemon.input.fileHandleForWriting.write(Data("stop\n".utf8))
            usleep(UInt32.random(in: 0...15_000, using: &random))
        }
        kill(daemon.pid, SIGKILL)
        return cut
    }

    /// Seconds the take's file holds as `status` says ("recording: NAME 1.23 s").
    static func writtenSeconds(_ daemon: DaemonProcess) -> Double? {
        guard let line = daemon.command("status", seconds: 5)?.first(where: { $0.hasPrefix("recording: ") }) else { return nil }
        let words = line.split(separator: " ")
        return words.count >= 3 ? Double(words[2]) : nil
    }

    /// The file decodes with the outside tools and with AudioFile, to the same number of frames; returns it.
    static func checkPlays(_ path: String, format: AudioFileKind, context: String) throws -> Int64 {
        // ffmpeg decodes every packet to mono 32-bit (4 bytes a frame); an error line is a damaged packet.
        let ffmpeg = try Subprocess.run("/usr/bin/ffmpeg", ["-nostdin", "-v", "error", "-i", path, "-ac", "1", "-f", "s32le", "-"])
        #expect(ffmpeg.status == 0 && ffmpeg.stderrText.isEmpty, "\(context): ffmpeg cannot decode \(path): \(ffmpeg.stderrText)")
        let ffmpegFrames = Int64(ffmpeg.stdout.count / 4)
        switch format {
        case .wav, .caf, .aiff:
            let sox = try Subprocess.run("/usr/bin/sox", [path, "-n", "stat"])
            #expect(sox.status == 0, "\(context): sox cannot read \(path): \(sox.stderrText)")
        case .flac:
            let flac = try Subprocess.run("/usr/bin/flac", ["-t", "-s", path])
            #expect(flac.status == 0, "\(context): flac -t fails on \(path): \(flac.stderrText)")
        case .opus:
            let info = try Subprocess.run("/usr/bin/opusinfo", [path])
            #expect(info.status == 0 && !info.stdoutText.contains("WARNING") && !info.stderrText.contains("WARNING"),
                    "\(context): opusinfo on \(path): \(info.stdoutText) \(info.stderrText)")
        case .alac:
            break   // no other ALAC tool on this host: ffmpeg above
        }
        let file = try AudioFile.open(path: path)
        defer { try? file.close() }
        let channels = file.channelCount
        var buffer = [Fixed824](repeating: .zero, count: 4096 * channels)
        var ours: Int64 = 0
        while true {
            let count = try buffer.withUnsafeMutableBufferPointer { try file.readFrames(into: $0) }
            if count == 0 { break }
            ours += Int64(count)
        }
        #expect(ours == ffmpegFrames, "\(context): AudioFile reads \(ours) frames of \(path), ffmpeg \(ffmpegFrames)")
        return ffmpegFrames
    }
}

/// SplitMix64 (Steele, Lea and Flood, "Fast splittable pseudorandom number generators", OOPSLA 2014): the
/// runs' choices, reproducible from the printed seed.
struct SeededGenerator: RandomNumberGenerator {
    private var state: UInt64
    init(seed: UInt64) { state = seed }
    mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }
}
