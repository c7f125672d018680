import Codec8_24
import Foundation
import HAL
import RealtimeProbe
import Synchronization
import Testing
@testable import Queue

/// The engine on its own render threads: started, running periods, stopped with a fade; and the
/// SCHED_FIFO refusal path, which must carry on with the default policy and say so once.
@Suite("Render threads", .serialized)
struct RenderThreadTests {
    /// A manual clock whose sleeps jump to their deadline: the render thread runs free in simulated time.
    let clock = ManualClock(skipsSleeps: true)

    func pcm() throws -> SimulatedPCM {
        let hardware = SimulatedPCMHardware(name: "sim", formats: [.s16LE], rates: [48000], channels: 2...2,
                                            periodFrames: 16...4096, periodStep: 16, periodCounts: 2...8)
        return try SimulatedPCM(hardware: hardware, direction: .playback,
                                configuration: PCMConfiguration(format: .s16LE, rate: 48000, channels: 2,
                                                                periodFrames: 240, periodCount: 4),
                                clock: clock, playback: .memory)
    }

    /// Waits (bounded) until `condition` holds; the render thread makes progress on its own.
    func eventually(_ condition: () -> Bool) -> Bool {
        let deadline = Date().addingTimeInterval(20)
        while !condition() && Date() < deadline { Thread.sleep(forTimeInterval: 0.001) }
        return condition()
    }

    final class Messages: @unchecked Sendable {
        let lines = Mutex<[String]>([])
        func add(_ line: String) { lines.withLock { $0.append(line) } }
        var all: [String] { lines.withLock { $0 } }
    }

    /// Runs `body` on a fresh thread that has dropped CAP_SYS_NICE (per-thread on Linux), as an unprivileged
    /// service without LimitRTPRIO would be.
    func onUnprivilegedThread(_ body: @escaping @Sendable () -> Void) {
        let done = DispatchSemaphore(value: 0)
        let thread = Thread {
            _ = realtime_probe_drop_sys_nice()
            body()
            done.signal()
        }
        thread.start()
        done.wait()
    }

    @Test func schedFifoRefusedCarriesOnAndSaysSoOnce() throws {
        // Without CAP_SYS_NICE, SCHED_FIFO needs RLIMIT_RTPRIO at least the priority (sched(7)): hold the
        // soft limit at 0 for the test (it is 0 by default; other tests accept a refusal either way).
        let resource = __rlimit_resource_t(__RLIMIT_RTPRIO.rawValue)
        var saved = rlimit()
        getrlimit(resource, &saved)
        var none = saved
        none.rlim_cur = 0
        setrlimit(resource, &none)
        defer { setrlimit(resource, &saved) }
        let pcm = try pcm()
        let messages = Messages()
        let engine = try RenderEngine(output: pcm, input: nil,
                                      configuration: RenderEngine.Configuration(realtimePriority: 20, locksMemory: false),
                                      log: { messages.add($0) })
        try engine.attach(ConstantSource(level: Fixed824(0.25)))
        let result = Mutex<Result<[ThreadScheduling], RenderEngineError>?>(nil)
        onUnprivilegedThread {
            do throws(RenderEngineError) {
                try engine.start()
                let scheduling = engine.scheduling
                result.withLock { $0 = .success(scheduling) }
            } catch {
                result.withLock { $0 = .failure(error) }
            }
        }
        let scheduling = try #require(try result.withLock { $0 }?.get())
        // Refused with EPERM (sched(7): SCHED_FIFO needs CAP_SYS_NICE or a nonzero RLIMIT_RTPRIO) ...
        #expect(scheduling.count == 1)
        if case let .standard(refusal?) = scheduling.first {
            #expect(refusal.errno == .notPermitted)
        } else {
            Issue.record("expected the default policy after a refusal, got \(scheduling)")
        }
        // ... and it renders all the same.
        #expect(eventually { engine.outputPeriods >= 50 })
        #expect(engine.stop(.drop) == nil)
        // Started and refused again: still one note.
        onUnprivilegedThread { _ = try? engine.start() }
        #expect(eventually { engine.outputPeriods >= 60 })
        engine.stop(.drop)
        #expect(messages.all.count == 1)
        #expect(messages.all.first?.contains("SCHED_FIFO refused") == true)
        #expect(messages.all.first?.contains("EPERM") == true)
    }

    @Test func stopFadesOutThenDrains() throws {
        let pcm = try pcm()
        let engine = try RenderEngine(output: pcm, input: nil,
                                      configuration: RenderEngine.Configuration(softwareEQ: false, limiter: false,
                                                                                dither: false, realtimePriority: nil,
                                                                                locksMemory: false))
        try engine.attach(ConstantSource(level: Fixed824(0.5)))
        try engine.start()
        #expect(engine.isRunning)
        #expect(eventually { engine.outputPeriods >= 20 })
        #expect(engine.stop(.drain) == nil)
        #expect(!engine.isRunning)
        let bytes = pcm.playedFrames
        let left = stride(from: 0, to: bytes.count, by: 4).map { Int16(bitPattern: UInt16(bytes[$0]) | UInt16(bytes[$0 + 1]) << 8) }
        // Drained: everything written was played. The end is a linear fade of 240 frames (5 ms at 48 kHz)
        // from 16384 down to silence: no step larger than 16384/240 + 1 anywhere in the output.
        #expect(left.count == engine.outputPeriods * 240)
        #expect(left.last == 0)
        var largestStep = 0
        for i in 1..<left.count { largestStep = max(largestStep, abs(Int(left[i]) - Int(left[i - 1]))) }
        #expect(Double(largestStep) <= 16384.0 / 240 + 1)
        #expect(left.contains(16384))
    }

    @Test func captureStoppedWithDrainDeliversEveryFrameInOrder() throws {
        @Sendable func value(_ frame: Int64) -> Int16 { Int16(truncatingIfNeeded: frame &* 7 &+ 3) }
        let hardware = SimulatedPCMHardware(name: "mic", formats: [.s16LE], rates: [48000], channels: 1...1,
                                            periodFrames: 16...4096, periodStep: 16, periodCounts: 2...8)
        let pcm = try SimulatedPCM(hardware: hardware, direction: .capture,
                                   configuration: PCMConfiguration(format: .s16LE, rate: 48000, channels: 1,
                                                                   periodFrames: 240, periodCount: 4),
                                   clock: clock, capture: .generator { position, bytes in
                                       for i in 0..<(bytes.count / 2) {
                                           let v = UInt16(bitPattern: value(position + Int64(i)))
                                           bytes[2 * i] = UInt8(v & 0xFF)
                                           bytes[2 * i + 1] = UInt8(v >> 8)
                                       }
                                   })
        let engine = try RenderEngine(output: nil, input: pcm,
                                      configuration: RenderEngine.Configuration(realtimePriority: nil, locksMemory: false))
        let sink = RecordingSink()
        try engine.attach(sink)
        try engine.start()
        #expect(eventually { engine.inputPeriods >= 20 })
        #expect(engine.stop(.drain) == nil)
        // Every frame the device captured reached the sink, in order, widened exactly (× 2^9, Fixed824's
        // 16-bit contract), with its place on the device clock: frame n at sampleTime n.
        let samples = sink.samples
        #expect(samples.count >= 20 * 240)
        var mismatches = 0
        for (n, sample) in samples.enumerated() where sample.raw != Int32(value(Int64(n))) << 9 { mismatches += 1 }
        #expect(mismatches == 0)
        var expectedTime: Int64 = 0
        for (time, frames) in zip(sink.times, sink.frameCounts) {
            #expect(time.sampleTime == expectedTime)
            expectedTime += Int64(frames)
        }
        #expect(engine.xruns == 0)
    }
}
