import Codec8_24
import Foundation
import HAL
import RealtimeProbe
import Testing
@testable import Queue

/// The engine over the simulated PCM, driven period by period on the test thread (`PlaybackLoop.period()`,
/// `CaptureLoop.period()`: the same code the render threads run) with a manual clock whose sleeps jump to
/// their deadline, so the device's blocking calls cost no real time and every run is the same.
@Suite("Render engine")
struct RenderEngineTests {
    static let rate = 48_000
    static let period = 480          // 10 ms at 48 kHz
    /// The chain reduced to the mixer (no EQ, limiter or dither): one stereo input at unity comes out bit for
    /// bit (OutputChain's documented exactness), so expected output is the source's own signal.
    static let plain = RenderEngine.Configuration(softwareEQ: false, limiter: false, dither: false,
                                                  realtimePriority: nil, locksMemory: false)
    /// 5 ms at 48 kHz: the engine's fades (GainRamp.frames(milliseconds: 5, sampleRate: 48000) = 240).
    static let fadeFrames = 240

    let clock = ManualClock(skipsSleeps: true)
    let hardware = SimulatedPCMHardware(name: "sim", formats: [.s16LE, .s24LE, .s32LE], rates: [44100, 48000],
                                        channels: 1...2, periodFrames: 16...4096, periodStep: 16, periodCounts: 2...8)

    func playback(_ sink: SimulatedPCM.Playback = .memory, recovers: Bool = true) throws -> SimulatedPCM {
        try SimulatedPCM(hardware: hardware, direction: .playback,
                         configuration: PCMConfiguration(format: .s16LE, rate: Self.rate, channels: 2,
                                                         periodFrames: Self.period, periodCount: 4, recoversXruns: recovers),
                         clock: clock, playback: sink)
    }

    /// Interleaved S16 stereo bytes as (left, right) samples.
    static func samples(_ bytes: [UInt8]) -> [Int16] {
        stride(from: 0, to: bytes.count - 1, by: 2).map { Int16(bitPattern: UInt16(bytes[$0]) | UInt16(bytes[$0 + 1]) << 8) }
    }

    @Test func framesReachThePCMInOrderAndTheTimelineAdvancesByThePeriod() throws {
        let pcm = try playback()
        let engine = try RenderEngine(output: pcm, input: nil, configuration: Self.plain)
        let source = TimelineSource()
        try engine.attach(source)
        #expect(source.preparedRate == Self.rate)
        let loop = try #require(engine.playback)
        loop.prepareToStart()
        for _ in 0..<20 { try loop.period() }
        clock.advance(by: .milliseconds(40))          // let the device play out its 4 queued periods
        let played = Self.samples(pcm.playedFrames)
        #expect(played.count == 20 * Self.period * 2)
        // After the start fade (output) and the attach fade (mixer input), both 240 frames and overlapping,
        // every frame n is the source's value for timeline frame n, on both channels: in order, none lost.
        var mismatches = 0
        for frame in Self.fadeFrames..<(played.count / 2) {
            let expected = TimelineSource.value(Int64(frame))
            if played[2 * frame] != expected || played[2 * frame + 1] != expected { mismatches += 1 }
        }
        #expect(mismatches == 0)
        // One RenderTime per period: sampleTime steps by the period, hostTime by 10 ms (480 / 48,000 s).
        let times = source.recordedTimes
        #expect(times.count == 20)
        for (k, time) in times.enumerated() {
            #expect(time.sampleTime == Int64(k * Self.period))
            #expect(time.hostTime == Timestamp(nanoseconds: Int64(k) * 10_000_000))
        }
        #expect(engine.timeline.renderedFrames == Int64(20 * Self.period))
    }

    @Test func anInjectedXrunIsRecoveredCountedAndFadedIn() throws {
        let pcm = try playback()
        let engine = try RenderEngine(output: pcm, input: nil, configuration: Self.plain)
        let level = Fixed824(0.5)                         // 16384 in S16 (0.5 × 32768)
        try engine.attach(ConstantSource(level: level))
        let loop = try #require(engine.playback)
        loop.prepareToStart()
        for _ in 0..<10 { try loop.period() }
        pcm.inject(.xrun)
        for _ in 0..<10 { try loop.period() }
        clock.advance(by: .milliseconds(40))
        #expect(pcm.xruns.count == 1)
        #expect(engine.xruns == 1)
        let played = Self.samples(pcm.playedFrames)
        let resumedAt = Int(try #require(pcm.xruns.lastFrame))
        #expect(resumedAt > 0 && resumedAt < played.count / 2)
        // After the gap the output rises linearly from silence over N = 240 frames: frame k (1-based) is
        // 16384·k/N (a linear fade of N frames has slope 1/N; GainRamp gives g[k] = k/N), ±1 LSB of rounding,
        // so no sample steps by more than 16384/N + 1 above its neighbour.
        let n = Self.fadeFrames
        var worst = 0.0
        for k in 1...n {
            let left = Double(played[2 * (resumedAt + k - 1)])
            worst = max(worst, abs(left - 16384 * Double(k) / Double(n)))
        }
        #expect(worst <= 1)
        #expect(played[2 * (resumedAt + n)] == 16384)
        var largestStep = 0
        for frame in (resumedAt + 1)..<(played.count / 2) {
            largestStep = max(largestStep, abs(Int(played[2 * frame]) - Int(played[2 * (frame - 1)])))
        }
        #expect(Double(largestStep) <= 16384 / Double(n) + 1)
    }

    @Test func anXrunTheDeviceLeavesToTheEngineIsRecoveredToo() throws {
        let pcm = try playback(recovers: false)
        let engine = try RenderEngine(output: pcm, input: nil, configuration: Self.plain)
        try engine.attach(ConstantSource(level: Fixed824(0.5)))
        let loop = try #require(engine.playback)
        loop.prepareToStart()
        for _ in 0..<6 { try loop.period() }
        clock.advance(by: .milliseconds(100))           // nothing written for 10 periods: the device runs dry
        for _ in 0..<6 { try loop.period() }
        clock.advance(by: .milliseconds(40))
        #expect(pcm.xruns.count == 1)
        #expect(engine.xruns == 1)
        let played = Self.samples(pcm.playedFrames)
        let resumedAt = Int(try #require(pcm.xruns.lastFrame))
        #expect(abs(Double(played[2 * resumedAt]) - 16384.0 / Double(Self.fadeFrames)) <= 1)
    }

    @Test func captureReachesASinkWidenedExactlyWithNoFrameLost() throws {
        // Capture sample s of frame n is a distinct 16-bit value; widening S16 to 8.24 multiplies by 2^9
        // (full scale 2^15 maps to 1.0 = 2^24: Fixed824's numeric contract), exactly.
        @Sendable func value(_ frame: Int64, _ channel: Int) -> Int16 { Int16(truncatingIfNeeded: frame * 2 + Int64(channel) - 20_000) }
        let source = SimulatedPCM.Capture.generator { position, bytes in
            let frames = bytes.count / 4
            for i in 0..<frames {
                for c in 0..<2 {
                    let v = UInt16(bitPattern: value(position + Int64(i), c))
                    bytes[4 * i + 2 * c] = UInt8(v & 0xFF)
                    bytes[4 * i + 2 * c + 1] = UInt8(v >> 8)
                }
            }
        }
        let pcm = try SimulatedPCM(hardware: hardware, direction: .capture,
                                   configuration: PCMConfiguration(format: .s16LE, rate: Self.rate, channels: 2,
                                                                   periodFrames: Self.period, periodCount: 4),
                                   clock: clock, capture: source)
        let engine = try RenderEngine(output: nil, input: pcm, configuration: Self.plain)
        #expect(engine.inputRate == Self.rate && engine.inputChannels == 2)
        let sink = RecordingSink()
        try engine.attach(sink)
        #expect(sink.preparedChannels == 2)
        let loop = try #require(engine.capture)
        loop.prepareToStart()
        for _ in 0..<12 { try loop.period() }
        let frames = 12 * Self.period
        #expect(sink.samples.count == frames * 2)
        var mismatches = 0
        for frame in 0..<frames {
            for c in 0..<2 where sink.samples[2 * frame + c].raw != Int32(value(Int64(frame), c)) << 9 { mismatches += 1 }
        }
        #expect(mismatches == 0)
        // Contiguous on the device clock: period k starts at frame k × 480.
        #expect(sink.times.map(\.sampleTime) == (0..<12).map { Int64($0 * Self.period) })
        #expect(sink.frameCounts.allSatisfy { $0 == Self.period })
        // Detached: the next period reaches it no more.
        engine.detach(sink)
        try loop.period()
        #expect(sink.samples.count == frames * 2)
    }

    @Test func manualRenderingIsBitIdenticalAcrossRuns() throws {
        func run() throws -> (bytes: [Int16], times: [RenderTime], rendered: Int64) {
            let configuration = RenderEngine.Configuration(preset: EQPreset.named("Rock"),
                                                           realtimePriority: nil, locksMemory: false)
            let engine = try RenderEngine(manualRate: 48_000, channels: 2, maximumFrames: 512, dither: .bits16,
                                          configuration: configuration)
            let timeline = TimelineSource()
            try engine.attach(timeline)
            try engine.attach(SineSource(hertz: 1000, amplitude: 0.7, channels: 1))
            var output = [Int16](repeating: 0, count: 100 * 512 * 2)
            try output.withUnsafeMutableBufferPointer { buffer in
                for k in 0..<100 {
                    try engine.renderManually(frames: 512, into: buffer.baseAddress! + k * 1024)
                }
            }
            return (output, timeline.recordedTimes, engine.timeline.renderedFrames)
        }
        let first = try run()
        let second = try run()
        #expect(first.bytes == second.bytes)
        #expect(first.bytes.contains { $0 != 0 })
        // The timeline advances by the frames rendered; host time is those frames at 48 kHz.
        #expect(first.rendered == 51_200)
        #expect(first.times.map(\.sampleTime) == (0..<100).map { Int64($0 * 512) })
        #expect(first.times[10].hostTime == Timestamp(nanoseconds: 5120 * 1_000_000_000 / 48_000))
    }

    @Test func manualDetachFadesOutThenFreesTheInput() throws {
        let engine = try RenderEngine(manualRate: 48_000, channels: 2, maximumFrames: 256,
                                      configuration: RenderEngine.Configuration(stereoInputs: 1, monoInputs: 0,
                                                                                softwareEQ: false, limiter: false, dither: false))
        let level = Fixed824(0.5)
        let source = ConstantSource(level: level)
        try engine.attach(source)
        #expect(throws: RenderEngineError.alreadyAttached) { try engine.attach(source) }
        #expect(throws: RenderEngineError.noFreeInput(channels: 2, inputs: 1)) { try engine.attach(ConstantSource(level: level)) }
        var out = [Fixed824](repeating: .zero, count: 512)
        for _ in 0..<4 { try out.withUnsafeMutableBufferPointer { try engine.renderManually(frames: 256, into: $0.baseAddress!) } }
        #expect(out[510] == level)
        engine.detach(source)
        // Still pulled through its fade: attaching it again (which prepares it anew) must wait, not give it a
        // second slot while the render side uses the first.
        #expect(throws: RenderEngineError.stillDetaching) { try engine.attach(source) }
        var fade: [Fixed824] = []
        for _ in 0..<2 {
            try out.withUnsafeMutableBufferPointer { try engine.renderManually(frames: 256, into: $0.baseAddress!) }
            fade += stride(from: 0, to: 512, by: 2).map { out[$0] }
        }
        // A linear fade-out of N = 240 frames: frame k is level·(1 − k/N), steps of level/N; then silence.
        let n = 240
        for k in 1...n {
            #expect(abs(Double(fade[k - 1].raw) - Double(level.raw) * (1 - Double(k) / Double(n))) <= 1)
        }
        #expect(fade[n...].allSatisfy { $0 == .zero })
        // The slot is free again: another source fits.
        try engine.attach(ConstantSource(level: level))
        #expect(throws: RenderEngineError.tooManyFrames(requested: 257, maximum: 256)) {
            try out.withUnsafeMutableBufferPointer { try engine.renderManually(frames: 257, into: $0.baseAddress!) }
        }
    }

    @Test func aFineGainSetOnTheControlSideReachesTheOutputRamped() throws {
        let engine = try RenderEngine(manualRate: 48_000, channels: 2, maximumFrames: 480, configuration: Self.plain)
        let level = Fixed824(0.5)
        try engine.attach(ConstantSource(level: level))
        var out = [Fixed824](repeating: .zero, count: 960)
        try out.withUnsafeMutableBufferPointer { try engine.renderManually(frames: 480, into: $0.baseAddress!) }
        #expect(out[958] == level)
        engine.setFineGain(Fixed824(0.5))             // −6.02 dB: 0.5 × 0.5 = 0.25 once the ramp is over
        var ramp: [Fixed824] = []
        for _ in 0..<2 {
            try out.withUnsafeMutableBufferPointer { try engine.renderManually(frames: 480, into: $0.baseAddress!) }
            ramp += stride(from: 0, to: 960, by: 2).map { out[$0] }
        }
        // Ramped, not stepped: the first frame after the change is still near 0.5, the last one exactly 0.25.
        #expect(ramp[0].raw > Fixed824(0.49).raw)
        #expect(ramp.last == Fixed824(0.25))
        for i in 1..<ramp.count { #expect(ramp[i].raw <= ramp[i - 1].raw) }
    }

    @Test func aSuspendTheDeviceLeavesToTheEngineIsRecoveredAndPlayContinues() throws {
        let pcm = try playback(recovers: false)
        let engine = try RenderEngine(output: pcm, input: nil, configuration: Self.plain)
        try engine.attach(ConstantSource(level: Fixed824(0.5)))
        let loop = try #require(engine.playback)
        loop.prepareToStart()
        for _ in 0..<6 { try loop.period() }
        pcm.inject(.suspend)                           // a system sleep: the next write sees ESTRPIPE
        for _ in 0..<6 { try loop.period() }
        #expect(pcm.xruns.suspends == 1)
        #expect(engine.xruns == 0)                     // a suspend is not an underrun
        #expect(engine.outputPeriods == 12)
    }

    /// A source that cannot run at the engine's rate.
    final class RefusingSource: RenderSource {
        struct Refusal: Error, CustomStringConvertible { var description: String { "only 44100 Hz" } }
        let renderChannels = 2
        func prepare(engineRate: Int, maximumFrames: Int) throws { throw Refusal() }
        func render(frames: Int, into buffer: UnsafeMutablePointer<Fixed824>, at time: RenderTime) -> Bool { false }
    }

    @Test func callsInTheWrongModeGetOneTypedError() throws {
        let manual = try RenderEngine(manualRate: 48_000, channels: 2, maximumFrames: 64, configuration: Self.plain)
        #expect(throws: RenderEngineError.self) { try manual.start() }
        #expect(throws: RenderEngineError.self) { try manual.attach(RecordingSink()) }
        #expect(throws: RenderEngineError.prepareFailed(reason: "only 44100 Hz")) { try manual.attach(RefusingSource()) }
        let device = try RenderEngine(output: try playback(), input: nil, configuration: Self.plain)
        var out = [Fixed824](repeating: .zero, count: 128)
        #expect(throws: RenderEngineError.self) {
            try out.withUnsafeMutableBufferPointer { try device.renderManually(frames: 64, into: $0.baseAddress!) }
        }
        #expect(throws: RenderEngineError.self) { try RenderEngine(output: nil, input: nil) }
    }
}
