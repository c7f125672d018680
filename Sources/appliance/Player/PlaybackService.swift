import Codec8_24
import HAL
import Queue

/// The player: carries out `PlayerState`'s actions on an output queue attached to the render engine, fed
/// from the media library's files. Everything here runs on the control loop's thread; the queue's callbacks
/// (on its callback thread) only hop onto the loop with `loop.post`.
///
/// Gapless: when a file's data ends and the track that follows has the same stream format, its packets go
/// into the same queue right behind, so the engine plays one unbroken stream; when the formats differ, the
/// queue plays out and a new one is made for the next file at the boundary. Pause, resume, stop and seek use
/// the queue's fades, so none of them clicks.
final class PlaybackService: PlayerControl {
    /// Buffers of this many seconds; `buffersInFlight` of them queued ahead (about 0.4 s), and a few more
    /// allowed so a seek can enqueue at once while the discarded ones are still coming back.
    static let bufferSeconds = 0.1
    static let buffersInFlight = 4
    static let maximumBuffers = 8

    let library: MediaLibrary
    private let loop: ControlLoop
    private let host: any RenderHost
    private let callbackThread: AudioQueueCallbackThread
    private let settings: LiveSettings
    private let events: EventSink
    private(set) var state: PlayerState
    private var output: PlaybackOutput?
    /// Where a media file found gone when its turn came is counted (`stats`' `media missing`).
    var faults: FaultCounters?

    init(library: MediaLibrary, host: any RenderHost, callbackThread: AudioQueueCallbackThread, loop: ControlLoop,
         settings: LiveSettings, events: @escaping EventSink, seed: UInt64) {
        self.library = library
        self.host = host
        self.callbackThread = callbackThread
        self.loop = loop
        self.settings = settings
        self.events = events
        let saved = settings.value
        state = PlayerState(repeatMode: saved.repeatMode, shuffle: saved.shuffle, positions: saved.positions,
                            seed: seed, now: loop.clock.now)
    }

    // MARK: PlayerControl

    var isPlaying: Bool { state.transport == .playing }

    /// Seconds into the current file, as far as it has been played out.
    var position: Double {
        output?.position(timeline: host.timeline, engineRate: host.outputRate, playing: state.transport == .playing) ?? 0
    }
    var duration: Double? { output?.audible.audio.duration }

    var statusLines: [String] {
        var lines = ["player: \(state.transport.rawValue)"]
        if let file = state.currentFile, state.transport != .stopped {
            lines.append("file: \(file) (track \(state.trackLabel ?? "-"))")
            lines.append("position: \(Self.clock(position)) / \(duration.map(Self.clock) ?? "-")")
        }
        lines.append("repeat: \(state.repeatMode.rawValue)")
        lines.append("shuffle: \(state.shuffle ? "on" : "off")")
        lines.append(replayGainLine)
        return lines
    }

    var nextDeadline: Timestamp? { state.nextDeadline }

    func tick(now: Timestamp) {
        var next = state
        let actions = next.tick(position: position, now: now)
        state = next
        _ = carryOut(actions)
    }

    func shutdown() {
        _ = carryOut(state.positionToSave(at: position))
        output?.queue.dispose()
        output = nil
    }

    func perform(_ command: PlayerCommand) -> ConsoleReply {
        let reply: ConsoleReply
        do throws(PlayerError) {
            reply = try run(command)
        } catch {
            return error.reply
        }
        // A transport command says where it left the player (state, file and track, position), so a person at
        // the console sees what `play` or `next` did without asking for `status`.
        switch command {
        case .play, .pause, .resume, .next, .previous, .seek:
            guard reply.outcome == .ok, reply.lines.isEmpty else { return reply }
            return .ok(Array(statusLines.prefix { !$0.hasPrefix("repeat:") }))
        case .list, .remove, .repeatMode, .shuffle, .replayGain:
            return reply
        }
    }

    func stopPlayback() -> ConsoleReply {
        apply { state, now in state.stop(position: position, now: now) }
    }

    func handle(_ event: RemoteControlEvent) -> Bool {
        let now = loop.clock.now
        let reply: ConsoleReply
        switch event {
        case .togglePlayPause:
            if state.transport == .stopped && (state.currentFile == nil || currentFileIsGone) { reply = perform(.play(nil)) } else {
                reply = apply { state, now in try state.togglePlayPause(position: position, now: now) }
            }
        case .play: reply = perform(.play(nil))
        case .pause: reply = perform(.pause)
        case .stop: reply = stopPlayback()
        case .nextTrack: reply = perform(.next)
        case .previousTrack: reply = perform(.previous)
        case .beginSeekingForward, .beginSeekingBackward:
            let forward = event == .beginSeekingForward
            reply = apply { state, _ in try state.beginScanning(forward: forward, position: position, now: now) }
        case .endSeekingForward, .endSeekingBackward:
            state.endScanning()
            return true
        case .toggleRecord, .volumeUp, .volumeDown:
            return false
        }
        if case .error(_, let message) = reply.outcome { events(ApplianceEvent(.error, "player: \(message)")) }
        return true
    }

    func pauseForRouteChange() {
        guard state.transport == .playing else { return }
        _ = apply { state, now in try state.pause(position: position, now: now) }
    }

    /// Collects the queue's reports now (its callback thread also does every poll interval); the callbacks
    /// then wait on the loop. For tests driving the engine by hand.
    func collectCallbacks() { output?.queue.deliverCallbacks() }

    // MARK: Commands

    private func run(_ command: PlayerCommand) throws(PlayerError) -> ConsoleReply {
        switch command {
        case .play(let path):
            if path == nil && state.transport != .stopped { return apply { state, now in try state.play(now: now) } }
            if path == nil, state.currentFile != nil, !currentFileIsGone { return apply { state, now in try state.play(now: now) } }
            let named: String?, playlist: [String]
            if path == nil, let last = settings.value.lastPlayed, let saved = try? library.playlist(for: last) {
                (named, playlist) = (last, saved)
            } else {
                (named, playlist) = (path, try library.playlist(for: path))
            }
            settings.update { $0.lastPlayed = named }
            return apply { state, now in state.load(playlist, position: position, now: now) }
        case .pause:
            return apply { state, now in try state.pause(position: position, now: now) }
        case .resume:
            return apply { state, now in try state.resume(now: now) }
        case .next:
            return apply { state, now in try state.next(position: position, now: now) }
        case .previous:
            return apply { state, now in try state.previous(position: position, now: now) }
        case .seek(let target):
            return apply { state, now in try state.seek(target, position: position, now: now) }
        case .list(let path):
            let entries = try library.list(path)
            return .ok(entries.map { entry in entry.duration.map { "\(entry.name)  \(Self.clock($0))" } ?? entry.name })
        case .remove(let path):
            let target = try library.resolve(path)
            if state.transport != .stopped, let playing = output?.audible,
               (try? library.resolve(playing.file))?.path == target.path {
                throw PlayerError(.state, "'\(target.name)' is playing; stop it first")
            }
            let removed = try library.remove(path)
            return .ok(["removed \(removed.name)"])
        case .repeatMode(let mode):
            if let mode {
                state.setRepeat(mode)
                settings.update { $0.repeatMode = mode }
            }
            return .ok(["repeat: \(state.repeatMode.rawValue)"])
        case .shuffle(let on):
            if let on {
                state.setShuffle(on)
                settings.update { $0.shuffle = on }
            }
            return .ok(["shuffle: \(state.shuffle ? "on" : "off")"])
        case .replayGain(let change):
            switch change {
            case nil: break
            case .mode(let mode): settings.update { $0.replayGain = mode }
            case .preamp(let decibels): settings.update { $0.replayGainPreampDB = decibels }
            }
            if change != nil { applyReplayGainChange() }
            return .ok([replayGainLine])
        }
    }

    /// Stopped on a file that has gone since (removed with `rm`, or by anyone else): `play` then starts
    /// afresh, as with no playlist, instead of failing on that file at every press (the soak's finding,
    /// RELIABILITY.md part 4). A paused file is still open, so it resumes whatever happened to its name.
    private var currentFileIsGone: Bool {
        guard state.transport == .stopped, let file = state.currentFile else { return false }
        do throws(PlayerError) { _ = try library.resolve(file) } catch { return error.code == .notFound }
        return false
    }

    /// Runs a state transition on a copy (so a refused command changes nothing), then its actions.
    private func apply(_ transition: (inout PlayerState, Timestamp) throws -> [PlayerAction]) -> ConsoleReply {
        var next = state
        do {
            let actions = try transition(&next, loop.clock.now)
            state = next
            if let failure = carryOut(actions) { return failure.reply }
            return .ok()
        } catch let error as PlayerError {
            return error.reply
        } catch {
            return .error(.internal, "player: \(error)")
        }
    }

    // MARK: Actions

    /// Carries out `actions`; the first failure (a file that will not open) stops playback and is returned.
    @discardableResult
    private func carryOut(_ actions: [PlayerAction]) -> PlayerError? {
        for action in actions {
            do throws(PlayerError) {
                try carryOut(action)
            } catch {
                // Every file was there when the playlist was made (`library.playlist`): one missing now went
                // away while the player played (deleted, its card unmounted). Playback stops, and says so.
                if case .open = action, error.code == .notFound { faults?.count(.mediaMissing) }
                let reached = position
                output?.queue.dispose()
                output = nil
                let stopped = state.stop(position: reached, now: loop.clock.now)
                for case .event(let event) in stopped { events(event) }
                events(ApplianceEvent(.error, "player: \(error.message)"))
                return error
            }
        }
        return nil
    }

    private func carryOut(_ action: PlayerAction) throws(PlayerError) {
        switch action {
        case .open(let track, let file, let from, let paused):
            try open(track: track, file: file, from: from, paused: paused)
        case .pause:
            output?.freeze(timeline: host.timeline, engineRate: host.outputRate)
            _ = try? output?.queue.pause()
        case .resume:
            output?.audibleDeviceFrame = nil
            _ = try? output?.queue.start()
        case .stop:
            output?.queue.dispose()
            output = nil
        case .seek(let seconds):
            try seek(to: seconds)
        case .remember(let file, let seconds):
            settings.update { $0.positions[file] = seconds }
        case .event(let event):
            events(event)
        }
    }

    /// Opens a file and makes a new queue for it (or, when the track was already queued gaplessly behind
    /// the one that ended and is now the one heard, just notes it).
    private func open(track: Int, file: String, from: Double, paused: Bool) throws(PlayerError) {
        if let output, let arrived = output.arrived, arrived.track == track, arrived.file == file,
           arrived.startSeconds == from, !paused {
            output.arrived = nil
            state.opened(duration: arrived.audio.duration)
            return
        }
        let item = try Self.item(track: track, file: file, from: from, library: library)
        output?.queue.dispose()
        output = nil
        let format = item.format
        // A fresh queue fades in: the file's ReplayGain applies from its first frame, without a ramp.
        item.decoding?.setGain(replayGain(for: item).gain)
        let box = WeakService(self)
        let loop = self.loop
        let queue: OutputQueue
        do {
            queue = try OutputQueue(format: format, host: host, callbackThread: callbackThread,
                                    maximumBuffers: Self.maximumBuffers, clock: loop.clock) { queue, buffer, event in
                let id = ObjectIdentifier(buffer)
                loop.post { box.service?.completed(id, event, on: queue) }
            }
        } catch {
            throw PlayerError(.device, "cannot play '\(file)': \(error)")
        }
        let packets = max(1, Int(Self.bufferSeconds * format.sampleRate) / max(1, format.framesPerPacket))
        let fresh = PlaybackOutput(queue: queue, item: item, bufferBytes: packets * format.bytesPerPacket)
        output = fresh
        state.opened(duration: item.audio.duration)
        try refill(fresh)
        if !paused {
            do { try queue.start() } catch { throw PlayerError(.device, "cannot start '\(file)': \(error)") }
        }
        endIfPlayedOut(fresh)
    }

    /// A file checked against the sandbox again (it may have changed since it was listed) and opened.
    private static func item(track: Int, file: String, from: Double, library: MediaLibrary) throws(PlayerError)
        -> PlaybackOutput.Item {
        let (_, audio) = try library.openAudio(file)
        let format = audio.dataFormat
        guard format.channelsPerFrame <= 2 else {
            throw PlayerError(.usage, "cannot play '\(file)': \(format.channelsPerFrame) channels (the player plays mono or stereo)")
        }
        if format.formatID.isLibraryCodec {
            // Decoded off the render thread (DecodingFileFeed), buffer by buffer.
            guard audio.frameCount > 0 else { throw PlayerError(.usage, "'\(file)' has no audio to play") }
        } else {
            guard format.bytesPerPacket > 0, format.framesPerPacket > 0,
                  OutputQueue.supportedFormats.contains(format.formatID) else {
                throw PlayerError(.usage, "cannot play '\(file)': \(format) is not one the output queue decodes (linear PCM, mu-law, A-law or IMA4, mono or stereo)")
            }
            guard audio.packetCount > 0 else { throw PlayerError(.usage, "'\(file)' has no audio to play") }
        }
        let bufferFrames = max(1, Int(bufferSeconds * audio.sampleRate))
        return PlaybackOutput.Item(track: track, file: file, audio: audio, startSeconds: from, bufferFrames: bufferFrames)
    }

    private func seek(to seconds: Double) throws(PlayerError) {
        guard let output else { throw PlayerError(.state, "nothing is playing") }
        do { try output.queue.reset() } catch { throw PlayerError(.device, "cannot seek: \(error)") }
        output.generation += 1
        let item = output.audible
        let packet = PlaybackOutput.Item.packet(at: seconds, in: output.format)
        item.feed.seek(toPacket: packet)
        output.feeding = item
        output.flushed = false
        output.audibleDeviceFrame = nil
        output.audibleFrame = item.feed.nextPacket * Int64(output.format.framesPerPacket)
        try refill(output)
        endIfPlayedOut(output)
    }

    // MARK: ReplayGain

    /// The gain `item` plays at under the current setting (unity for the formats the queue decodes itself:
    /// WAV, AIFF and CAF carry no ReplayGain tags here).
    private func replayGain(for item: PlaybackOutput.Item) -> AppliedReplayGain {
        guard item.decoding != nil else { return .unity }
        let saved = settings.value
        return AppliedReplayGain(mode: saved.replayGain, preampDB: saved.replayGainPreampDB,
                                 tags: item.audio.metadata.replayGain)
    }

    /// A gain change ramps over this long: a step in level at a gapless join or a setting change, not a click.
    static func gainRampFrames(_ format: StreamFormat) -> Int { GainRamp.frames(milliseconds: 10, sampleRate: format.sampleRate) }

    /// The setting changed: the files in the queue ramp to their new gains from the next buffer decoded
    /// (what is already queued, up to `buffersInFlight` buffers, plays at the old gain).
    private func applyReplayGainChange() {
        guard let output else { return }
        for item in [output.audible, output.feeding].compactMap({ $0 }) {
            item.decoding?.setGain(replayGain(for: item).gain, rampFrames: Self.gainRampFrames(output.format))
        }
    }

    /// `replaygain: track, preamp 0 dB, applied -6.0 dB` (the gain of the file heard, when one plays).
    var replayGainLine: String {
        let saved = settings.value
        var line = "replaygain: \(saved.replayGain.rawValue)"
        if saved.replayGainPreampDB != 0 { line += ", preamp \(saved.replayGainPreampDB) dB" }
        if let output, state.transport != .stopped, saved.replayGain != .off {
            line += output.audible.decoding == nil ? ", applied 0 dB (\(output.audible.audio.fileType) carries no ReplayGain tags)"
                : ", applied \(replayGain(for: output.audible).shown)"
        }
        return line
    }

    // MARK: Feeding the queue

    /// Fills and enqueues buffers until `buffersInFlight` are pending or the data ends.
    private func refill(_ output: PlaybackOutput) throws(PlayerError) {
        while output.pending < Self.buffersInFlight {
            let buffer: AudioQueueBuffer?
            do { buffer = try output.takeBuffer(limit: Self.maximumBuffers) } catch {
                throw PlayerError(.device, "no buffer for the queue: \(error)")
            }
            guard let buffer else { return }
            guard try fill(buffer, output) else {
                output.free.append(buffer)
                return
            }
        }
    }

    /// Fills `buffer` from the file being fed, moving on to the next track gaplessly when the formats
    /// match; false when the data has ended (the queue is told, so running dry is not an underrun).
    private func fill(_ buffer: AudioQueueBuffer, _ output: PlaybackOutput) throws(PlayerError) -> Bool {
        while let item = output.feeding {
            let first = item.feed.nextPacket
            var enqueued: Bool
            do { enqueued = try item.feed.enqueueNext(buffer, on: output.queue) } catch {
                // Damage part-way (a cut or corrupt file): what came before it plays, then the next track.
                // Damage before anything played is a file that cannot be played: an error that stops.
                guard item !== output.audible || !output.stretches.isEmpty else {
                    throw PlayerError(.io, "cannot read '\(item.file)': \(error)")
                }
                let at = Double(first) * Double(max(1, output.format.framesPerPacket)) / output.format.sampleRate
                events(ApplianceEvent(.error, "player: '\(item.file)' is damaged after \(Self.clock(at)): \(error); playing on"))
                enqueued = false
            }
            if enqueued {
                let framesPerPacket = Int64(output.format.framesPerPacket)
                let frames = Int64(buffer.byteSize / output.format.bytesPerPacket) * framesPerPacket
                output.stretches.append(PlaybackOutput.Stretch(buffer: ObjectIdentifier(buffer), item: item,
                                                               firstFrame: first * framesPerPacket, frames: frames,
                                                               generation: output.generation))
                output.pending += 1
                return true
            }
            output.feeding = nextGaplessItem(after: item, in: output)
        }
        if !output.flushed {
            output.flushed = true
            _ = try? output.queue.flush()
        }
        return false
    }

    /// The track that follows `item` when it ends, opened, if it can join the same queue.
    private func nextGaplessItem(after item: PlaybackOutput.Item, in output: PlaybackOutput) -> PlaybackOutput.Item? {
        // Only what follows the track heard now is known; a second boundary waits for the first.
        guard item === output.audible, let upcoming = state.upcoming else { return nil }
        let file = state.playlist[upcoming.track]
        guard let next = try? Self.item(track: upcoming.track, file: file, from: upcoming.from, library: library),
              next.format == output.format else { return nil }
        // Its ReplayGain starts at its first frame, ramped from where the previous file's ended (no click).
        if let decoding = next.decoding {
            decoding.setGain(item.decoding?.targetGain ?? .one)
            decoding.setGain(replayGain(for: next).gain, rampFrames: Self.gainRampFrames(output.format))
        }
        return next
    }

    /// A queue callback, now on the loop: refill what came back, move the position with what was played,
    /// and pass the track boundary to the state when the next file's first buffer is heard.
    private func completed(_ id: ObjectIdentifier, _ event: AudioQueueBufferEvent, on queue: OutputQueue) {
        guard let output, output.queue === queue else { return }     // an old queue's late callback
        switch event.stage {
        case .consumed:
            output.pending -= 1
            if event.discarded, let index = output.stretches.lastIndex(where: { $0.buffer == id }) {
                output.stretches.remove(at: index)
            }
            if let buffer = output.buffer(id) { output.free.append(buffer) }
            do throws(PlayerError) { try refill(output) } catch { carryOut([.event(ApplianceEvent(.error, "player: \(error.message)"))]) }
        case .rendered:
            break
        case .played:
            guard !output.stretches.isEmpty else { return }
            let stretch = output.stretches.removeFirst()
            if stretch.generation == output.generation {
                // Normally caught below when the previous file's last buffer was heard; this is the late case.
                if stretch.item !== output.audible {
                    crossBoundary(into: stretch.item, at: stretch.firstFrame, device: nil, output)
                }
                guard self.output === output else { return }
                // A pause froze the position where the device got to; buffers heard before it do not go back.
                if stretch.firstFrame + stretch.frames >= output.audibleFrame {
                    output.audibleFrame = stretch.firstFrame + stretch.frames
                    output.audibleDeviceFrame = state.transport == .playing ? event.lastFrame : nil
                }
                if let following = output.stretches.first, following.generation == output.generation,
                   following.item !== output.audible {
                    crossBoundary(into: following.item, at: following.firstFrame, device: event.lastFrame, output)
                }
            }
        }
        endIfPlayedOut(output)
    }

    /// The last buffer of a file has been heard and the file queued gaplessly behind it is next: the state
    /// learns that the track ended.
    private func crossBoundary(into item: PlaybackOutput.Item, at frame: Int64, device: Int64?, _ output: PlaybackOutput) {
        output.audible = item
        output.audibleFrame = frame
        output.audibleDeviceFrame = device
        output.arrived = item
        defer { output.arrived = nil }
        endTrack(of: output)
    }

    /// The data has ended and all of it has been heard: the track (and perhaps the playlist) ended.
    private func endIfPlayedOut(_ output: PlaybackOutput) {
        guard self.output === output, output.feeding == nil, output.stretches.isEmpty,
              state.transport == .playing else { return }
        endTrack(of: output)
    }

    /// Tells the state the track heard on `output` ended and carries out what it says. When the playlist ends
    /// there, the queue goes too, with whatever was queued behind the boundary (the same file again while
    /// repeat was on, say): `trackEnded` says `stopped` without a `.stop` action, and a queue left behind
    /// would play on unheard-of, holding its files open (the soak's finding, RELIABILITY.md part 4).
    private func endTrack(of output: PlaybackOutput) {
        var next = state
        let actions = next.trackEnded(now: loop.clock.now)
        state = next
        if next.transport == .stopped, self.output === output {
            output.queue.dispose()
            self.output = nil
        }
        carryOut(actions)
    }

    // MARK: Helpers

    /// m:ss.t
    static func clock(_ seconds: Double) -> String {
        let tenths = Int((max(0, seconds) * 10).rounded(.down))
        let minutes = tenths / 600, rest = tenths % 600
        let secondsText = rest / 10 < 10 ? "0\(rest / 10)" : "\(rest / 10)"
        return "\(minutes):\(secondsText).\(rest % 10)"
    }

    private final class WeakService: @unchecked Sendable {
        weak var service: PlaybackService?
        init(_ service: PlaybackService) { self.service = service }
    }
}
