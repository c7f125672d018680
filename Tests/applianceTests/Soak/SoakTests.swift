import Foundation
import HAL
import Testing
@testable import appliance
@testable import Queue

/// The soak: a seeded random walk of a day's use (`SoakWalk`) on the whole appliance on the manual clock
/// (`SoakRig`), the invariants checked after every step (`SoakInvariants`). Runs only when SOAK_HOURS is set
/// (`make test-soak`: a bounded run with fixed seeds; `make soak SOAK_HOURS=24 SEED=N`: the full day), so the
/// ordinary `swift test` stays short. SEED: one seed, or a comma-separated list (default 1).
@Suite(.serialized) struct SoakTests {
    static let environment = ProcessInfo.processInfo.environment
    static var hours: Double? { environment["SOAK_HOURS"].flatMap(Double.init) }
    static var seeds: [UInt64] {
        (environment["SEED"] ?? "1").split(separator: ",").compactMap { UInt64($0.trimmingCharacters(in: .whitespaces)) }
    }
    /// Steps before the resources' baseline is taken: the first takes, tracks, gestures and plugs have made
    /// the threads, caches and pools a running appliance keeps.
    static let warmUpSteps = 100
    /// Memory: the anonymous part of the resident size (heap, stacks), where leaked allocations stay, may grow
    /// this much from the end of the warm-up to the end of the run (a leak of one 4 KiB buffer per step, 6000
    /// steps a day, passes 8 MiB). The resident pages of mapped files are reported, not judged: they grow as
    /// code runs for the first time (a day of seed 2: 7.2 MiB of library pages after its warm-up, 4.0 MiB of
    /// anonymous memory) and the kernel may drop them at will; a leak cannot hide there.
    static let anonGrowthKiB = 8 * 1024

    @Test(.enabled(if: hours != nil, "set SOAK_HOURS (make test-soak, make soak)"), arguments: seeds)
    func aDayOfUseKeepsEveryInvariant(seed: UInt64) throws {
        let hours = try #require(Self.hours)
        // FFmpeg is dlopen'ed at its first use (an ALAC take, an AAC or M4A file): about 60 libraries, some 25 MiB
        // resident. Loaded here, before any baseline, so the memory check compares like with like whichever seed
        // runs first in the process (seed 2's day, run first, "grew" 31.9 MiB: FFmpeg loaded after its warm-up).
        _ = try? FFmpegLibrary.loaded(for: "the soak")
        let rig = try SoakRig()
        defer { rig.removeDirectory() }
        let walk = SoakWalk(rig: rig, seed: seed)
        let wallStart = Date()
        let cpuStart = Self.cpuSeconds()
        let start = rig.clock.now
        let end = start + .milliseconds(Int64(hours * 3_600_000))
        var first = Resources.sample()
        var warm: Resources.Sample?
        var peakRSS = first.rssKiB
        var peakAnon = first.anonKiB
        var nextProgress = start + .seconds(3600)
        while rig.clock.now < end {
            try walk.step()
            let sample = walk.counts.steps % 50 == 0 ? Resources.sample() : nil
            if let sample {
                peakRSS = max(peakRSS, sample.rssKiB)
                if warm != nil { peakAnon = max(peakAnon, sample.anonKiB) }
            }
            if walk.counts.steps == Self.warmUpSteps { first = Resources.sample(); warm = first; peakAnon = first.anonKiB }
            if walk.counts.steps >= Self.warmUpSteps && walk.counts.steps < Self.warmUpSteps + 100,
               walk.invariants.isIdle {
                let now = Resources.sample()
                let base = walk.invariants.baseline ?? (0, 0)
                walk.invariants.baseline = (max(base.fds, now.fds), max(base.threads, now.threads))
            }
            if walk.counts.steps == Self.warmUpSteps + 100 { walk.invariants.comparesResources = true }
            if rig.clock.now >= nextProgress {
                print("soak seed \(seed): \(SoakInvariants.clockText(rig.clock.now - .seconds(1))) simulated, "
                      + "\(walk.counts.steps) steps, \(Int(Date().timeIntervalSince(wallStart))) s wall")
                nextProgress = nextProgress + .seconds(3600)
            }
        }
        rig.shutdown()
        let last = Resources.sample()
        let totals = rig.totals
        let counts = walk.counts
        let simulated = Double((rig.clock.now - start).nanoseconds) / 3.6e12
        let report = """
            soak seed \(seed): \(String(format: "%.2f", simulated)) h simulated (\(String(format: "%.2f", Double(totals.rendered.nanoseconds) / 3.6e12)) h rendered in \(totals.periods) periods, \
            \(String(format: "%.2f", Double(totals.jumped.nanoseconds) / 3.6e12)) h jumped in \(totals.jumps) jumps); \
            \(counts.steps) steps: \(counts.commands) commands, \(counts.gestures) gestures, \(counts.jackEvents) jack events, \
            \(counts.takes) takes, \(walk.invariants.filesVerified) recordings decoded, \(counts.longIdles) long idles; \
            refusals \(counts.refusals.sorted { $0.key < $1.key }.map { "\($0.key) \($0.value)" }.joined(separator: ", ")); \
            xruns \(totals.xrunsAfterJumps) after jumps, \(totals.xrunsOutsideJumps) otherwise; \
            wall \(String(format: "%.1f", Date().timeIntervalSince(wallStart))) s, CPU \(String(format: "%.1f", Self.cpuSeconds() - cpuStart)) s; \
            RSS \(first.rssKiB) KiB after warm-up, \(last.rssKiB) KiB at the end, \(peakRSS) KiB peak (VmHWM \(Resources.status("VmHWM")) KiB); \
            RssAnon \(first.anonKiB) KiB after warm-up, \(last.anonKiB) KiB at the end, \(peakAnon) KiB peak; \
            RssFile \(first.fileKiB) KiB after warm-up, \(last.fileKiB) KiB at the end; \
            fds \(walk.invariants.baseline?.fds ?? -1) baseline, \(last.fds) at the end; \
            threads \(walk.invariants.baseline?.threads ?? -1) baseline, \(last.threads) at the end; \
            \(walk.invariants.idleChecks) idle checks; \(walk.failureCount) broken invariants
            """
        print(report)
        #expect(walk.failures.isEmpty, "\(walk.failures.joined(separator: "\n"))")
        #expect(totals.xrunsOutsideJumps == 0, "seed \(seed): the manual clock never starves the card")
        #expect(counts.steps >= Self.warmUpSteps + 100, "seed \(seed): too short a run to compare resources")
        #expect(walk.invariants.baseline != nil, "seed \(seed): no idle moment after the warm-up")
        #expect(last.anonKiB - first.anonKiB <= Self.anonGrowthKiB,
                "seed \(seed): anonymous memory grew \(last.anonKiB - first.anonKiB) KiB")
    }

    /// User and system CPU time of the process so far (getrusage(2)).
    static func cpuSeconds() -> Double {
        var usage = rusage()
        getrusage(RUSAGE_SELF.rawValue, &usage)
        return Double(usage.ru_utime.tv_sec + usage.ru_stime.tv_sec) + Double(usage.ru_utime.tv_usec + usage.ru_stime.tv_usec) / 1e6
    }
}
