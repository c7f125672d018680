import Foundation
import HAL
import TestSupport
@testable import appliance

/// What must hold after every step of the soak, each read from outside the part it checks where it can be:
/// - transport legal: the player's state one of PlayerState's three, with a file while not stopped; the
///   recorder's phase one of RecorderState's, "recording" only while the recorder says it records;
/// - no stuck LED: the record LED's GPIO line (the simulated board's "status" LED, GPIO26 active-high, its
///   board file) high exactly while a file is being written (RecordLED's rule), read back from the line;
/// - volume within the board's limits: the codec driver's level for each output at most the board file's
///   `max-db` (and, checked by the walk at each plug-in, headphones start at most at the headphone cap:
///   HeadphoneSafeLevel; the person may turn them up after);
/// - nothing leaked: open descriptors (/proc/self/fd) and threads (/proc/self/task) at idle moments no more
///   than at the first idle moments after the warm-up (above it at three idle moments in a row is a leak);
/// - no recording lost: every file the recorder has finished decodes with FFmpeg, without an error.
/// Memory is sampled (`Resources`) and bounded by the test.
final class SoakInvariants {
    let rig: SoakRig
    private let ledLine: Int
    private let maximumDB: Double
    /// Recordings checked with FFmpeg, and those still to check (written or being written).
    private(set) var verifiedRecordings: [String] = []
    private var seenRecordings: Set<String> = []
    private(set) var filesVerified = 0
    /// The most descriptors and threads seen at an idle moment during the warm-up; later idle moments may
    /// not exceed them.
    var baseline: (fds: Int, threads: Int)?
    /// Set once the baseline is complete: idle moments are compared with it from then on.
    var comparesResources = false
    private(set) var idleChecks = 0
    /// Idle moments in a row with more descriptors or threads than the baseline.
    private var overBaseline = 0

    init(rig: SoakRig) {
        self.rig = rig
        let config = rig.assembly.board.board.config
        let name = RecordLED.name(in: config.leds)
        var line = -1
        for led in config.leds where led.name == name { if case .gpio(let gpioLine, _) = led.kind { line = gpioLine } }
        ledLine = line
        maximumDB = config.volume.maximumDB
    }

    static func clockText(_ time: Timestamp) -> String {
        let seconds = time.nanoseconds / 1_000_000_000
        return "\(seconds / 3600)h\((seconds / 60) % 60)m\(seconds % 60)s"
    }

    /// Just after headphones were plugged in (the route following the jack): their level at most the cap.
    func checkPlugIn() -> [String] {
        guard let volume = rig.audio.volumeSetting, volume.output == .headphones, !volume.isMuted else { return [] }
        let cap = rig.daemon.settings.value.headphoneCapDB ?? HeadphoneSafeLevel.defaultDB
        return volume.levelDB > cap + 1e-9 ? ["headphones plugged in at \(volume.levelDB) dB, above the cap \(cap) dB"] : []
    }

    func forget(_ name: String) { verifiedRecordings.removeAll { $0 == name } }

    /// Every broken invariant, as one line each.
    func check() -> [String] {
        var problems: [String] = []
        let status = rig.daemon.statusLines
        let transport = status.first { $0.hasPrefix("player: ") }.map { String($0.dropFirst(8)) }
        if !["stopped", "playing", "paused"].contains(transport ?? "") {
            problems.append("player state '\(transport ?? "none")' is not one of stopped, playing, paused: \(status)")
        }
        if transport != "stopped" && !status.contains(where: { $0.hasPrefix("file: ") }) {
            problems.append("player \(transport ?? "?") without a file: \(status)")
        }
        if (transport == "playing") != rig.player.isPlaying {
            problems.append("status says '\(transport ?? "?")' but the player's isPlaying is \(rig.player.isPlaying)")
        }
        let phase = rig.recorder.statusLines.first.map { String($0.dropFirst("recorder: ".count)) } ?? ""
        if !["idle", "pre-roll standby", "armed", "recording", "stopping"].contains(phase) {
            problems.append("recorder phase '\(phase)' is not one of RecorderState's")
        }
        if (phase == "recording" || phase == "armed") != rig.recorder.isRecording {
            problems.append("recorder phase '\(phase)' but isRecording is \(rig.recorder.isRecording)")
        }
        if ledLine >= 0 {
            let lit = (try? rig.assembly.board.board.gpio.pinLevel(ledLine)) ?? false
            let shouldBeLit = phase == "recording"
            if lit != shouldBeLit {
                problems.append("record LED (GPIO\(ledLine)) \(lit ? "lit" : "dark") while the recorder is '\(phase)'")
            }
        }
        let codec = rig.assembly.board.board.codec.codec
        for output in codec.capabilities.outputs {
            let setting = codec.volume(of: output)
            if !setting.isMuted && setting.levelDB > maximumDB + 1e-9 {
                problems.append("\(output) volume \(setting.levelDB) dB above the board's maximum \(maximumDB) dB")
            }
        }
        // Before FFmpeg runs for this step: a child's descriptors are closed by Foundation's Process a moment
        // after it ends, on its own thread.
        if isIdle { problems += leaks() }
        problems += recordings()
        return problems
    }

    /// Nothing plays, pauses, records or stands by: the moment descriptors and threads are compared.
    var isIdle: Bool {
        rig.daemon.statusLines.contains("player: stopped") && !rig.recorder.isRecording
            && rig.recorder.statusLines.first == "recorder: idle"
    }

    private func leaks() -> [String] {
        idleChecks += 1
        let now = Resources.sample()
        guard comparesResources, let baseline else { return [] }
        // A leak stays; a descriptor or thread on its way out (a take's writer thread ending) does not: above
        // the baseline at three idle moments in a row is a leak.
        overBaseline = now.fds > baseline.fds || now.threads > baseline.threads ? overBaseline + 1 : 0
        guard overBaseline >= 3 else { return [] }
        return ["\(now.fds) descriptors and \(now.threads) threads at three idle moments in a row, \(baseline.fds) and "
                + "\(baseline.threads) after the warm-up: \(Resources.fdTargets())"]
    }

    /// Files the recorder has finished (not the take's current files) are decoded by FFmpeg once each.
    private func recordings() -> [String] {
        let directory = rig.paths.recordings
        let names = ((try? FileManager.default.contentsOfDirectory(atPath: directory)) ?? []).sorted()
        let current = Set(rig.recorder.currentTakePaths.map { ($0 as NSString).lastPathComponent })
        var problems: [String] = []
        for name in names where !seenRecordings.contains(name) && !current.contains(name) && !rig.recorder.isRecording {
            seenRecordings.insert(name)
            let path = directory + "/" + name
            do {
                let decoded = try Subprocess.run(try ReferenceTool.path("ffmpeg"),
                                                 ["-v", "error", "-nostdin", "-i", path, "-f", "null", "-"])
                if decoded.status != 0 || !decoded.stderr.isEmpty {
                    problems.append("recording \(name) does not decode: \(decoded.stderrText.prefix(300))")
                } else {
                    filesVerified += 1
                    verifiedRecordings.append(name)
                }
            } catch {
                problems.append("recording \(name): \(error)")
            }
            // The disk stays small over a day: a checked file beyond the last few is removed.
            if verifiedRecordings.count > 8 {
                try? FileManager.default.removeItem(atPath: directory + "/" + verifiedRecordings.removeFirst())
            }
        }
        return problems
    }
}

/// The process's resources, read from /proc (proc(5)): open descriptors, threads, resident memory and its
/// anonymous part (heap and stacks, without mapped files: where leaked allocations show).
enum Resources {
    struct Sample {
        var fds: Int
        var threads: Int
        var rssKiB: Int
        /// Anonymous resident memory (heap, stacks): where a leak of allocations shows.
        var anonKiB: Int
        /// Resident pages of mapped files (library code and data paged in at the first use of a path, which the
        /// kernel may drop and read again): grows as new paths run, bounded by the libraries' size; no leak.
        var fileKiB: Int
    }

    static func sample() -> Sample {
        let fds = ((try? FileManager.default.contentsOfDirectory(atPath: "/proc/self/fd")) ?? []).count
        let threads = ((try? FileManager.default.contentsOfDirectory(atPath: "/proc/self/task")) ?? []).count
        return Sample(fds: fds, threads: threads, rssKiB: status("VmRSS"), anonKiB: status("RssAnon"),
                      fileKiB: status("RssFile"))
    }

    /// A field of /proc/self/status in kB (VmRSS, VmHWM).
    static func status(_ field: String) -> Int {
        guard let text = try? String(contentsOfFile: "/proc/self/status", encoding: .utf8) else { return 0 }
        for line in text.split(separator: "\n") where line.hasPrefix(field + ":") {
            return Int(line.split(separator: " ").dropFirst().first ?? "") ?? 0
        }
        return 0
    }

    /// What each open descriptor is, for a leak's message.
    static func fdTargets() -> [String] {
        let names = ((try? FileManager.default.contentsOfDirectory(atPath: "/proc/self/fd")) ?? []).sorted()
        return names.map { name in
            "\(name)->" + ((try? FileManager.default.destinationOfSymbolicLink(atPath: "/proc/self/fd/" + name)) ?? "?")
        }
    }
}
