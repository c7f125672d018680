import Codec8_24
import HAL

/// The player's transport and playlist as a pure value: commands and the end of a track go in with the time
/// (and, where it matters, the position the output reached); the new state comes out with the actions the
/// service must carry out. Like `AudioQueueTransport` and `JackStateMachine`, it does no I/O itself.
///
/// Semantics: a playlist is a file or a folder's files in order; shuffle plays a seeded order holding every
/// track once per round, the current track first; repeat one replays a track when it ends (an explicit
/// next still moves on), repeat all wraps around, off stops after the last track. Previous restarts the
/// track when more than 3 s have played, as an iPod and Rockbox do. Files longer than 10 minutes remember
/// where they were left (pause, stop, leaving for another track); a file that plays to its end forgets.
struct PlayerState: Sendable {
    enum Transport: String, Hashable, Sendable {
        case stopped, playing, paused
    }

    /// Files over this length remember where they were left (the issue's "resume where a long file was left").
    static let resumableDuration = 600.0
    /// Previous within this many seconds of the start goes to the previous track; later it restarts this one.
    static let restartThreshold = 3.0
    /// While a seek button is held: jump `scanStep` seconds every `scanInterval` (4x real time).
    static let scanInterval = Duration.milliseconds(250)
    static let scanStep = 1.0

    private(set) var playlist: [String] = []
    /// Playlist indices in the order they play (identity, or the shuffle's round).
    private(set) var order: [Int] = []
    private(set) var orderPosition = 0
    private(set) var transport = Transport.stopped
    private(set) var repeatMode: RepeatMode
    private(set) var shuffle: Bool
    /// Seconds into long files where they were left, by file.
    private(set) var positions: [String: Double]
    /// The current track's length, once the service has opened it.
    private(set) var currentDuration: Double?
    /// When the transport last changed.
    private(set) var since: Timestamp
    /// A seek button held: the direction (+1 / -1) and when the next jump is due.
    private(set) var scanning: Scan?
    struct Scan: Hashable, Sendable {
        var direction: Double
        var next: Timestamp
    }
    private var random: NoiseGenerator

    init(repeatMode: RepeatMode = .off, shuffle: Bool = false, positions: [String: Double] = [:], seed: UInt64,
         now: Timestamp) {
        self.repeatMode = repeatMode
        self.shuffle = shuffle
        self.positions = positions
        random = NoiseGenerator(seed: seed)
        since = now
    }

    /// The playlist index playing (or paused, or last played).
    var current: Int? { order.indices.contains(orderPosition) ? order[orderPosition] : nil }
    var currentFile: String? { current.map { playlist[$0] } }
    /// "N/M": the position in the play order.
    var trackLabel: String? { current == nil ? nil : "\(orderPosition + 1)/\(order.count)" }
    var nextDeadline: Timestamp? { scanning?.next }

    // MARK: Commands

    /// Plays `playlist` from its track `start` (from where it was left when it is a long file).
    mutating func load(_ playlist: [String], startingAt start: Int = 0, position: Double, now: Timestamp) -> [PlayerAction] {
        guard playlist.indices.contains(start) else { return [] }
        var actions = leave(at: position)
        self.playlist = playlist
        order = shuffle ? ShuffleOrder.round(count: playlist.count, first: start, using: &random) : Array(playlist.indices)
        orderPosition = order.firstIndex(of: start) ?? 0
        scanning = nil
        actions += enter(.playing, now: now)
        return actions + openCurrent(from: positions[playlist[start]] ?? 0, paused: false, announce: true)
    }

    /// `pause`: a no-op when paused already.
    mutating func pause(position: Double, now: Timestamp) throws(PlayerError) -> [PlayerAction] {
        switch transport {
        case .paused: return []
        case .stopped: throw PlayerError(.state, "nothing is playing")
        case .playing:
            scanning = nil
            return remember(at: position) + [.pause] + enter(.paused, now: now)
        }
    }

    /// `resume`: a no-op when playing already.
    mutating func resume(now: Timestamp) throws(PlayerError) -> [PlayerAction] {
        switch transport {
        case .playing: return []
        case .stopped: throw PlayerError(.state, "nothing is paused; 'play' starts playback")
        case .paused: return [.resume] + enter(.playing, now: now)
        }
    }

    /// The remote's play/pause; when stopped, plays the current playlist again from its current track
    /// (the service loads one first when there is none).
    mutating func togglePlayPause(position: Double, now: Timestamp) throws(PlayerError) -> [PlayerAction] {
        switch transport {
        case .playing: return try pause(position: position, now: now)
        case .paused: return try resume(now: now)
        case .stopped: return try play(now: now)
        }
    }

    /// Plays from a stop, or resumes from a pause.
    mutating func play(now: Timestamp) throws(PlayerError) -> [PlayerAction] {
        switch transport {
        case .playing: return []
        case .paused: return try resume(now: now)
        case .stopped:
            guard let file = currentFile else { throw PlayerError(.state, "there is no playlist; 'play PATH' names one") }
            return enter(.playing, now: now) + openCurrent(from: positions[file] ?? 0, paused: false, announce: true)
        }
    }

    /// `stop`: a no-op when stopped.
    mutating func stop(position: Double, now: Timestamp) -> [PlayerAction] {
        guard transport != .stopped else { return [] }
        scanning = nil
        return remember(at: position) + [.stop] + enter(.stopped, now: now)
    }

    /// `next`: the following track in play order; after the last, the first again with repeat all, else a
    /// stop. A paused player stays paused on the new track.
    mutating func next(position: Double, now: Timestamp) throws(PlayerError) -> [PlayerAction] {
        try requireActive("next")
        let actions = leave(at: position)
        guard advance() else { return actions + [.stop] + enter(.stopped, now: now) }
        return actions + openCurrent(from: positions[playlist[order[orderPosition]]] ?? 0,
                                     paused: transport == .paused, announce: true)
    }

    /// `prev`: restarts the track when more than 3 s have played; otherwise the track before in play order
    /// (the last with repeat all; the same track again at the first with repeat off or one).
    mutating func previous(position: Double, now: Timestamp) throws(PlayerError) -> [PlayerAction] {
        try requireActive("prev")
        if position > Self.restartThreshold || (orderPosition == 0 && repeatMode != .all) {
            return [.seek(to: 0)]
        }
        let actions = leave(at: position)
        orderPosition = orderPosition > 0 ? orderPosition - 1 : order.count - 1
        return actions + openCurrent(from: positions[playlist[order[orderPosition]]] ?? 0,
                                     paused: transport == .paused, announce: true)
    }

    /// `seek`: to a time in the current file, clamped to it.
    mutating func seek(_ target: SeekTarget, position: Double, now: Timestamp) throws(PlayerError) -> [PlayerAction] {
        try requireActive("seek")
        let wanted: Double
        switch target {
        case .absolute(let seconds): wanted = seconds
        case .relative(let seconds): wanted = position + seconds
        }
        return [.seek(to: clamp(wanted))]
    }

    mutating func setRepeat(_ mode: RepeatMode) { repeatMode = mode }

    /// Shuffle on: a new seeded order with the current track first. Off: the playlist's own order, at the
    /// current track.
    mutating func setShuffle(_ on: Bool) {
        guard on != shuffle else { return }
        shuffle = on
        guard !playlist.isEmpty else { return }
        let now = current
        order = on ? ShuffleOrder.round(count: playlist.count, first: now, using: &random) : Array(playlist.indices)
        orderPosition = now.flatMap { order.firstIndex(of: $0) } ?? 0
    }

    /// A seek button went down (+1 forward, -1 back): jump at once, then every `scanInterval` while held.
    mutating func beginScanning(forward: Bool, position: Double, now: Timestamp) throws(PlayerError) -> [PlayerAction] {
        try requireActive("seek")
        let direction = forward ? 1.0 : -1.0
        scanning = Scan(direction: direction, next: now + Self.scanInterval)
        return [.seek(to: clamp(position + direction * Self.scanStep))]
    }

    mutating func endScanning() { scanning = nil }

    /// Timer: the next jump of a held seek button.
    mutating func tick(position: Double, now: Timestamp) -> [PlayerAction] {
        guard let scan = scanning, scan.next <= now, transport != .stopped else { return [] }
        scanning = Scan(direction: scan.direction, next: scan.next + Self.scanInterval)
        return [.seek(to: clamp(position + scan.direction * Self.scanStep))]
    }

    // MARK: Reports from the service

    /// The service opened the current file: its length, for clamping seeks and deciding what to remember.
    mutating func opened(duration: Double) { currentDuration = duration }

    /// The current track played to its end: a long file forgets its position; then repeat one plays it
    /// again, otherwise the next in play order (wrapping with repeat all), or the playlist ends.
    mutating func trackEnded(now: Timestamp) -> [PlayerAction] {
        guard let file = currentFile, transport != .stopped else { return [] }
        var actions: [PlayerAction] = []
        if positions.removeValue(forKey: file) != nil { actions.append(.remember(file: file, seconds: nil)) }
        if repeatMode == .one {
            return actions + openCurrent(from: 0, paused: false, announce: true)
        }
        guard advance() else { return actions + enter(.stopped, now: now) }
        return actions + openCurrent(from: positions[playlist[order[orderPosition]]] ?? 0, paused: false, announce: true)
    }

    /// What the end of the current track would open (track and starting second), for queueing it gaplessly;
    /// nil when playback would end.
    var upcoming: (track: Int, from: Double)? {
        var copy = self
        for case .open(let track, _, let from, _) in copy.trackEnded(now: since) { return (track, from) }
        return nil
    }

    /// What to keep before shutting down: where a long file was left.
    func positionToSave(at position: Double) -> [PlayerAction] {
        var copy = self
        return copy.remember(at: position)
    }

    // MARK: Helpers

    private func requireActive(_ command: String) throws(PlayerError) {
        if transport == .stopped { throw PlayerError(.state, "nothing is playing; '\(command)' needs a track playing or paused") }
    }

    private func clamp(_ seconds: Double) -> Double {
        let upper = currentDuration ?? .greatestFiniteMagnitude
        return seconds.isFinite ? min(max(0, seconds), upper) : 0
    }

    /// Leaving the current track (for another one): remember a long file's position.
    private mutating func leave(at position: Double) -> [PlayerAction] {
        guard transport != .stopped else { return [] }
        return remember(at: position)
    }

    private mutating func remember(at position: Double) -> [PlayerAction] {
        guard let file = currentFile, let duration = currentDuration, duration > Self.resumableDuration else { return [] }
        let seconds = min(max(0, position), duration)
        positions[file] = seconds
        return [.remember(file: file, seconds: seconds)]
    }

    /// Moves to the next track in play order, into a new round with repeat all; false (back at the first
    /// track) when the playlist has ended.
    private mutating func advance() -> Bool {
        if orderPosition + 1 < order.count {
            orderPosition += 1
        } else if repeatMode == .all {
            startNewRound()
        } else {
            orderPosition = 0
            return false
        }
        return true
    }

    private mutating func startNewRound() {
        if shuffle {
            let last = current
            order = ShuffleOrder.round(count: playlist.count, first: nil, using: &random)
            // The round's first track is not the one that just ended, so nothing plays twice in a row.
            if order.count > 1, order[0] == last { order.swapAt(0, 1) }
        }
        orderPosition = 0
    }

    private mutating func openCurrent(from seconds: Double, paused: Bool, announce: Bool) -> [PlayerAction] {
        guard let track = current else { return [] }
        currentDuration = nil
        let file = playlist[track]
        var actions: [PlayerAction] = [.open(track: track, file: file, from: seconds, paused: paused)]
        if announce { actions.append(.event(ApplianceEvent(.transport, "track \(trackLabel!) \(file)"))) }
        return actions
    }

    private mutating func enter(_ new: Transport, now: Timestamp) -> [PlayerAction] {
        guard new != transport else { return [] }
        transport = new
        since = now
        let detail = new == .stopped ? "stopped" : "\(new.rawValue) \(currentFile ?? "")"
        return [.event(ApplianceEvent(.transport, detail))]
    }
}
