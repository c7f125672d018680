import Foundation
import Synchronization
import Testing
@testable import HAL

/// The twin's accounting, paced by a manual clock: 48 kHz, periods of 480 frames (10 ms), 4 periods.
@Suite("Simulated PCM")
struct SimulatedPCMTests {
    let clock = ManualClock()
    let hardware = SimulatedPCMHardware(name: "sim", formats: [.s16LE, .s32LE], rates: [44100, 48000],
                                        channels: 1...2, periodFrames: 16...4096, periodStep: 16, periodCounts: 2...8,
                                        maxBufferBytes: 64 * 1024, canPause: true, canResume: false)
    static let period = Duration.milliseconds(10)

    func request(startThreshold: Int? = nil, nonBlocking: Bool = true, recovers: Bool = true) -> PCMConfiguration {
        PCMConfiguration(format: .s16LE, rate: 48000, channels: 2, periodFrames: 480, periodCount: 4,
                         startThreshold: startThreshold, nonBlocking: nonBlocking, recoversXruns: recovers)
    }

    func playback(_ configuration: PCMConfiguration? = nil, on hardware: SimulatedPCMHardware? = nil,
                  sink: SimulatedPCM.Playback = .memory) throws -> SimulatedPCM {
        try SimulatedPCM(hardware: hardware ?? self.hardware, direction: .playback,
                         configuration: configuration ?? request(), clock: clock, playback: sink)
    }

    func write(_ device: SimulatedPCM, _ bytes: ArraySlice<UInt8>) throws -> Int {
        try bytes.withUnsafeBytes { try device.write($0) }
    }

    /// Frames of 4 bytes (S16_LE stereo), seeded.
    func frames(_ count: Int, seed: UInt64 = 1) -> [UInt8] { seededBytes(count * 4, seed: seed) }

    // MARK: negotiation

    @Test func grantsLikeHardware() throws {
        let device = try playback()
        #expect(device.parameters == PCMParameters(format: .s16LE, rate: 48000, channels: 2, periodFrames: 480,
                                                   bufferFrames: 1920, startThreshold: 1920, availMin: 480))
        #expect(device.parameters.periodDuration == Self.period)
        #expect(device.parameters.latency == .milliseconds(40))
        device.close()

        var odd = request()
        odd.periodFrames = 500          // rounded to the 16-frame step: 496
        odd.periodCount = 12            // clamped to 8
        let rounded = try playback(odd)
        #expect(rounded.parameters.periodFrames == 496)
        #expect(rounded.parameters.bufferFrames == 496 * 8)
        rounded.close()

        var big = PCMConfiguration(format: .s32LE, rate: 44000, channels: 2, periodFrames: 4096, periodCount: 8,
                                   allowsNearestRate: true)
        let limited = try playback(big)   // 4096 * 8 frames of 8 bytes exceed 64 KiB: fewer periods
        #expect(limited.parameters.rate == 44100)
        #expect(limited.parameters.periodFrames == 4096)
        #expect(limited.parameters.bufferFrames == 4096 * 2)
        limited.close()

        big.allowsNearestRate = false
        #expect(throws: PCMError.refused(name: "sim", direction: .playback, parameter: .rate, requested: "44000 Hz",
                                         offered: hardware.capabilities)) { _ = try playback(big) }
    }

    @Test func refusesAFormatWithTheRealBackendsShape() {
        var wanted = request()
        wanted.format = .float32LE
        let error = pcmError { _ = try playback(wanted) }
        guard case let .refused(name, direction, parameter, requested, offered) = error else {
            Issue.record("expected a refusal, got \(String(describing: error))")
            return
        }
        #expect(name == "sim" && direction == .playback && parameter == .format && requested == "FLOAT_LE")
        #expect(offered.formats == [.s16LE, .s32LE])
        #expect(offered.standardRates == [44100, 48000])
        #expect(error!.description
            == "playback PCM 'sim' refuses format FLOAT_LE; it offers formats S16_LE, S32_LE; rates 44100, 48000 Hz "
            + "(range 44100-48000); channels 1-2; period 16-4096 frames; buffer 32-32768 frames")
        var surround = request()
        surround.channels = 6
        #expect(throws: PCMError.refused(name: "sim", direction: .playback, parameter: .channels, requested: "6",
                                         offered: hardware.capabilities)) { _ = try playback(surround) }
    }

    @Test func secondOpenIsBusyAndNamesTheHolder() throws {
        let first = try playback()
        let error = pcmError { _ = try playback() }
        guard case let .busy(_, _, holders) = error else {
            Issue.record("expected busy, got \(String(describing: error))")
            return
        }
        #expect(holders.map(\.pid) == [getpid()])
        // The other direction is free, and closing frees this one.
        let capture = try SimulatedPCM(hardware: hardware, direction: .capture, configuration: request(), clock: clock)
        first.close()
        let again = try playback()
        again.close()
        capture.close()
        #expect(throws: PCMError.noSuchDevice(name: "nope", direction: .playback, errno: .noSuchFile,
                                              detail: "Unknown PCM nope")) {
            _ = try SimulatedPCM.open(name: "nope", among: [hardware], direction: .playback,
                                      configuration: request(), clock: clock)
        }
    }

    // MARK: pacing

    @Test func consumesOnePeriodPerPeriodOfTime() throws {
        let device = try playback()
        let data = frames(4000)
        #expect(device.state == .prepared)
        #expect(try write(device, data[0..<1920 * 4]) == 1920)
        #expect(device.state == .running)                  // the start threshold is the full buffer
        #expect(try device.delay() == 1920)
        #expect(try device.available() == 0)
        #expect(try write(device, data[1920 * 4..<2400 * 4]) == 0)      // full: would block
        clock.advance(by: .milliseconds(10))
        #expect(try device.delay() == 1440)
        #expect(try device.available() == 480)
        #expect(try device.framePosition().frame == 480)
        clock.advance(by: .milliseconds(5))                 // mid-period: the pointer moves in whole periods
        #expect(try device.framePosition().frame == 480)
        #expect(try write(device, data[1920 * 4..<2400 * 4]) == 480)
        #expect(try device.delay() == 1920)
        clock.advance(by: .milliseconds(25))                // boundaries at 20, 30 and 40 ms
        #expect(try device.delay() == 480)
        #expect(try device.framePosition().frame == 1920)
        #expect(device.playedFrames == Array(data[0..<1920 * 4]))
        #expect(device.xruns.count == 0)
    }

    @Test func periodBoundariesStayExactAtRatesThatDoNotDivide() throws {
        var wanted = request()
        wanted.rate = 44100
        wanted.periodFrames = 1024
        let device = try playback(wanted)
        #expect(try write(device, frames(4096)[...]) == 4096)
        // Boundary k is at floor(k * 1024 / 44100 s): 23 219 954, 46 439 909, 69 659 863 ns (no drift).
        clock.advance(by: .nanoseconds(23_219_953))
        #expect(try device.framePosition().frame == 0)
        clock.advance(by: .nanoseconds(1))
        #expect(try device.framePosition().frame == 1024)
        clock.advance(by: .nanoseconds(69_659_862 - 23_219_954))
        #expect(try device.framePosition().frame == 2048)
        clock.advance(by: .nanoseconds(1))
        #expect(try device.framePosition().frame == 3072)
    }

    @Test func randomWriteSizesPlayTheSameFramesAsOneWrite() throws {
        let data = frames(9600, seed: 42)
        let oneCall = try playback(request(startThreshold: 480))
        var offset = 0
        while offset < data.count {           // one call's worth, as fast as the device takes it
            offset += try write(oneCall, data[offset...]) * 4
            clock.advance(by: Self.period)
        }
        clock.advance(by: .milliseconds(40))
        let reference = oneCall.playedFrames
        oneCall.close()
        #expect(reference.count == data.count)
        #expect(reference == data)

        let chunked = try playback(request(startThreshold: 480))
        offset = 0
        for chunk in seededChunks(total: 9600, maxChunk: 700, seed: 5) {
            var written = 0
            while written < chunk {
                let count = try write(chunked, data[(offset + written * 4)..<(offset + chunk * 4)])
                written += count
                if count == 0 { clock.advance(by: Self.period) }
            }
            offset += chunk * 4
        }
        clock.advance(by: .milliseconds(40))                // plays out what is queued
        #expect(chunked.playedFrames == reference)
        #expect(chunked.xruns.count == 0)
    }

    // MARK: xruns

    @Test func underrunIsDetectedCountedAndRecoveredWithinOnePeriod() throws {
        let device = try playback(request(startThreshold: 480))
        let data = frames(4000, seed: 3)
        #expect(try write(device, data[0..<1920 * 4]) == 1920)
        clock.advance(by: .milliseconds(35))
        #expect(device.state == .running)
        clock.advance(by: .milliseconds(5))                 // the 4th period empties the buffer at 40 ms
        #expect(device.state == .xrun)
        #expect(try device.framePosition().frame == 1920)
        clock.advance(by: .milliseconds(3))
        // The next write recovers, counts it, and restarts (start threshold: one period).
        #expect(try write(device, data[1920 * 4..<2400 * 4]) == 480)
        #expect(device.xruns.count == 1)
        #expect(device.xruns.lastTime == Timestamp.zero + .milliseconds(40))
        #expect(device.xruns.lastFrame == 1920)
        #expect(device.state == .running)
        #expect(try write(device, data[2400 * 4..<3360 * 4]) == 960)
        clock.advance(by: .milliseconds(10))
        #expect(try device.framePosition().frame == 2400)
        #expect(device.playedFrames == Array(data[0..<2400 * 4]))
        #expect(device.xruns.report.description.hasPrefix("1 xrun, 0 suspends; last at frame 1920"))
    }

    @Test func xrunsCanBeLeftToTheCaller() throws {
        let device = try playback(request(recovers: false))
        #expect(try write(device, frames(1920)[...]) == 1920)
        device.inject(.xrun)
        #expect(throws: PCMError.xrun(name: "sim", direction: .playback)) { _ = try write(device, frames(480)[...]) }
        #expect(device.xruns.count == 0)
        try device.recover(from: .xrun(name: "sim", direction: .playback))
        #expect(device.xruns.count == 1)
        #expect(device.state == .prepared)
        #expect(try device.delay() == 0)                    // what was queued is gone, as after snd_pcm_prepare
        #expect(try device.framePosition().frame == 0)
        #expect(try write(device, frames(480)[...]) == 480)
    }

    @Test func injectedXrunIsRecoveredInTheNextWrite() throws {
        let device = try playback()
        #expect(try write(device, frames(1920)[...]) == 1920)
        clock.advance(by: .milliseconds(10))
        device.inject(.xrun)
        #expect(device.state == .xrun)
        #expect(try write(device, frames(480, seed: 9)[...]) == 480)
        #expect(device.xruns.count == 1)
        #expect(device.xruns.lastFrame == 480)
        #expect(try device.framePosition().frame == 480)          // the discarded frames never played
        #expect(try device.delay() == 480)
        #expect(device.state == .prepared)                  // refilling towards the start threshold
    }

    @Test func suspendIsResumedWhereTheHardwareCanElsePrepared() throws {
        let resumable = SimulatedPCMHardware(name: "resumable", formats: [.s16LE], rates: [48000], channels: 2...2,
                                             canResume: true)
        let device = try playback(on: resumable)
        #expect(try write(device, frames(1920)[...]) == 1920)
        clock.advance(by: .milliseconds(15))
        device.inject(.suspend)
        clock.advance(by: .seconds(5))                      // asleep: nothing moves
        #expect(device.state == .suspended)
        #expect(try write(device, frames(480)[...]) == 480)
        #expect(device.xruns.suspends == 1 && device.xruns.count == 0)
        #expect(device.state == .running)
        #expect(try device.framePosition().frame == 480)
        clock.advance(by: .milliseconds(5))                 // the period that was half done completes
        #expect(try device.framePosition().frame == 960)

        let plain = try playback()
        #expect(try write(plain, frames(1920)[...]) == 1920)
        plain.inject(.suspend)
        #expect(try write(plain, frames(480)[...]) == 480)
        #expect(plain.xruns.suspends == 1)
        #expect(plain.state == .prepared)
        #expect(try plain.delay() == 480)
    }

    @Test func unplugAndIOErrors() throws {
        let device = try playback()
        device.inject(.ioError(.io))
        #expect(throws: PCMError.io(name: "sim", operation: "write", errno: .io, detail: "injected")) {
            _ = try write(device, frames(480)[...])
        }
        #expect(try write(device, frames(480)[...]) == 480)      // once only
        device.inject(.unplug)
        let error = pcmError { _ = try write(device, frames(480)[...]) }
        #expect(error == .disconnected(name: "sim", direction: .playback))
        #expect(error?.errno == .noDevice)
        #expect(error?.description == "playback PCM 'sim' disconnected (ENODEV)")
        #expect(device.state == .disconnected)
        device.close()
        #expect(throws: PCMError.noSuchDevice(name: "sim", direction: .playback, errno: .noDevice,
                                              detail: "device unplugged")) { _ = try playback() }
        hardware.plugIn()
        try playback().close()
    }

    // MARK: transport

    @Test func pauseFreezesTheDeviceClockAndKeepsThePhase() throws {
        let device = try playback()
        #expect(try write(device, frames(1920)[...]) == 1920)
        clock.advance(by: .milliseconds(15))
        try device.pause()
        #expect(device.state == .paused)
        clock.advance(by: .seconds(1))
        #expect(try device.framePosition().frame == 480)
        #expect(try write(device, frames(960)[...]) == 480)  // the free period fills; nothing drains while paused
        try device.resume()
        clock.advance(by: .milliseconds(4))
        #expect(try device.framePosition().frame == 480)
        clock.advance(by: .milliseconds(1))
        #expect(try device.framePosition().frame == 960)
        #expect(device.xruns.count == 0)

        let fixed = SimulatedPCMHardware(name: "nopause", formats: [.s16LE], rates: [48000], channels: 2...2,
                                         canPause: false)
        let other = try playback(on: fixed)
        #expect(try write(other, frames(1920)[...]) == 1920)
        let error = pcmError { try other.pause() }
        #expect(error == .unsupported(name: "nopause", operation: "pause (no hardware pause)"))
        #expect(!other.canPause)
    }

    @Test func dropDiscardsQueuedFrames() throws {
        let device = try playback()
        let data = frames(1920, seed: 11)
        #expect(try write(device, data[...]) == 1920)
        clock.advance(by: .milliseconds(20))
        try device.drop()
        #expect(device.state == .prepared)
        #expect(try device.delay() == 0)
        #expect(try device.framePosition().frame == 960)
        clock.advance(by: .seconds(1))
        #expect(device.playedFrames == Array(data[0..<960 * 4]))
    }

    @Test func drainPlaysEverythingQueuedThenStops() throws {
        let device = try playback(request(nonBlocking: true))
        let data = frames(1000, seed: 12)                    // two periods and 40 frames, below the threshold
        #expect(try write(device, data[...]) == 1000)
        #expect(device.state == .prepared)
        let done = Atomic<Bool>(false)
        let drainer = Thread {
            try? device.drain()
            done.store(true, ordering: .sequentiallyConsistent)
        }
        drainer.start()
        var advances = 0
        while !done.load(ordering: .sequentiallyConsistent) {
            if device.state == .draining { clock.advance(by: Self.period); advances += 1 } else { sched_yield() }
        }
        #expect(advances == 3)
        #expect(device.state == .prepared)
        #expect(device.playedFrames == data)
        #expect(try device.framePosition().frame == 1000)
        #expect(device.xruns.count == 0)
    }

    @Test func blockingWriterIsPacedByTheClock() throws {
        let pacing = SleepCountingClock()
        let device = try SimulatedPCM(hardware: hardware, direction: .playback, configuration: request(nonBlocking: false),
                                      clock: pacing)
        let data = frames(4800, seed: 13)
        let written = Atomic<Int>(-1)
        let writer = Thread {
            let count = (try? data.withUnsafeBytes { try device.write($0) }) ?? -2
            written.store(count, ordering: .sequentiallyConsistent)
        }
        writer.start()
        var periods = 0
        while written.load(ordering: .sequentiallyConsistent) < 0 {
            // One period per time the writer blocks on a full buffer: it never falls behind.
            if pacing.sleeps > periods {
                pacing.advance(by: Self.period)
                periods += 1
            } else {
                sched_yield()
            }
        }
        #expect(written.load(ordering: .sequentiallyConsistent) == 4800)
        #expect(periods == 6)                                 // 10 periods, the last 4 still queued
        #expect(try device.delay() == 1920)
        #expect(device.playedFrames == Array(data[0..<2880 * 4]))
        #expect(device.xruns.count == 0)
    }

    // MARK: capture

    /// A generator whose samples say where they are: frame p, channel c holds p * 2 + c (16 bits).
    static let positions: @Sendable (Int64, UnsafeMutableRawBufferPointer) -> Void = { position, target in
        let samples = target.bindMemory(to: Int16.self)
        for index in 0..<samples.count {
            samples[index] = Int16(truncatingIfNeeded: (position * 2 + Int64(index)))
        }
    }

    func expected(_ range: Range<Int64>) -> [Int16] {
        range.flatMap { [Int16(truncatingIfNeeded: $0 * 2), Int16(truncatingIfNeeded: $0 * 2 + 1)] }
    }

    func capture() throws -> SimulatedPCM {
        try SimulatedPCM(hardware: hardware, direction: .capture, configuration: request(), clock: clock,
                         capture: .generator(Self.positions))
    }

    func read(_ device: SimulatedPCM, frames: Int) throws -> [Int16] {
        var samples = [Int16](repeating: 0, count: frames * 2)
        let count = try samples.withUnsafeMutableBufferPointer { try device.read(into: $0) }
        return Array(samples[0..<count * 2])
    }

    @Test func captureDeliversTheGeneratorsFramesExactly() throws {
        let device = try capture()
        #expect(device.parameters.startThreshold == 1)
        #expect(try read(device, frames: 960).isEmpty)      // starts the device; nothing captured yet
        #expect(device.state == .running)
        clock.advance(by: .milliseconds(20))
        #expect(try device.available() == 960)
        #expect(try device.framePosition().frame == 960)
        #expect(try read(device, frames: 960) == expected(0..<960))
        clock.advance(by: .milliseconds(10))
        #expect(try read(device, frames: 100) == expected(960..<1060))
        #expect(try read(device, frames: 1000) == expected(1060..<1440))
        #expect(device.xruns.count == 0)
    }

    @Test func overrunLosesTheFullBufferAndCarriesOn() throws {
        let device = try capture()
        _ = try read(device, frames: 1)
        clock.advance(by: .milliseconds(40))                // four periods unread: the buffer is full
        #expect(device.state == .xrun)
        #expect(try read(device, frames: 480).isEmpty)      // recovered and restarted, nothing new yet
        #expect(device.xruns.count == 1)
        #expect(device.xruns.lastFrame == 1920)
        #expect(device.xruns.lastTime == Timestamp.zero + .milliseconds(40))
        clock.advance(by: .milliseconds(10))
        #expect(try read(device, frames: 480) == expected(1920..<2400))
        #expect(try device.framePosition().frame == 2400)
    }

    /// The kernel stops a drained capture and keeps what it captured (pcm_native.c snd_pcm_do_drain_init:
    /// DRAINING while frames wait, SETUP when none do); reads return that tail, and once it is read the
    /// stream stops in SETUP and a read ends (pcm_lib.c __snd_pcm_lib_xfer: avail 0 while DRAINING).
    @Test func aDrainedCaptureKeepsItsTailReadableUntilTheEnd() throws {
        let device = try capture()
        _ = try read(device, frames: 1)                     // starts at 0 ms
        clock.advance(by: .milliseconds(20))                // two periods captured: frames 0..<960
        #expect(try read(device, frames: 480) == expected(0..<480))
        try device.drain()
        #expect(device.state == .draining)
        clock.advance(by: .milliseconds(30))                // stopped: nothing more is captured
        #expect(try device.framePosition().frame == 960)
        #expect(try device.wait(timeout: .zero))            // the tail is ready
        #expect(try read(device, frames: 1000) == expected(480..<960))
        #expect(device.state == .setup)
        #expect(try read(device, frames: 1000).isEmpty)     // end of stream
        #expect(try device.framePosition().frame == 960)
        try device.drop()                                    // prepared for a new capture
        #expect(device.state == .prepared)
        #expect(device.xruns.count == 0)
    }

    /// An overrun stops the stream at the stop threshold (the buffer size) until it is prepared again
    /// (pcm_lib.c snd_pcm_update_state -> __snd_pcm_xrun); the device clock runs on meanwhile, so the
    /// frames of the whole stopped interval are lost, not one buffer: recovering 1 s after the start, the
    /// position is 1 s of frames (48000) and the generator continues from there.
    @Test func anOverrunLosesTheTimeTheStreamStoodStopped() throws {
        let device = try capture()
        _ = try read(device, frames: 1)                     // starts at 0 ms
        clock.advance(by: .milliseconds(1000))              // full at 40 ms, then stopped for 960 ms
        #expect(device.state == .xrun)
        #expect(try read(device, frames: 480).isEmpty)      // recovered and restarted at 1000 ms
        #expect(device.xruns.count == 1)
        #expect(device.xruns.lastFrame == 1920)             // where it broke: the buffer full
        #expect(device.xruns.lastTime == Timestamp.zero + .milliseconds(40))
        #expect(try device.framePosition().frame == 48000)
        clock.advance(by: .milliseconds(10))
        #expect(try read(device, frames: 480) == expected(48000..<48480))
    }

    /// The position and its time come together: a running stream's hardware pointer is at the last
    /// period boundary, 20 ms after the start at 2 periods of 10 ms.
    @Test func thePositionCarriesTheTimeItRefersTo() throws {
        let device = try capture()
        clock.advance(by: .milliseconds(5))
        _ = try read(device, frames: 1)                     // starts at 5 ms
        clock.advance(by: .milliseconds(27))                // 32 ms: boundaries at 15 and 25 ms passed
        #expect(try device.framePosition() == PCMFramePosition(frame: 960, time: Timestamp.zero + .milliseconds(25)))
        try device.drop()                                   // stopped: the position refers to now
        #expect(try device.framePosition() == PCMFramePosition(frame: 960, time: Timestamp.zero + .milliseconds(32)))
    }

    @Test func randomReadSizesCaptureTheSameFramesAsOneRead() throws {
        let device = try capture()
        _ = try read(device, frames: 1)
        var samples: [Int16] = []
        for chunk in seededChunks(total: 9600, maxChunk: 500, seed: 21) {
            var got: [Int16] = []
            while got.count < chunk * 2 {
                let more = try read(device, frames: chunk - got.count / 2)
                if more.isEmpty { clock.advance(by: Self.period) }
                got += more
            }
            samples += got
        }
        #expect(samples == expected(0..<9600))
        #expect(device.xruns.count == 0)
    }

    @Test func captureFromABufferThenSilence() throws {
        let source = seededBytes(600 * 4, seed: 31)
        let device = try SimulatedPCM(hardware: hardware, direction: .capture, configuration: request(), clock: clock,
                                      capture: .frames(source))
        var bytes = [UInt8](repeating: 0xAA, count: 960 * 4)
        #expect(try bytes.withUnsafeMutableBytes { try device.read(into: $0) } == 0)
        clock.advance(by: .milliseconds(20))
        #expect(try bytes.withUnsafeMutableBytes { try device.read(into: $0) } == 960)
        #expect(Array(bytes[0..<600 * 4]) == source)
        #expect(bytes[(600 * 4)...].allSatisfy { $0 == 0 })
    }

    @Test func waitReturnsWhenAPeriodIsReadyOrTheDeadlinePasses() throws {
        let device = try capture()
        #expect(throws: PCMError.self) { _ = try device.wait(timeout: nil) }   // not started: would wait for ever
        _ = try read(device, frames: 1)
        clock.advance(by: .milliseconds(10))
        #expect(try device.wait(timeout: .zero))
        _ = try read(device, frames: 480)
        #expect(try !device.wait(timeout: .zero))
    }
}
