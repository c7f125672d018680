import HAL

/// The transport of an audio queue (output or input) as a pure value: the control calls and what the render
/// side reports go in, with the time they happened; the new state comes out with the actions the queue must
/// take and whether "is running" changed. The classes around it (`OutputQueue`, the input queue) do the I/O:
/// they send the actions to the render thread as commands and deliver the is-running change to listeners.
///
/// Semantics (core-audio-iphone-2008.md 1.5, 1.6 and behaviours 27-31): start begins playback (optionally at
/// a device sample time); prime prepares ahead so start is immediate; pause holds the position and keeps the
/// engine primed, start resumes from the same place; stop ends playback, immediately (with a short fade) or
/// once what is enqueued has played; reset discards what is queued (the buffers still come back) and keeps
/// the transport state, for seeking; flush marks the end of the data so everything held back is played out.
///
/// "Is running" follows what the render side actually does, as Core Audio's is-running property does: it
/// turns true when the render side reports the first frame out (`started`), false when a pause or an
/// immediate stop has faded out or a stop-after-enqueued has played everything. A paused queue is not
/// running.
///
/// Every call is answered in every state: a transition, a no-op (a repeated call: start while running,
/// pause while paused, stop while stopped) or a `wrongState` error saying why and what to do instead.
public struct AudioQueueTransport: Hashable, Sendable {
    public enum State: Hashable, Sendable, CustomStringConvertible {
        /// Created or stopped: nothing plays; enqueued buffers wait.
        case stopped
        /// Prepared ahead while stopped: start is immediate.
        case primed
        /// Started; the render side has not yet put out its first frame (it waits for `at`, a device sample
        /// time, or the next period when nil).
        case starting(at: Int64?)
        /// Playing.
        case running
        /// Fading out towards `paused`.
        case pausing
        /// Holding its position.
        case paused
        /// Stopping: `immediately` fades out and discards; otherwise what is enqueued plays out first.
        case stopping(immediately: Bool)

        public var description: String {
            switch self {
            case .stopped: "stopped"
            case .primed: "primed"
            case .starting(let at): at.map { "starting at sample \($0)" } ?? "starting"
            case .running: "running"
            case .pausing: "pausing"
            case .paused: "paused"
            case .stopping(let immediately): immediately ? "stopping immediately" : "stopping after what is enqueued"
            }
        }
    }

    /// A control call.
    public enum Call: Hashable, Sendable {
        case prime
        /// Start (or resume) at a device sample time, or as soon as possible when nil.
        case start(at: Int64?)
        case pause
        case stop(immediately: Bool)
        case reset
        case flush
    }

    /// What the render side reports back.
    public enum Report: Hashable, Sendable {
        /// The first frame after a start went out at this device sample time.
        case started(at: Int64)
        /// A pause's or an immediate stop's fade has ended: the queue is silent.
        case fadedOut
        /// Stopping after what was enqueued: the last enqueued frame has been rendered.
        case playedOut
        /// The queue ran dry while running (no buffer in time); it faded its tail out and keeps running.
        case underrun
    }

    /// What the queue must do for a transition, in order.
    public enum Action: Hashable, Sendable, BitwiseCopyable {
        /// Decode ahead what is enqueued, so the first period after start carries audio.
        case decodeAhead
        /// Begin (or resume) rendering at a device sample time (nil: the next period); `fadeIn` after a pause.
        case begin(at: Int64?, fadeIn: Bool)
        /// Fade out and hold the position (pause).
        case fadeOutAndHold
        /// Fade out, then discard everything enqueued and return the buffers; `keepRunning` (reset while
        /// running) goes on with whatever is enqueued next, fading it in.
        case fadeOutAndDiscard(keepRunning: Bool)
        /// Discard everything enqueued and return the buffers now (nothing is sounding).
        case discard
        /// Play what is enqueued, then report `playedOut`.
        case playOut
        /// The data ends here: play out what any stage holds back (decoder, converter); running dry after it
        /// is the end of the data, not an underrun.
        case flush
    }

    /// The result of a call or report.
    public struct Outcome: Hashable, Sendable {
        public var actions: [Action]
        /// The new value of is-running when it changed, else nil.
        public var isRunningChanged: Bool?

        public init(actions: [Action] = [], isRunningChanged: Bool? = nil) {
            self.actions = actions
            self.isRunningChanged = isRunningChanged
        }

        public static let none = Outcome()
    }

    public private(set) var state: State = .stopped
    /// When the current state was entered.
    public private(set) var since: Timestamp
    /// Whether the render side is putting out the queue's audio (see the type's notes).
    public private(set) var isRunning = false
    /// Underruns reported since creation.
    public private(set) var underruns = 0

    public init(at time: Timestamp) { since = time }

    /// A control call at `time`: the transition's actions, or `wrongState` (the state is then unchanged).
    public mutating func handle(_ call: Call, at time: Timestamp) throws(AudioQueueError) -> Outcome {
        switch (call, state) {
        case (.prime, .stopped), (.prime, .primed):
            return enter(.primed, at: time, [.decodeAhead])
        case (.prime, .paused):
            return Outcome(actions: [.decodeAhead])
        case (.prime, _):
            throw .wrongState("prime", state, hint: "prime prepares a stopped queue; it is already playing")

        case (.start(let at), .stopped), (.start(let at), .primed):
            return enter(.starting(at: at), at: time, [.begin(at: at, fadeIn: false)])
        case (.start(let at), .paused), (.start(let at), .pausing):
            return enter(.starting(at: at), at: time, [.begin(at: at, fadeIn: true)])
        case (.start, .starting), (.start, .running):
            return .none
        case (.start, .stopping(let immediately)):
            throw .wrongState("start", state, hint: immediately
                ? "wait until is-running turns false, then start"
                : "it stops once what is enqueued has played; wait for that, or stop immediately and start again")

        case (.pause, .running), (.pause, .starting):
            return enter(.pausing, at: time, [.fadeOutAndHold])
        case (.pause, .pausing), (.pause, .paused):
            return .none
        case (.pause, .stopped), (.pause, .primed):
            throw .wrongState("pause", state, hint: "only a started queue can pause; start it first")
        case (.pause, .stopping):
            throw .wrongState("pause", state, hint: "a stopping queue cannot pause; start it again once stopped")

        case (.stop(true), .running), (.stop(true), .starting), (.stop(true), .pausing), (.stop(true), .stopping(false)):
            return enter(.stopping(immediately: true), at: time, [.fadeOutAndDiscard(keepRunning: false)])
        case (.stop(true), .paused), (.stop(true), .primed), (.stop(true), .stopped),
             (.stop(false), .primed), (.stop(false), .stopped):
            // Nothing sounds: discard at once (a stop returns every enqueued buffer).
            return enter(.stopped, at: time, [.discard])
        case (.stop(true), .stopping(true)), (.stop(false), .stopping):
            return .none
        case (.stop(false), .running), (.stop(false), .starting):
            return enter(.stopping(immediately: false), at: time, [.playOut])
        case (.stop(false), .pausing), (.stop(false), .paused):
            throw .wrongState("stop after what is enqueued", state,
                              hint: "a paused queue plays nothing out; start it first, or stop immediately")

        case (.reset, .running), (.reset, .starting), (.reset, .pausing), (.reset, .stopping(false)):
            return Outcome(actions: [.fadeOutAndDiscard(keepRunning: true)])
        case (.reset, .primed):
            return enter(.stopped, at: time, [.discard])
        case (.reset, .paused), (.reset, .stopped):
            return Outcome(actions: [.discard])
        case (.reset, .stopping(true)):
            return .none

        case (.flush, _):
            return Outcome(actions: [.flush])
        }
    }

    /// A report from the render side at `time`. Reports that no longer fit (a fade that ended after the
    /// queue was started again) change nothing.
    public mutating func handle(_ report: Report, at time: Timestamp) -> Outcome {
        switch (report, state) {
        case (.started, .starting):
            return enter(.running, at: time, [], running: true)
        case (.started, .pausing), (.started, .stopping):
            // It began sounding before the pause or stop was asked; the fade or play-out that follows ends it.
            return enter(state, at: since, [], running: true)
        case (.fadedOut, .pausing):
            return enter(.paused, at: time, [], running: false)
        case (.fadedOut, .stopping(true)):
            return enter(.stopped, at: time, [], running: false)
        case (.playedOut, .stopping(false)):
            return enter(.stopped, at: time, [], running: false)
        case (.underrun, _):
            underruns += 1
            return .none
        default:
            return .none
        }
    }

    private mutating func enter(_ new: State, at time: Timestamp, _ actions: [Action], running: Bool? = nil)
        -> Outcome {
        if new != state { since = time }
        state = new
        var changed: Bool?
        if let running, running != isRunning {
            isRunning = running
            changed = running
        }
        return Outcome(actions: actions, isRunningChanged: changed)
    }
}
