import ArgumentParser
import Codec8_24
import HAL
import Queue

/// `appliance play FILE`: plays a file through an output queue on the real-time render engine, to an ALSA
/// PCM or to a simulated one paced by the system clock (what is played there is discarded), and with
/// `--stats` says how the render thread kept time: xruns, scheduling, render time per period.
struct PlayCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "play",
        abstract: "Play an audio file through an output queue on the real-time render engine.")

    @Argument(help: "The file: WAV, AIFF, AIFF-C or CAF with linear PCM, mu-law, A-law or IMA4; mono or stereo.")
    var file: String

    @Option(help: "An ALSA PCM name (e.g. hw:0,0, default), or 'simulated': a device paced by the system clock that discards what it plays.")
    var device = "simulated"

    @Option(help: "The device's sample rate in Hz (the file is converted to it).")
    var rate = 48_000

    @Option(help: "Frames per period: the render thread's unit of work.")
    var period = 256

    @Option(help: "Periods in the device buffer.")
    var periods = 2

    @Option(help: "An EQ preset for the software EQ (see 'appliance eq list').")
    var eq: String?

    @Option(help: "The queue's volume in dB (0 is unity; at most 0).")
    var volume: Double?

    @Option(help: "Play this many seconds, looping the file when it is shorter (default: the file once).")
    var seconds: Double?

    @Flag(help: "Print frames played, xruns, scheduling, memory locking and render time per period at the end.")
    var stats = false

    @Flag(inversion: .prefixedNo, help: "Lock the process's memory (mlockall) while playing.")
    var lockMemory = true

    static let simulatedName = "simulated"

    func validate() throws {
        guard (8_000...192_000).contains(rate) else { throw ValidationError("--rate \(rate) is not 8000 ... 192000 Hz") }
        guard (16...8192).contains(period) else { throw ValidationError("--period \(period) is not 16 ... 8192 frames") }
        guard (2...32).contains(periods) else { throw ValidationError("--periods \(periods) is not 2 ... 32") }
        if let seconds, !(seconds.isFinite && seconds > 0 && seconds <= 86_400) {
            throw ValidationError("--seconds \(seconds) is not a positive number of seconds (at most a day)")
        }
        if let volume, !(volume.isFinite && volume <= 0) {
            throw ValidationError("--volume \(volume) is not a level in dB at or below 0")
        }
        if let eq, EQPreset.named(eq) == nil { throw EQCommandError.unknownPreset(eq) }
    }

    func run() throws {
        let audio: AudioFile
        do { audio = try AudioFile.open(path: file) } catch {
            throw AudioToolError("cannot play '\(file)': \(error)")
        }
        let format = audio.dataFormat
        guard format.bytesPerPacket > 0, format.framesPerPacket > 0 else {
            throw AudioToolError("cannot play '\(file)': its packets vary in size (\(format.formatID))")
        }
        let framesWanted = seconds.map { Int64(($0 * format.sampleRate).rounded()) } ?? audio.frameCount
        let packets = (framesWanted + Int64(format.framesPerPacket) - 1) / Int64(format.framesPerPacket)

        let pcm = try openDevice()
        let configuration = RenderEngine.Configuration(preset: eq.flatMap(EQPreset.named), locksMemory: lockMemory)
        let engine: RenderEngine
        do { engine = try RenderEngine(output: pcm, input: nil, configuration: configuration) } catch {
            throw AudioToolError("cannot make the render engine: \(error)")
        }
        let callbacks = try AudioQueueCallbackThread(name: "player", pollInterval: .milliseconds(20))
        defer { callbacks.end() }
        let player: FilePlayer
        do {
            player = try FilePlayer(file: audio, host: engine, packets: packets, loops: seconds != nil, callbackThread: callbacks)
        } catch {
            throw AudioToolError("cannot play '\(file)': \(error)")
        }
        defer { player.queue.dispose() }
        if let volume { try player.queue.setVolume(decibels: volume) }
        try player.enqueueFirst(buffers: 4, seconds: 0.1)

        try engine.start()
        let scheduling = engine.scheduling.first
        try player.queue.start()
        let expected = Double(framesWanted) / format.sampleRate
        let played = try player.waitUntilPlayed(deadline: SystemClock.shared.now + .seconds(expected + 10))
        let failure = engine.stop(.drop)
        if let failure { throw AudioToolError("playback on \(device) failed: \(failure)") }
        guard played else { throw AudioToolError("playback on \(device) did not finish in time (xruns: \(engine.xruns))") }
        if stats {
            print(report(engine: engine, queueFrames: player.framesPlayed, fileRate: format.sampleRate,
                         scheduling: scheduling, device: pcm.parameters))
        }
    }

    /// The playback PCM: the simulated one on the system clock, or an ALSA device.
    private func openDevice() throws -> any PCMDevice {
        let configuration = PCMConfiguration(format: .s16LE, rate: rate, channels: 2, periodFrames: period, periodCount: periods)
        do {
            if device == Self.simulatedName {
                let hardware = SimulatedPCMHardware(name: Self.simulatedName, formats: [.s16LE], rates: [rate], channels: 2...2,
                                                    periodFrames: 16...8192, periodStep: 16, periodCounts: 2...32,
                                                    maxBufferBytes: 8192 * 32 * 4)
                return try SimulatedPCM(hardware: hardware, direction: .playback, configuration: configuration,
                                        clock: SystemClock.shared, playback: .discard)
            }
            return try ALSAPCM(name: device, direction: .playback, configuration: configuration)
        } catch {
            throw AudioToolError("cannot open device '\(device)': \(error)")
        }
    }

    private func report(engine: RenderEngine, queueFrames: Int64, fileRate: Double, scheduling: ThreadScheduling?,
                        device: PCMParameters) -> String {
        let periodMicroseconds = Double(device.periodFrames) * 1_000_000 / Double(device.rate)
        var lines = [
            "device:         \(self.device) at \(device.rate) Hz, \(device.periodFrames) frames x \(device.bufferFrames / max(1, device.periodFrames)) periods (\(format(periodMicroseconds)) us a period)",
            "frames played:  \(queueFrames) at \(formatHertz(fileRate)) (\(format(Double(queueFrames) / fileRate)) s); device periods: \(engine.outputPeriods)",
            "xruns:          \(engine.xruns)",
            "scheduling:     \(scheduling.map { "\($0)" } ?? "no render thread")",
            "memory locked:  \(engine.memoryLocked.map { $0 ? "yes (mlockall)" : "no (refused)" } ?? "no (--no-lock-memory)")",
        ]
        if let times = engine.renderTimes {
            let worst = Double(times.worstNanoseconds) / 1000
            lines.append("render time:    worst \(format(worst)) us, 99.9% <= \(times.percentile999) us, median <= \(times.median) us over \(times.periods) periods")
        }
        return lines.joined(separator: "\n")
    }

    private func format(_ value: Double) -> String {
        let scaled = (value * 10).rounded() / 10
        return "\(scaled)"
    }
}
