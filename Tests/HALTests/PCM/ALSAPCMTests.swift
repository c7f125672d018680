import Foundation
import Synchronization
import Testing
@testable import HAL

/// Drives the real alsa-lib through its `null` and `file` plugins, defined in a configuration built from
/// text (no system configuration, no sound card): what is played must land in the file byte for byte.
@Suite("ALSA PCM (alsa-lib null and file plugins)")
struct ALSAPCMTests {
    let directory = TemporaryDirectory()

    /// The test PCMs: a file-backed playback and capture, a linear-only and a stereo-only device.
    func configuration() throws -> ALSAConfiguration {
        let text = """
            pcm.null { type null }
            pcm.testfile { type file; slave.pcm "null"; file "\(directory.file("out.raw"))"; format "raw" }
            pcm.testinput { type file; slave.pcm "null"; file "\(directory.file("unused.raw"))"; \
            infile "\(directory.file("in.raw"))"; format "raw" }
            pcm.linearonly { type linear; slave { pcm "null"; format S16_LE } }
            pcm.stereoonly {
                type multi
                slaves.a { pcm "null"; channels 2 }
                bindings.0 { slave a; channel 0 }
                bindings.1 { slave a; channel 1 }
            }
            """
        return try ALSAConfiguration(text: text)
    }

    func request(_ format: PCMSampleFormat, channels: Int = 2) -> PCMConfiguration {
        PCMConfiguration(format: format, rate: 48000, channels: channels, periodFrames: 256, periodCount: 4)
    }

    @Test(arguments: [PCMSampleFormat.s16LE, .s32LE, .s24LE, .float32LE])
    func playedFramesLandInTheFileExactly(format: PCMSampleFormat) throws {
        let config = try configuration()
        let device = try ALSAPCM(name: "testfile", direction: .playback, configuration: request(format),
                                 alsaConfiguration: config)
        #expect(device.parameters.format == format)
        #expect(device.parameters.rate == 48000)
        #expect(device.parameters.channels == 2)
        #expect(device.parameters.periodFrames == 256)
        #expect(device.parameters.bufferFrames == 1024)
        #expect(device.parameters.latency == .nanoseconds(21_333_333))
        let frames = 3000
        let bytes = seededBytes(frames * device.parameters.bytesPerFrame, seed: 0x5eed + UInt64(format.bytesPerSample))
        let chunks = seededChunks(total: frames, maxChunk: 700, seed: 7)
        #expect(try writeInChunks(device, bytes, chunks: chunks) == frames)
        try device.drain()
        #expect(try device.framePosition().frame == Int64(frames))
        #expect(device.xruns.count == 0)
        device.close()
        #expect(device.state == .closed)
        let file = try [UInt8](Data(contentsOf: URL(fileURLWithPath: directory.file("out.raw"))))
        #expect(file.count == bytes.count)
        #expect(file == bytes)
    }

    @Test func typedSamplesAreWrittenAsTheyAre() throws {
        let config = try configuration()
        let device = try ALSAPCM(name: "testfile", direction: .playback, configuration: request(.s16LE),
                                 alsaConfiguration: config)
        let samples: [Int16] = (0..<512).map { Int16(truncatingIfNeeded: $0 &* 131 &- 20000) }
        #expect(try samples.withUnsafeBufferPointer { try device.write($0) } == 256)
        device.close()
        let file = try [UInt8](Data(contentsOf: URL(fileURLWithPath: directory.file("out.raw"))))
        let expected = samples.flatMap { [UInt8(truncatingIfNeeded: $0), UInt8(truncatingIfNeeded: $0 >> 8)] }
        #expect(file == expected)
    }

    @Test func captureReadsTheInputFileExactly() throws {
        let frames = 2048
        let bytes = seededBytes(frames * 4, seed: 99)
        try Data(bytes).write(to: URL(fileURLWithPath: directory.file("in.raw")))
        let config = try configuration()
        let device = try ALSAPCM(name: "testinput", direction: .capture, configuration: request(.s16LE),
                                 alsaConfiguration: config)
        var captured = [UInt8](repeating: 0, count: bytes.count)
        var offset = 0
        for chunk in seededChunks(total: frames, maxChunk: 300, seed: 3) {
            let end = offset + chunk * 4
            let count = try captured[offset..<end].withUnsafeMutableBytes { try device.read(into: $0) }
            #expect(count == chunk)
            offset = end
        }
        #expect(captured == bytes)
        #expect(try device.framePosition().frame >= Int64(frames))
        device.close()
    }

    /// alsa-lib's snd_pcm_drain: "For capture stop PCM permitting to retrieve residual frames" (pcm.c).
    /// The tail is what was waiting when it stopped: alsa-lib's null plugin always has a full buffer
    /// waiting (pcm_null.c snd_pcm_null_avail_update: buffer_size unless prepared), and the file plugin
    /// fills what is read from its infile (pcm_file.c snd_pcm_file_readi). So after 2048 frames, the tail
    /// is exactly the next 1024 frames of the file (the buffer), then the end of the stream.
    /// Both ways: paused (the null plugin can pause: pcm_null.c snd_pcm_null_pause) and as on a device
    /// without pause (the Pi's bcm2835-i2s: soc-generic-dmaengine-pcm.c dmaengine_pcm_set_runtime_hwparams
    /// offers SNDRV_PCM_INFO_PAUSE only when the DMA channel has device_pause, and bcm2835-dma.c sets none),
    /// where a drain would put the stream in DRAINING, which the kernel refuses to read (pcm_lib.c
    /// pcm_accessible_state).
    @Test(arguments: [true, false])
    func aDrainedCaptureTailIsReadUntilTheEnd(usesHardwarePause: Bool) throws {
        let frames = 4096
        let bytes = seededBytes(frames * 4, seed: 77)
        try Data(bytes).write(to: URL(fileURLWithPath: directory.file("in.raw")))
        let config = try configuration()
        var request = request(.s16LE)
        request.usesHardwarePause = usesHardwarePause
        let device = try ALSAPCM(name: "testinput", direction: .capture, configuration: request,
                                 alsaConfiguration: config)
        #expect(device.canPause == usesHardwarePause)
        var captured = [UInt8](repeating: 0, count: 256 * 4)
        for chunk in 0..<8 {      // 2048 frames, a period at a time
            #expect(try captured.withUnsafeMutableBytes { try device.read(into: $0) } == 256)
            let same = captured == Array(bytes[chunk * 1024..<(chunk + 1) * 1024])
            #expect(same, "chunk \(chunk) differs from the input file")
        }
        try device.drain()
        #expect(device.state == .draining)
        #expect(try device.framePosition().frame == 2048 + 1024)
        var tail = [UInt8](repeating: 0, count: 4096 * 4)
        let count = try tail.withUnsafeMutableBytes { try device.read(into: $0) }
        #expect(count == 1024)
        guard count == 1024 else { return }
        let tailIsTheFile = Array(tail[0..<count * 4]) == Array(bytes[2048 * 4..<(2048 + count) * 4])
        #expect(tailIsTheFile, "the tail is not frames 2048..<3072 of the input file")
        #expect(device.state == .setup)
        #expect(try tail.withUnsafeMutableBytes { try device.read(into: $0) } == 0)   // end of stream
        #expect(try device.framePosition().frame == 3072)
        try device.drop()
        #expect(device.state == .prepared)
        device.close()
    }

    /// The position's time is the status' timestamp on CLOCK_MONOTONIC (sw params tstamp type
    /// MONOTONIC, alsa-lib pcm.c snd_pcm_sw_params_set_tstamp_type), so it falls between two readings of
    /// that clock taken around the call; alsa-lib's default type is gettimeofday, which does not.
    @Test func thePositionIsStampedOnTheMonotonicClock() throws {
        let config = try configuration()
        let device = try ALSAPCM(name: "null", direction: .playback, configuration: request(.s16LE),
                                 alsaConfiguration: config)
        let silence = [UInt8](repeating: 0, count: 1024 * 4)
        #expect(try silence.withUnsafeBytes { try device.write($0) } == 1024)
        let before = SystemClock.shared.now
        let position = try device.framePosition()
        let after = SystemClock.shared.now
        #expect(position.time >= before && position.time <= after, "\(position.time) not in \(before)...\(after)")
        device.close()
    }

    /// close() must not free the handle under a thread that is querying it: another thread hammers
    /// `state` and `framePosition()` while the stream is closed, 300 times. Before the fix the handle
    /// was freed with queries in flight (a use after free: with MALLOC_PERTURB_ set, a crash).
    @Test func closingWhileAnotherThreadQueriesIsSafe() throws {
        let config = try configuration()
        for _ in 0..<300 {
            let device = try ALSAPCM(name: "null", direction: .playback, configuration: request(.s16LE),
                                     alsaConfiguration: config)
            let queries = Atomic<Int>(0)
            let stop = Atomic<Bool>(false)
            let finished = Atomic<Bool>(false)
            let closedSeen = Atomic<Bool>(false)
            let hammer = Thread {
                while !stop.load(ordering: .acquiring) {
                    if device.state == .closed { closedSeen.store(true, ordering: .releasing) }
                    if (try? device.framePosition()) == nil { closedSeen.store(true, ordering: .releasing) }
                    queries.wrappingAdd(1, ordering: .relaxed)
                }
                finished.store(true, ordering: .releasing)
            }
            hammer.start()
            while queries.load(ordering: .relaxed) < 20 { sched_yield() }
            device.close()
            #expect(device.state == .closed)
            while !closedSeen.load(ordering: .acquiring) { sched_yield() }   // it saw the close, and lived
            stop.store(true, ordering: .releasing)
            while !finished.load(ordering: .acquiring) { sched_yield() }
        }
    }

    @Test func anUnknownNameIsNoSuchDevice() throws {
        let config = try configuration()
        #expect {
            _ = try ALSAPCM(name: "nosuchpcm", direction: .playback, configuration: request(.s16LE),
                            alsaConfiguration: config)
        } throws: { error in
            guard case let .noSuchDevice(name, direction, errno, detail) = error as? PCMError else { return false }
            return name == "nosuchpcm" && direction == .playback && errno == .noSuchFile
                && detail.contains("Unknown PCM nosuchpcm")
                && (error as! PCMError).description.contains("no playback PCM 'nosuchpcm'")
        }
    }

    @Test func aRefusedFormatListsWhatIsOffered() throws {
        let config = try configuration()
        let error = pcmError {
            _ = try ALSAPCM(name: "linearonly", direction: .playback, configuration: request(.float32LE),
                            alsaConfiguration: config)
        }
        guard case let .refused(name, _, parameter, requested, offered) = error else {
            Issue.record("expected a refusal, got \(String(describing: error))")
            return
        }
        #expect(name == "linearonly")
        #expect(parameter == .format)
        #expect(requested == "FLOAT_LE")
        #expect(offered.formats == [.s16LE, .s24LE, .s32LE])
        #expect(offered.otherFormats.contains("S24_3LE"))
        #expect(!offered.otherFormats.contains("FLOAT_LE"))
        #expect(error!.description.contains("refuses format FLOAT_LE; it offers formats S16_LE, S24_LE, S32_LE"))
        #expect(error!.hint.contains("S16_LE, S24_LE, S32_LE"))
    }

    @Test func refusedChannelsSayHowManyAreOffered() throws {
        let config = try configuration()
        let error = pcmError {
            _ = try ALSAPCM(name: "stereoonly", direction: .playback, configuration: request(.s16LE, channels: 6),
                            alsaConfiguration: config)
        }
        guard case let .refused(_, _, parameter, requested, offered) = error else {
            Issue.record("expected a refusal, got \(String(describing: error))")
            return
        }
        #expect(parameter == .channels)
        #expect(requested == "6")
        #expect(offered.channels == 2...2)
        #expect(error!.description.contains("channels 2;"))
        // The same device grants stereo.
        let device = try ALSAPCM(name: "stereoonly", direction: .playback, configuration: request(.s16LE),
                                 alsaConfiguration: config)
        #expect(device.parameters.channels == 2)
    }

    @Test func transportOnTheNullDevice() throws {
        let config = try configuration()
        var wanted = request(.s16LE)
        wanted.startThreshold = 256
        let device = try ALSAPCM(name: "null", direction: .playback, configuration: wanted, alsaConfiguration: config)
        #expect(device.state == .prepared)
        #expect(device.parameters.startThreshold == 256)
        #expect(device.canPause)
        let silence = [UInt8](repeating: 0, count: 256 * 4)
        #expect(try silence.withUnsafeBytes { try device.write($0) } == 256)
        #expect(device.state == .running)
        try device.pause()
        #expect(device.state == .paused)
        #expect(throws: PCMError.badState(name: "null", operation: "pause", state: .paused)) { try device.pause() }
        try device.resume()
        #expect(device.state == .running)
        try device.drop()
        #expect(device.state == .prepared)
        device.close()
        #expect(throws: PCMError.badState(name: "null", operation: "write", state: .closed)) {
            _ = try silence.withUnsafeBytes { try device.write($0) }
        }
    }

    @Test func aBrokenConfigurationIsReported() {
        #expect(throws: PCMError.self) { _ = try ALSAConfiguration(text: "pcm.broken { type null") }
    }

    @Test func systemConfigurationCanBeExtended() throws {
        guard FileManager.default.fileExists(atPath: "/usr/share/alsa/alsa.conf") else { return }
        let config = try ALSAConfiguration(
            text: "pcm.extended { type file; slave.pcm \"null\"; file \"\(directory.file("x.raw"))\"; format \"raw\" }",
            includingSystem: true)
        // `null` comes from the system configuration; `extended` from the text.
        let device = try ALSAPCM(name: "extended", direction: .playback, configuration: request(.s16LE),
                                 alsaConfiguration: config)
        #expect(try [UInt8](repeating: 1, count: 40).withUnsafeBytes { try device.write($0) } == 10)
        device.close()
        #expect(try Data(contentsOf: URL(fileURLWithPath: directory.file("x.raw"))).count == 40)
    }

    /// EIO from a transfer whose stream stands in XRUN is the overrun (EPIPE, recovered); EIO otherwise, and
    /// every other code, stays what it is (errno values from <errno.h>: EIO 5, EPIPE 32).
    @Test func anEIOFromAStreamInXrunIsTheXrun() {
        #expect(EIO == 5 && EPIPE == 32)
        #expect(ALSAPCM.transferCode(EIO, state: .xrun) == EPIPE)
        #expect(ALSAPCM.transferCode(EIO, state: .running) == EIO)
        #expect(ALSAPCM.transferCode(EAGAIN, state: .xrun) == EAGAIN)
        #expect(ALSAPCM.transferCode(EPIPE, state: .xrun) == EPIPE)
    }
}
