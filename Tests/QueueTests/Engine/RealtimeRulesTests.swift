import Codec8_24
import Foundation
import HAL
import RealtimeProbe
import Testing
@testable import Queue

/// The real-time rules, measured: the RealtimeProbe C target interposes the allocator, the blocking
/// primitives and the common system calls in this test executable and counts, per thread, the calls made
/// while a window is open. The engine opens the window (`RenderWindow`) around exactly the part of a period
/// that must obey the rules (the sources and the chain) and closes it before the PCM calls, which are the
/// device's own system calls.
@Suite("Real-time rules", .serialized)
struct RealtimeRulesTests {
    let clock = ManualClock(skipsSleeps: true)

    /// The engine over a simulated S16 stereo device, 48 kHz, 256-frame periods, with the full chain
    /// (10-band EQ preset, limiter, dither).
    func engine() throws -> RenderEngine {
        let hardware = SimulatedPCMHardware(name: "sim", formats: [.s16LE], rates: [48000], channels: 2...2,
                                            periodFrames: 16...4096, periodStep: 16, periodCounts: 2...8)
        let pcm = try SimulatedPCM(hardware: hardware, direction: .playback,
                                   configuration: PCMConfiguration(format: .s16LE, rate: 48000, channels: 2,
                                                                   periodFrames: 256, periodCount: 4),
                                   clock: clock, playback: .discard)
        return try RenderEngine(output: pcm, input: nil,
                                configuration: RenderEngine.Configuration(preset: EQPreset.named("Rock"),
                                                                          realtimePriority: nil, locksMemory: false))
    }

    /// Renders `periods` periods with the probe window around each render; returns the sums.
    func measure(_ engine: RenderEngine, periods: Int) throws -> realtime_probe_counts {
        let loop = try #require(engine.playback)
        loop.prepareToStart()
        for _ in 0..<100 { try loop.period() }       // warm-up: first-use metadata, the fades settle
        loop.window = RenderWindow(open: realtime_probe_resume, close: realtime_probe_pause)
        realtime_probe_reset()
        for _ in 0..<periods { try loop.period() }
        let counts = realtime_probe_read()
        realtime_probe_reset()
        loop.window = nil
        return counts
    }

    @Test func steadyStateRenderAllocatesLocksAndCallsNothing() throws {
        let engine = try engine()
        try engine.attach(SineSource(hertz: 1000, amplitude: 0.5, channels: 2))
        try engine.attach(SineSource(hertz: 441, amplitude: 0.3, channels: 1))
        let counts = try measure(engine, periods: 2000)
        #expect(counts.windows == 2000)          // the window really opened once per period
        #expect(counts.allocations == 0)
        #expect(counts.locks == 0)
        #expect(counts.systemCalls == 0)
        #expect(engine.outputPeriods == 2100)
    }

    /// The same on the engine's own render thread (default policy: with the simulated device's sleeps
    /// skipped it runs flat out, which must not happen at SCHED_FIFO on a shared machine), started and
    /// stopped as in use; the window's counts are published from that thread. The first periods (thread
    /// start, first-use metadata, the start fade) are left out by opening the window only from period 100.
    @Test func renderThreadAllocatesLocksAndCallsNothing() throws {
        let engine = try engine()
        try engine.attach(SineSource(hertz: 1000, amplitude: 0.5, channels: 2))
        try engine.attach(SineSource(hertz: 441, amplitude: 0.3, channels: 1))
        let loop = try #require(engine.playback)
        loop.prepareToStart()
        for _ in 0..<100 { try loop.period() }      // warm-up on this thread
        loop.window = RenderWindow(open: realtime_probe_resume, close: realtime_probe_pause_and_publish)
        _ = realtime_probe_take_published()
        try engine.start()
        let deadline = Date().addingTimeInterval(60)
        while engine.outputPeriods < 2200 && Date() < deadline { Thread.sleep(forTimeInterval: 0.002) }
        engine.stop(.drop)
        let counts = realtime_probe_take_published()
        #expect(counts.windows >= 2000)
        #expect(counts.allocations == 0)
        #expect(counts.locks == 0)
        #expect(counts.systemCalls == 0)
    }

    /// The control experiment for the zero above: the same measurement with a source that allocates once a
    /// period counts those allocations, so the window covers the sources and the probe sees Swift's allocator.
    @Test func theProbeSeesAnAllocatingSource() throws {
        let engine = try engine()
        try engine.attach(SineSource(hertz: 1000, amplitude: 0.5, channels: 2))
        try engine.attach(AllocatingSource())
        let counts = try measure(engine, periods: 200)
        #expect(counts.windows == 200)
        #expect(counts.allocations >= 200)
    }

    /// And each kind of call is counted when made inside a window, from C and from Swift, and not outside.
    @Test func theProbeCountsEachKindOfCall() {
        realtime_probe_begin()
        let pointer = realtime_probe_malloc(64)
        realtime_probe_free(pointer)
        _ = realtime_probe_lock_and_unlock()
        _ = realtime_probe_write_nothing()
        let fromC = realtime_probe_end()
        #expect(fromC.allocations == 2)
        #expect(fromC.locks == 1)
        #expect(fromC.systemCalls == 1)

        realtime_probe_begin()
        let array = [Int](repeating: 7, count: 1000)      // swift_allocObject in libswiftCore -> malloc
        let lock = NSLock()                               // Foundation's pthread mutex
        lock.lock()
        lock.unlock()
        let fromSwift = realtime_probe_end()
        #expect(array.count == 1000)
        #expect(fromSwift.allocations >= 2)
        #expect(fromSwift.locks >= 1)

        let outside = realtime_probe_malloc(64)           // no window open: not counted
        realtime_probe_free(outside)
        realtime_probe_begin()
        let nothing = realtime_probe_end()
        #expect(nothing.allocations == 0 && nothing.locks == 0 && nothing.systemCalls == 0)
    }
}
