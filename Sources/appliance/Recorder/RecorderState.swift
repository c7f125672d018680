import HAL

/// Why `record` cannot start now.
enum RecorderRefusal: Error, Hashable, Sendable {
    /// Already armed or recording.
    case busy(RecorderState.Phase)
    /// Below the free-space threshold.
    case full(availableBytes: Int64, minimumBytes: Int64)
    /// The plan's numbers make no sense.
    case invalid(String)

    var message: String {
        switch self {
        case .busy(let phase): "the recorder is \(phase) already; stop it first"
        case .full(let available, let minimum):
            "only \(Self.size(available)) free, below the \(Self.size(minimum)) the recorder keeps; delete recordings (rm) first"
        case .invalid(let reason): reason
        }
    }

    /// `64 MiB`, or `281 KiB` below a mebibyte (where whole MiB would say 0).
    private static func size(_ bytes: Int64) -> String { bytes >= 1 << 20 ? "\(bytes >> 20) MiB" : "\(bytes >> 10) KiB" }
}

/// The recorder's transport as a pure value: idle, armed (voice activation waiting for the level, or a
/// pre-roll ring filling until the press frame), recording, stopping. It sees each block of captured frames
/// (its frame count and peak) and says, frame-exactly, which frames go to the pre-roll ring, which to the
/// file, where a file splits and where the take ends (`RecorderAction`); it sees the free space about once
/// a second. Time and levels are passed in; the service around it does the I/O.
struct RecorderState: Sendable {
    enum Phase: String, Hashable, Sendable {
        case idle, armed, recording, stopping
    }

    private(set) var phase = Phase.idle
    private(set) var plan: RecorderPlan?
    /// Frames of the capture seen so far (the position of the next block's first frame).
    private(set) var position: Int64 = 0
    /// Capture frame at which a manual start begins (armed without voice activation).
    private(set) var triggerFrame: Int64?
    /// Frames in the pre-roll ring (at most the plan's pre-roll).
    private(set) var heldFrames = 0
    private(set) var framesInFile: Int64 = 0
    /// Frames of the take in all its files (`--seconds` counts these).
    private(set) var framesInTake: Int64 = 0
    private(set) var quietFrames: Int64 = 0
    /// Whether a file is open.
    private(set) var takeOpen = false
    /// Stopping: whether frames still arriving are written (a requested stop keeps every captured frame).
    private var writesWhileStopping = false
    private(set) var endReason: RecordingEndReason?
    /// When the free space is due to be checked again.
    private(set) var nextSpaceCheck: Timestamp?

    static let spaceCheckInterval = Duration.seconds(1)

    var isActive: Bool { phase != .idle }

    /// Pressed, and the press frame not yet reached by the writer: a person would call this recording.
    var isStartPending: Bool { phase == .armed && triggerFrame != nil }

    /// Where a marker pressed at capture frame `frame` goes: there, while a take is being written or about to be
    /// (`record` pressed and its frame not yet reached by the writer: `status` already says recording, so a
    /// person may mark at once), but never before the press; nil with no take (idle, waiting for the voice,
    /// stopping).
    func markerFrame(pressedAt frame: Int64) -> Int64? {
        switch phase {
        case .recording: frame
        case .armed: triggerFrame.map { max(frame, $0) }
        case .idle, .stopping: nil
        }
    }

    /// `record`: starts a capture at frame 0 (idle), or triggers a running pre-roll capture at `pressFrame`.
    /// With voice activation the take waits for the level instead.
    mutating func start(_ plan: RecorderPlan, availableBytes: Int64, now: Timestamp,
                        pressFrame: Int64? = nil) throws(RecorderRefusal) -> [RecorderAction] {
        if let reason = plan.refusal { throw .invalid(reason) }
        let standby = phase == .armed && self.plan != nil && self.plan!.voxThresholdDB == nil && triggerFrame == nil
        guard phase == .idle || standby else { throw .busy(phase) }
        // Whatever the threshold, room for a second of audio: a disk that a take has just filled (ENOSPC) is
        // refused here with one clear line rather than accepted and stopped again by the first write.
        let floor = max(plan.minimumFreeBytes, Int64(plan.sampleRate * plan.bytesPerFrame))
        guard availableBytes >= floor else {
            throw .full(availableBytes: availableBytes, minimumBytes: floor)
        }
        if phase == .idle {
            position = 0
            heldFrames = 0
        }
        self.plan = plan
        phase = .armed
        framesInFile = 0
        framesInTake = 0
        quietFrames = 0
        takeOpen = false
        endReason = nil
        nextSpaceCheck = now + Self.spaceCheckInterval
        if plan.voxThresholdDB != nil {
            triggerFrame = nil
            return [.voxArmed]
        }
        triggerFrame = max(position, pressFrame ?? position)
        return []
    }

    /// Keeps a capture running into the pre-roll ring with no take yet, so a later `start` has the seconds
    /// before the press (a field recorder's "pre-record" standby).
    mutating func standBy(_ plan: RecorderPlan) throws(RecorderRefusal) {
        if let reason = plan.refusal { throw .invalid(reason) }
        guard phase == .idle else { throw .busy(phase) }
        self.plan = plan
        phase = .armed
        position = 0
        heldFrames = 0
        triggerFrame = nil
        takeOpen = false
        nextSpaceCheck = nil
    }

    /// A block of `frames` captured frames whose peak (over all channels) is `peakDB` dBFS.
    mutating func captured(frames: Int, peakDB: Double) -> [RecorderAction] {
        guard frames > 0 else { return [] }
        var actions: [RecorderAction] = []
        var left = frames
        let loud = plan?.voxThresholdDB.map { peakDB >= $0 } ?? true
        while left > 0 {
            switch phase {
            case .idle:
                actions.append(.drop(frames: left))
                left = 0
            case .armed:
                let plan = self.plan!
                if let trigger = triggerFrame {
                    let before = Int(min(Int64(left), max(0, trigger - position)))
                    if before > 0 { keep(before, plan: plan, into: &actions); left -= before }
                    if left > 0 { begin(plan: plan, into: &actions) }
                } else if plan.voxThresholdDB != nil && loud {
                    actions.append(.voxTriggered)
                    begin(plan: plan, into: &actions)
                } else {
                    keep(left, plan: plan, into: &actions)
                    left = 0
                }
            case .recording:
                let plan = self.plan!
                if let split = plan.splitFrames, framesInFile >= split {
                    actions.append(.split)
                    framesInFile = 0
                }
                var chunk = Int64(left)
                if let split = plan.splitFrames { chunk = min(chunk, split - framesInFile) }
                if let limit = plan.limitFrames { chunk = min(chunk, limit - framesInTake) }
                if chunk > 0 {
                    actions.append(.write(frames: Int(chunk)))
                    framesInFile += chunk
                    framesInTake += chunk
                    position += chunk
                    left -= Int(chunk)
                }
                if let limit = plan.limitFrames, framesInTake >= limit {
                    actions += [.closeTake(.limit), .endCapture(.limit)]
                    takeOpen = false
                    endReason = .limit
                    phase = .stopping
                    writesWhileStopping = false
                }
            case .stopping:
                if writesWhileStopping && takeOpen {
                    actions.append(.write(frames: left))
                    framesInFile += Int64(left)
                    framesInTake += Int64(left)
                } else {
                    actions.append(.drop(frames: left))
                }
                position += Int64(left)
                left = 0
            }
        }
        // Voice activation: a take that stays below the threshold for the hang time ends, and the recorder
        // waits for the voice again.
        if phase == .recording, plan?.voxThresholdDB != nil {
            quietFrames = loud ? 0 : quietFrames + Int64(frames)
            if quietFrames >= plan!.hangFrames {
                actions += [.closeTake(.silence), .voxArmed]
                takeOpen = false
                phase = .armed
                heldFrames = 0
                quietFrames = 0
            }
        }
        return actions
    }

    /// `stop`: a running take keeps every frame captured up to now and is finalized when the capture ends.
    mutating func stop() -> [RecorderAction] {
        switch phase {
        case .idle, .stopping:
            return []
        case .armed, .recording:
            phase = .stopping
            writesWhileStopping = true
            endReason = .requested
            return [.endCapture(.requested)]
        }
    }

    /// The free space, when `nextSpaceCheck` has come: below the threshold a take ends (finalized).
    mutating func checkSpace(availableBytes: Int64, now: Timestamp) -> [RecorderAction] {
        guard phase == .armed || phase == .recording, let plan, nextSpaceCheck != nil else { return [] }
        nextSpaceCheck = now + Self.spaceCheckInterval
        guard availableBytes < plan.minimumFreeBytes else { return [] }
        phase = .stopping
        writesWhileStopping = false
        endReason = .diskFull
        nextSpaceCheck = nil
        return [.endCapture(.diskFull)]
    }

    /// The capture has ended (every captured frame has been through `captured`): a take still open is
    /// finalized and the recorder is idle.
    mutating func captureEnded() -> [RecorderAction] {
        let reason = endReason ?? .requested
        let actions: [RecorderAction] = takeOpen ? [.closeTake(reason)] : []
        self = RecorderState()
        return actions
    }

    private mutating func keep(_ frames: Int, plan: RecorderPlan, into actions: inout [RecorderAction]) {
        actions.append(.keepForPreRoll(frames: frames))
        heldFrames = min(plan.preRollFrames, heldFrames + frames)
        position += Int64(frames)
    }

    private mutating func begin(plan: RecorderPlan, into actions: inout [RecorderAction]) {
        actions.append(.openTake(preRollFrames: heldFrames))
        phase = .recording
        takeOpen = true
        triggerFrame = nil
        framesInFile = Int64(heldFrames)
        framesInTake = 0
        quietFrames = 0
        heldFrames = 0
    }
}
