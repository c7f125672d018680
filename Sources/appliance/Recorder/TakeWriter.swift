import Codec8_24
import HAL
import Queue
import Synchronization

/// What the writer thread tells the recording service (which hops onto the control loop with it).
enum TakeNotice: Sendable, Hashable {
    case started(file: String)
    case split(file: String)
    case stopped(file: String, seconds: Double, reason: RecordingEndReason)
    /// The capture should end (the `--seconds` limit).
    case endCapture(RecordingEndReason)
    case voxArmed
    case voxTriggered
}

/// The recording's destination on the writer thread: the input queue delivers 32-bit frames, which this
/// widens to 8.24 once and routes as `RecorderState` says, frame-exactly: into the pre-roll ring while armed,
/// into the take's file (and its safety track, 12 dB lower, from the same frames), to the next file at a
/// split. Files are AudioFiles written in place with periodic commits, so a power cut leaves a file
/// `AudioFile.repair` recovers. Markers are kept by capture frame and written into the file that holds them.
final class TakeWriter: RecordingDestination, @unchecked Sendable {
    /// Where and how takes are written.
    struct Output: Sendable {
        var type: AudioFileType
        var fileFormat: StreamFormat
        var safetyTrack: Bool
        var names: RecordingNames
        /// Bit rate (Opus) for the library codecs; ignored by linear PCM.
        var encoder = EncoderSettings()
        var commitSeconds: Double = 1

        /// How each file is written: sizes (or FLAC frames, Ogg pages, M4A fragments) committed every
        /// `commitSeconds` of audio and synced then (fsync(2)), so a power cut loses at most that much. Without
        /// the sync a commit is only in the page cache, which a power cut loses with the audio before it (ext4
        /// writes dirty data back after up to 30 s: dirty_expire_centisecs; issue 16). No metadata chunk: on a
        /// full disk the trailer must fit in what little is left (markers only).
        var writeOptions: AudioFileWriteOptions {
            var options = AudioFileWriteOptions(commitInterval: commitSeconds, synchronizeOnCommit: true)
            options.encoder = encoder
            return options
        }
    }

    /// -12 dB as an 8.24 gain: 10^(-12/20) rounded to 2^-24.
    static let safetyGain = Decibels.gain(-12)

    /// The input queue's format: signed 32-bit, exact for every 8.24 sample within full scale.
    let dataFormat: StreamFormat
    /// The container and format of the next file opened (a press during pre-roll standby may choose another
    /// container or depth; rate and channels stay the capture's).
    var output: Output {
        get { shared.withLock { $0.output } }
        set { shared.withLock { $0.output = newValue } }
    }
    private let wallClock: @Sendable () -> LocalDateTime
    private let notify: @Sendable (TakeNotice) -> Void

    /// Shared with the control thread: the state machine and the markers pressed.
    private struct Shared: Sendable {
        var output: Output
        var state = RecorderState()
        var markers: [AudioFileMarker] = []   // framePosition: capture frame
        var file: String?
        /// The name `record` chose for the take's first file (`nameFirstFile`), opened under it.
        var chosenBase: String?
        var fileFrames: Int64 = 0
    }

    private let shared: Mutex<Shared>

    // Writer thread only.
    private let ring: PreRollRing
    private var frames: [Fixed824] = []
    private var safety: [Fixed824] = []
    private var main: AudioFile?
    private var safetyFile: AudioFile?
    private var base = ""
    /// Capture frame of the open file's frame 0.
    private var fileStart: Int64 = 0
    /// Capture frame of the next frame to route.
    private var position: Int64 = 0

    init(plan: RecorderPlan, output: Output, wallClock: @escaping @Sendable () -> LocalDateTime,
         notify: @escaping @Sendable (TakeNotice) -> Void) {
        dataFormat = .linearPCM(sampleRate: output.fileFormat.sampleRate, channels: output.fileFormat.channelsPerFrame, bits: 32)
        shared = Mutex(Shared(output: output))
        self.wallClock = wallClock
        self.notify = notify
        ring = PreRollRing(frames: plan.preRollFrames, channels: output.fileFormat.channelsPerFrame)
    }

    /// Runs `body` on the shared state (the control thread's way in).
    func withState<T>(_ body: (inout RecorderState) throws(RecorderRefusal) -> T) throws(RecorderRefusal) -> T {
        try shared.withLock { (shared: inout Shared) throws(RecorderRefusal) -> T in try body(&shared.state) }
    }

    var phase: RecorderState.Phase { shared.withLock { $0.state.phase } }
    /// The phase as `status` shows it: a pressed take whose first buffer has not arrived yet is recording.
    var shownPhase: String {
        shared.withLock { $0.state.isStartPending ? RecorderState.Phase.recording.rawValue : $0.state.phase.rawValue }
    }
    var currentFile: String? { shared.withLock { $0.file } }
    var fileSeconds: Double { shared.withLock { Double($0.fileFrames) } / dataFormat.sampleRate }

    /// Chooses the take's first file name now, on the control thread at `record`, so the reply and `status`
    /// name the file before the first buffer reaches the writer; returns the file name with its extension.
    func nameFirstFile() -> String {
        let output = self.output
        let base = output.names.base(at: wallClock())
        shared.withLock {
            $0.chosenBase = base
            $0.file = base
        }
        return "\(base).\(output.names.fileExtension)"
    }

    /// Forgets the name chosen when the take was refused after all.
    func unnameFirstFile() {
        shared.withLock {
            $0.chosenBase = nil
            $0.file = nil
        }
    }

    /// `mark` pressed at capture frame `frame`: a marker where the state machine places it, written into the
    /// file that holds that frame; the frame, or nil when there is no take to mark.
    func addMarker(pressedAt frame: Int64, name: String) -> Int64? {
        shared.withLock { shared in
            guard let placed = shared.state.markerFrame(pressedAt: frame) else { return nil }
            shared.markers.append(AudioFileMarker(framePosition: placed, name: name))
            return placed
        }
    }

    // MARK: - Writer thread

    func writePackets(_ bytes: UnsafeRawBufferPointer, packetCount: Int) throws {
        let channels = dataFormat.channelsPerFrame
        let count = packetCount * channels
        if frames.count < count {
            frames = [Fixed824](repeating: .zero, count: count)
            safety = [Fixed824](repeating: .zero, count: count)
        }
        var peak: Int32 = 0
        frames.withUnsafeMutableBufferPointer { out in
            for i in 0..<count {
                let sample = Fixed824(int32: Int32(littleEndian: bytes.loadUnaligned(fromByteOffset: 4 * i, as: Int32.self)))
                out[i] = sample
                peak = max(peak, sample.raw == .min ? .max : abs(sample.raw))
            }
        }
        let peakDB = Decibels.decibels(Double(peak) / Double(Fixed824.unityRaw))
        let actions = shared.withLock { $0.state.captured(frames: packetCount, peakDB: peakDB) }
        var offset = 0
        for action in actions {
            switch action {
            case .keepForPreRoll(let n):
                frames.withUnsafeBufferPointer { ring.append($0.baseAddress! + offset * channels, frames: n) }
                offset += n
                position += Int64(n)
            case .drop(let n):
                offset += n
                position += Int64(n)
            case .write(let n):
                try write(from: offset, frames: n)
                offset += n
                position += Int64(n)
            case .openTake(let preRoll):
                try open(preRollFrames: preRoll)
                notify(.started(file: base))
            case .split:
                try closeFiles()
                try open(preRollFrames: 0)
                notify(.split(file: base))
            case .closeTake(let reason):
                let finished = base
                let seconds = try closeFiles()
                notify(.stopped(file: finished, seconds: seconds, reason: reason))
            case .endCapture(let reason):
                notify(.endCapture(reason))
            case .voxArmed:
                ring.removeAll()
                notify(.voxArmed)
            case .voxTriggered:
                notify(.voxTriggered)
            }
        }
    }

    /// The capture is over (every frame delivered): finalizes an open take. Called by RecordingWriter.finish.
    func close() throws {
        let actions = shared.withLock { $0.state.captureEnded() }
        for case .closeTake(let reason) in actions {
            let finished = base
            let seconds = try closeFiles()
            notify(.stopped(file: finished, seconds: seconds, reason: reason))
        }
        try closeFiles()   // a file left open by an earlier failure
    }

    private func open(preRollFrames: Int) throws {
        let time = wallClock()
        let output = self.output
        let chosen = shared.withLock { shared -> String? in
            defer { shared.chosenBase = nil }
            return shared.chosenBase
        }
        base = chosen ?? output.names.base(at: time)
        let options = output.writeOptions
        main = try AudioFile.create(path: output.names.path(base), type: output.type, format: output.fileFormat, options: options)
        if output.safetyTrack {
            safetyFile = try AudioFile.create(path: output.names.safetyPath(base), type: output.type, format: output.fileFormat,
                                              options: options)
        }
        let held = min(preRollFrames, ring.count)
        fileStart = position - Int64(held)
        shared.withLock {
            $0.file = base
            $0.fileFrames = 0
        }
        try ring.withNewest(held) { run in try append(run) }
        ring.removeAll()
    }

    private func write(from offset: Int, frames count: Int) throws {
        let channels = dataFormat.channelsPerFrame
        try frames.withUnsafeBufferPointer { all in
            try append(UnsafeBufferPointer(rebasing: all[(offset * channels)..<((offset + count) * channels)]))
        }
    }

    /// Appends interleaved frames to the take's file, and 12 dB lower to its safety track (scaled a block at a
    /// time through `safety`, which is one block long while the pre-roll run may be up to 60 s).
    private func append(_ run: UnsafeBufferPointer<Fixed824>) throws {
        guard let main else { return }
        try main.writeFrames(run)
        if let safetyFile {
            let gain = Self.safetyGain
            let chunk = max(safety.count, dataFormat.channelsPerFrame)
            if safety.count < chunk { safety = [Fixed824](repeating: .zero, count: chunk) }
            var done = 0
            while done < run.count {
                let count = min(chunk, run.count - done)
                try safety.withUnsafeMutableBufferPointer { out in
                    for i in 0..<count { out[i] = run[done + i] * gain }
                    try safetyFile.writeFrames(UnsafeBufferPointer(rebasing: out[0..<count]))
                }
                done += count
            }
        }
        let added = Int64(run.count / dataFormat.channelsPerFrame)
        shared.withLock { $0.fileFrames += added }
    }

    /// Finalizes the open file(s) with the markers that fall in them; returns the main file's seconds.
    @discardableResult
    private func closeFiles() throws -> Double {
        guard let main else { return 0 }
        let end = fileStart + main.frameCount
        let start = fileStart
        let last = shared.withLock { $0.state.phase } == .idle
        let markers = shared.withLock { shared -> [AudioFileMarker] in
            let mine = shared.markers.filter { $0.framePosition >= start && ($0.framePosition < end || last) }
            shared.markers.removeAll { $0.framePosition >= start && ($0.framePosition < end || last) }
            return mine
        }
        let placed = markers.map {
            AudioFileMarker(framePosition: min($0.framePosition, end) - start, name: $0.name)
        }
        let seconds = main.duration
        self.main = nil
        let safetyFile = self.safetyFile
        self.safetyFile = nil
        shared.withLock {
            $0.file = nil
            $0.fileFrames = 0
        }
        main.markers += placed
        safetyFile?.markers += placed
        var failure: (any Error)?
        do { try main.close() } catch { failure = error }
        do { try safetyFile?.close() } catch { failure = failure ?? error }
        if let failure { throw failure }
        return seconds
    }
}
