import Codec8_24
import HAL
import Queue

/// The recorder subsystem (RecorderControl): `record`, `mark`, `meter` and `stop` on the control loop.
/// Each recording gets an input queue on the engine's capture and a `RecordingWriter` whose thread runs a
/// `TakeWriter`; `RecorderState` (inside it) decides frame by frame. What the writer thread reports hops onto
/// the loop (`loop.post`) and becomes events, the record LED and the next state.
final class RecordingService: RecorderControl, @unchecked Sendable {
    /// What the board (and settings) choose when `record` names nothing.
    struct FormatDefaults: Hashable, Sendable {
        var container = AudioFileKind.wav
        var bits = 24
        var rate = 48_000
        var channels = 2
    }

    /// The file system as the recorder sees it (a test may replace it).
    struct Storage: Sendable {
        var availableBytes: @Sendable (String) -> Int64?
        var wallClock: @Sendable () -> LocalDateTime

        static let system = Storage(
            availableBytes: { path in (try? FileSystem.space(at: path))?.availableBytes },
            wallClock: { WallClock.local() })
    }

    let directory: String
    private let loop: ControlLoop
    private let host: (any RenderHost)?
    private let settings: LiveSettings
    private let defaults: FormatDefaults
    private let events: EventSink
    private let setRecordLED: (Bool) -> Void
    private var recordLEDOn = false
    private let storage: Storage
    /// Where a take stopped by a full disk is counted (`stats`' `disk full`).
    var faults: FaultCounters?

    /// The take's writer; read by tests, which stall its thread to make a slow card.
    private(set) var writer: RecordingWriter?
    private(set) var take: TakeWriter?
    private var queue: InputQueue?
    private var markerCount = 0
    private var metering = false
    private var nextMeter: Timestamp?
    private var lastFile: String?
    /// The number of the newest take writer made (`makeTake`); notices from older ones only report.
    private var takeNumber = 0
    /// Buffers of this many seconds (a 20 ms buffer as Apple's recording examples use 0.5 s for files;
    /// shorter keeps markers and the meter close to real time).
    static let bufferSeconds = 0.05
    static let meterInterval = Duration.milliseconds(250)

    init(directory: String, loop: ControlLoop, host: (any RenderHost)?, settings: LiveSettings,
         defaults: FormatDefaults = FormatDefaults(), events: @escaping EventSink,
         recordLED: @escaping (Bool) -> Void = { _ in }, storage: Storage = .system) {
        self.directory = directory
        self.loop = loop
        self.host = host
        self.settings = settings
        self.defaults = defaults
        self.events = events
        setRecordLED = recordLED
        self.storage = storage
    }

    /// A capture running only to fill the pre-roll ring (no take asked for yet).
    private var standingBy = false
    private var shuttingDown = false

    var isRecording: Bool { take != nil && !standingBy }

    // MARK: - Commands

    func perform(_ command: RecorderCommand) -> ConsoleReply {
        switch command {
        case .start(let options): return start(options)
        case .mark(let name): return mark(name)
        case .meter(let on): return meter(on)
        }
    }

    func handle(_ event: RemoteControlEvent) -> Bool {
        guard event == .toggleRecord else { return false }
        _ = isRecording ? stopRecording() : start(RecordOptions())
        return true
    }

    /// The plan and file format `options` ask for, over the settings and the board's defaults.
    func resolve(_ options: RecordOptions) throws(RecorderRefusal) -> (RecorderPlan, TakeWriter.Output) {
        let saved = settings.value.recording
        let name = options.container ?? saved.container ?? defaults.container.rawValue
        guard let kind = AudioFileKind(rawValue: name.lowercased()) else {
            throw .invalid("cannot record into '\(name)': choose \(AudioFileKind.choices)")
        }
        let type = kind.fileType
        // A depth named for this take must suit its format; a saved or board depth a codec cannot take
        // (32-bit for FLAC) gives way to 24.
        var bits = options.bits ?? saved.bits ?? defaults.bits
        let rate = options.rate ?? saved.rate ?? defaults.rate
        let channels = options.channels ?? saved.channels ?? defaults.channels
        if kind == .opus {
            if options.bits != nil { throw .invalid("opus takes no --bits: it encodes at a bit rate (--bitrate)") }
        } else if !kind.bitDepths.contains(bits) {
            let depths = kind.bitDepths.map(String.init)
            let choices = depths.dropLast().joined(separator: ", ") + " or " + (depths.last ?? "")
            if options.bits != nil || !kind.bitDepths.contains(24) {
                throw .invalid("cannot record \(bits)-bit samples\(kind.isPCM ? "" : " in \(kind.rawValue)"): choose \(choices)")
            }
            bits = 24
        }
        let bitRate = options.bitRate ?? (kind == .opus ? saved.bitRate : nil)
        if options.bitRate != nil, kind != .opus {
            throw .invalid("--bitrate is for opus; \(kind.rawValue) is \(kind.isPCM ? "uncompressed" : "lossless")")
        }
        guard (1...2).contains(channels) else { throw .invalid("cannot record \(channels) channels: choose 1 or 2") }
        guard (8_000...192_000).contains(rate) else { throw .invalid("cannot record at \(rate) Hz: choose 8000 to 192000") }
        let format = kind.format(rate: Double(rate), channels: channels, bits: bits)
        let plan = RecorderPlan(
            sampleRate: Double(rate), bytesPerFrame: kind.bytesPerFrame(rate: Double(rate), channels: channels, bits: bits, bitRate: bitRate),
            voxThresholdDB: options.voxThresholdDB ?? (options.voxAtSavedThreshold ? saved.voxThresholdDB : nil),
            voxHangSeconds: saved.voxHangSeconds,
            preRollSeconds: saved.preRollSeconds, splitSeconds: options.splitSeconds ?? saved.splitSeconds,
            splitBytes: options.splitBytes ?? saved.splitBytes, limitSeconds: options.seconds,
            minimumFreeBytes: saved.minimumFreeBytes)
        let output = TakeWriter.Output(type: type, fileFormat: format, safetyTrack: options.safetyTrack ?? saved.safetyTrack,
                                       names: RecordingNames(directory: directory, fileExtension: kind.fileExtension),
                                       encoder: EncoderSettings(bitRate: bitRate))
        return (plan, output)
    }

    private func start(_ options: RecordOptions) -> ConsoleReply {
        guard take == nil || standingBy else {
            return .error(.state, "already \(take?.phase == .armed ? "armed" : "recording"); stop it first")
        }
        guard let host else { return .error(.device, "this board has no capture device to record from") }
        let plan: RecorderPlan
        let output: TakeWriter.Output
        do throws(RecorderRefusal) {
            (plan, output) = try resolve(options)
        } catch {
            return .error(.usage, error.message)
        }
        if let take, let queue, standingBy {
            if take.dataFormat.sampleRate == output.fileFormat.sampleRate
                && take.dataFormat.channelsPerFrame == output.fileFormat.channelsPerFrame {
                return trigger(take, queue: queue, plan: plan, output: output)
            }
            standingBy = false
            finishCapture(rearm: false)   // another rate or width: a fresh capture, without the pre-roll
        }
        guard FileStatus.isWritableDirectory(directory) else {
            return .error(.io, "the recordings directory \(directory) is missing or not writable")
        }
        let available = storage.availableBytes(directory) ?? .max
        let now = loop.clock.now
        let take = makeTake(plan: plan, output: output)
        let actions: [RecorderAction]
        do throws(RecorderRefusal) {
            actions = try take.withState { state throws(RecorderRefusal) in try state.start(plan, availableBytes: available, now: now) }
        } catch {
            if case .full = error { return .error(.full, error.message) }
            return .error(.usage, error.message)
        }
        // Named before the capture runs, so the writer opens the file under the name the reply gives.
        let file = plan.voxThresholdDB == nil ? take.nameFirstFile() : ""
        do {
            try run(take, host: host)
        } catch {
            return .error(.device, "cannot start recording: \(error)")
        }
        markerCount = 0
        standingBy = false
        if actions.contains(.voxArmed) { events(ApplianceEvent(.record, "vox armed")) }
        if plan.voxThresholdDB != nil {
            return .ok(["armed: recording starts above \(plan.voxThresholdDB!) dBFS"])
        }
        recordLED(true)
        return .ok(["recording to \(file)"])
    }

    /// Starts the standby capture: the input runs (metered, so `meter` answers while idle) and, when the
    /// settings ask for a pre-record buffer, into the ring so a press has the seconds before it. Called at
    /// bring-up and after each recording.
    @discardableResult
    func standBy() -> ConsoleReply {
        guard take == nil else { return .error(.state, "the recorder is busy") }
        guard let host else { return .error(.device, "this board has no capture device to record from") }
        let plan: RecorderPlan
        let output: TakeWriter.Output
        do throws(RecorderRefusal) {
            (plan, output) = try resolve(RecordOptions())
        } catch {
            return .error(.usage, error.message)
        }
        let take = makeTake(plan: plan, output: output)
        do throws(RecorderRefusal) {
            try take.withState { state throws(RecorderRefusal) in try state.standBy(plan) }
        } catch {
            return .error(.usage, error.message)
        }
        do {
            try run(take, host: host)
        } catch {
            return .error(.device, "cannot start the pre-roll capture: \(error)")
        }
        standingBy = true
        return .ok([plan.preRollSeconds > 0 ? "pre-roll \(plan.preRollSeconds) s running" : "input metered"])
    }

    /// A take writer whose notices carry its number, so a notice posted by a take that has ended since (a
    /// `--seconds` limit reached just before a `stop`) is not taken for the current one's.
    private func makeTake(plan: RecorderPlan, output: TakeWriter.Output) -> TakeWriter {
        takeNumber += 1
        let number = takeNumber
        return TakeWriter(plan: plan, output: output, wallClock: storage.wallClock,
                          notify: { [self, loop] notice in loop.post { self.received(notice, fromTake: number) } })
    }

    /// A press during standby: the take begins at the queue's current frame, with the ring before it.
    private func trigger(_ take: TakeWriter, queue: InputQueue, plan: RecorderPlan, output: TakeWriter.Output) -> ConsoleReply {
        let available = storage.availableBytes(directory) ?? .max
        let now = loop.clock.now
        let press = queue.currentTime.sampleTime
        take.output = output
        // Named before the press reaches the writer thread, which opens the file under this name; a vox take
        // is only armed, its file named when the level first crosses the threshold (as `start` does).
        let file = plan.voxThresholdDB == nil ? take.nameFirstFile() : ""
        let actions: [RecorderAction]
        do throws(RecorderRefusal) {
            actions = try take.withState { state throws(RecorderRefusal) in
                try state.start(plan, availableBytes: available, now: now, pressFrame: press)
            }
        } catch {
            if plan.voxThresholdDB == nil { take.unnameFirstFile() }
            if case .full = error { return .error(.full, error.message) }
            return .error(.usage, error.message)
        }
        standingBy = false
        markerCount = 0
        if actions.contains(.voxArmed) { events(ApplianceEvent(.record, "vox armed")) }
        if let threshold = plan.voxThresholdDB {
            return .ok(["armed: recording starts above \(threshold) dBFS"])
        }
        recordLED(true)
        return .ok(["recording to \(file)" + (plan.preRollSeconds > 0 ? " with \(plan.preRollSeconds) s of pre-roll" : "")])
    }

    /// Delivers what the input queue has captured to the writer thread now and waits for it (the thread also
    /// polls on its own); for tests that drive the capture period by period.
    func deliverCaptured() { queue?.deliverCallbacks() }

    private func mark(_ name: String?) -> ConsoleReply {
        guard let take, let queue,
              let frame = take.addMarker(pressedAt: queue.currentTime.sampleTime, name: name ?? "marker \(markerCount + 1)")
        else { return .error(.state, "not recording: nothing to mark") }
        markerCount += 1
        events(ApplianceEvent(.record, "marker \(markerCount) \(frame)"))
        return .ok(["marker \(markerCount) at frame \(frame)"])
    }

    /// The input levels now: peak and RMS per channel, in dBFS.
    func meterLine() -> String? {
        guard let levels = queue?.levels, !levels.isEmpty else { return nil }
        return levels.enumerated().map { index, level in
            "ch\(index + 1) peak \(Self.db(level.peak)) rms \(Self.db(level.average))"
        }.joined(separator: " ")
    }

    private static func db(_ value: Double) -> String {
        let tenths = (value * 10).rounded() / 10
        return tenths <= Decibels.silenceFloor ? "-inf" : "\(tenths)"
    }

    private func meter(_ on: Bool?) -> ConsoleReply {
        if let on {
            metering = on
            nextMeter = on ? loop.clock.now : nil
            return .ok(["meter \(on ? "on" : "off")"])
        }
        guard let line = meterLine() else { return .error(.state, "no input is running to meter (this board has no capture)") }
        return .ok([line])
    }

    /// An input queue on the engine's capture, its writer thread running `take`.
    private func run(_ take: TakeWriter, host: any RenderHost) throws(AudioQueueError) {
        let writer = try RecordingWriter(destination: take, name: "recorder")
        let queue = try InputQueue(format: take.dataFormat, host: host, callbackThread: writer.thread,
                                   dither: false, metering: true, callback: writer.callback)
        // Strong references: the take and the queue are dropped when the capture ends, which breaks the cycle.
        queue.addRunningListener { [self, loop] queue, running in
            if !running { loop.post { self.captureStopped(queue) } }
        }
        // Frames the writer could not take in time (a stall longer than its buffers cover) are missing from the
        // take: said as an event, never silently (the system rig found a take 100 ms short with no word).
        queue.addListener { [events] _, change in
            if case .droppedFrames(let total) = change { events(ApplianceEvent(.record, "dropped \(total) frames")) }
        }
        do {
            try writer.start(queue, plan: writer.recommendedPlan(bufferDuration: Self.bufferSeconds, format: take.dataFormat))
        } catch {
            queue.dispose()
            writer.thread.end()
            throw error
        }
        self.writer = writer
        self.queue = queue
        self.take = take
    }

    // MARK: - Stop

    func stopRecording() -> ConsoleReply {
        guard let take, !standingBy else { return .error(.state, "not recording") }
        let file = take.currentFile
        _ = try? take.withState { state throws(RecorderRefusal) in state.stop() }
        finishCapture()
        return .ok(file.map { ["stopped \($0)"] } ?? ["disarmed"])
    }

    /// Ends the capture: every captured frame is written and the files finalized, on this thread.
    private func finishCapture(rearm: Bool = true) {
        guard let writer, let queue else { return }
        self.writer = nil
        self.queue = nil
        do {
            try writer.finish(queue)
        } catch {
            events(ApplianceEvent(.error, "recording: \(error)"))
        }
        take = nil
        standingBy = false
        recordLED(false)
        nextMeter = metering ? loop.clock.now : nil
        if rearm && !shuttingDown { standBy() }
    }

    /// The queue stopped by itself (a stop of ours has already let go of it): a write failed, or the input
    /// device did (unplugged, an I/O error). When the disk is (nearly) full that is the reason
    /// (`EVENT record disk-full`); a failed input is an error event; either way the take is finalized.
    private func captureStopped(_ stopped: InputQueue) {
        guard stopped === queue, take != nil, let writer else { return }
        if writer.error != nil {
            let floor = max(settings.value.recording.minimumFreeBytes, 1 << 20)
            if (storage.availableBytes(directory) ?? .max) < floor { reportDiskFull() }
            finishCapture()
            return
        }
        events(ApplianceEvent(.error, "recording: input stopped: \(stopped.failure ?? "the capture ended")"))
        finishCapture(rearm: false)   // a standby on a failed input would stop again at once
    }

    private func received(_ notice: TakeNotice, fromTake number: Int) {
        // A notice from an ended take still reports what happened to its files, but acts on nothing.
        let current = take != nil && number == takeNumber
        switch notice {
        case .started(let file):
            if current {
                lastFile = file
                recordLED(true)
            }
            events(ApplianceEvent(.record, "started \(file)"))
        case .split(let file):
            lastFile = file
            events(ApplianceEvent(.record, "split \(file)"))
        case .stopped(let file, let seconds, _):
            events(ApplianceEvent(.record, "stopped \(file) \(Self.seconds(seconds))"))
        case .endCapture:
            if current { finishCapture() }
        case .voxArmed:
            if current { recordLED(false) }
            events(ApplianceEvent(.record, "vox armed"))
        case .voxTriggered:
            events(ApplianceEvent(.record, "vox triggered"))
        }
    }

    /// `EVENT record disk-full`, counted in `stats` (`disk full`); the take is finalized by the caller.
    private func reportDiskFull() {
        faults?.count(.diskFull)
        events(ApplianceEvent(.record, "disk-full"))
    }

    /// The record LED follows the take: on while a file is being written (or about to be), off otherwise.
    private func recordLED(_ on: Bool) {
        guard on != recordLEDOn else { return }
        recordLEDOn = on
        setRecordLED(on)
    }

    private static func seconds(_ value: Double) -> String { "\((value * 1000).rounded() / 1000)" }

    // MARK: - Subsystem

    var statusLines: [String] {
        let standby = settings.value.recording.preRollSeconds > 0 ? "pre-roll standby" : "idle"
        var lines = ["recorder: \(standingBy ? standby : take?.shownPhase ?? "idle")"]
        if let take, let file = take.currentFile {
            lines.append("recording: \(file) \(Self.seconds(take.fileSeconds)) s")
        }
        if let available = storage.availableBytes(directory) { lines.append("free: \(available >> 20) MiB") }
        return lines
    }

    var nextDeadline: Timestamp? {
        let space = take.flatMap { take in (try? take.withState { state throws(RecorderRefusal) in state.nextSpaceCheck }) ?? nil }
        switch (space, nextMeter) {
        case let (a?, b?): return min(a, b)
        case let (a?, nil): return a
        case let (nil, b?): return b
        case (nil, nil): return nil
        }
    }

    func tick(now: Timestamp) {
        if let take {
            let due = (try? take.withState { state throws(RecorderRefusal) in state.nextSpaceCheck.map { $0 <= now } ?? false }) ?? false
            if due {
                let available = storage.availableBytes(directory) ?? .max
                let actions = (try? take.withState { state throws(RecorderRefusal) in
                    state.checkSpace(availableBytes: available, now: now)
                }) ?? []
                if actions.contains(.endCapture(.diskFull)) {
                    reportDiskFull()
                    finishCapture()
                }
            }
        }
        if let next = nextMeter, next <= now {
            nextMeter = now + Self.meterInterval
            if let line = meterLine() { events(ApplianceEvent(.meter, line)) }
        }
    }

    func shutdown() {
        shuttingDown = true
        if take != nil && !standingBy { _ = stopRecording() }
        standingBy = false
        finishCapture(rearm: false)
        metering = false
        nextMeter = nil
    }
}
