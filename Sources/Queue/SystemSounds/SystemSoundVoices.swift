import HAL
import Codec8_24
import Synchronization

/// The render side of the system sounds: one `RenderSource` with a fixed number of voices that mixes every
/// sounding system sound, in stereo, over whatever else the engine plays.
///
/// Voice starts arrive as plain numbers through a command ring; ends leave through a report ring (a play's
/// end is reported once its last frame has been written to the mix). With every voice busy, a new sound
/// steals the oldest: that voice fades out linearly over `fadeFrames` (no step) in a spare slot while the
/// new one starts at once; there are twice as many slots as voices for those fades. There is no per-sound
/// gain or pan (the reference's "play and forget"): a voice adds its samples to the mix unchanged, a mono
/// sound to both channels.
///
/// Render thread: no allocation, lock, system call or existential call; all memory is made in `init`.
public final class SystemSoundVoices: RenderSource, @unchecked Sendable {
    /// The engine rate the sounds were decoded at.
    public let sampleRate: Int
    /// Sounds that may sound at once.
    public let voiceCount: Int
    /// The length of the fade a stolen or stopped voice makes (2 ms).
    public let fadeFrames: Int
    public var renderChannels: Int { 2 }

    let commands: SPSCRing<VoiceCommand>
    /// A fade-all that did not fit in a full command ring (a burst of plays in one period): taken once the
    /// ring is drained, so it still follows every start queued before it.
    let fadeAllOverflow = Atomic<Bool>(false)
    let reports: SPSCRing<VoiceReport>
    private let slots: UnsafeMutablePointer<Voice>
    private let slotCount: Int
    /// Render thread: a start that found no free slot (every slot busy fading), retried next period.
    private var waitingStart: VoiceCommand?
    private var nextOrder: UInt64 = 0

    /// Control thread: voices for an engine at `sampleRate`.
    public init(sampleRate: Int, voices: Int = 8, commandCapacity: Int = 64) {
        precondition(voices > 0, "the player needs at least one voice")
        self.sampleRate = sampleRate
        voiceCount = voices
        fadeFrames = GainRamp.frames(milliseconds: 2, sampleRate: Double(sampleRate))
        commands = SPSCRing(minimumCapacity: commandCapacity)
        slotCount = 2 * voices
        reports = SPSCRing(minimumCapacity: 4 * slotCount)
        slots = .allocate(capacity: slotCount)
        slots.initialize(repeating: Voice(), count: slotCount)
    }

    deinit {
        slots.deinitialize(count: slotCount)
        slots.deallocate()
    }

    public func prepare(engineRate: Int, maximumFrames: Int) throws {
        guard engineRate == sampleRate else {
            throw SystemSoundError.engineRateMismatch(player: sampleRate, engine: engineRate)
        }
    }

    /// Takes waiting starts, mixes every sounding voice and reports the plays that ended. Returns false when
    /// no voice sounded. Starts arrive through the command ring, not through `attach`, so the engine keeps
    /// pulling this source after a silent period (a skipped pull only delays a start to the next one).
    public func render(frames: Int, into buffer: UnsafeMutablePointer<Fixed824>, at time: RenderTime) -> Bool {
        buffer.update(repeating: .zero, count: frames &* 2)
        for index in 0..<slotCount where slots[index].state == .ending {
            report(slots + index)
        }
        takeCommands()
        var sounded = false
        for index in 0..<slotCount {
            let voice = slots + index
            switch voice.pointee.state {
            case .playing, .fading:
                mix(voice, frames: frames, into: buffer, at: time)
                sounded = true
            case .idle, .ending:
                break
            }
        }
        return sounded
    }

    // MARK: - Commands

    private func takeCommands() {
        while true {
            let command: VoiceCommand
            if let waiting = waitingStart {
                command = waiting
                waitingStart = nil
            } else if let next = commands.pop() {
                command = next
            } else {
                if fadeAllOverflow.exchange(false, ordering: .acquiringAndReleasing) { fadeAll() }
                return
            }
            switch command.kind {
            case .fadeAll:
                fadeAll()
            case .start:
                if !start(command) {
                    waitingStart = command
                    return
                }
            }
        }
    }

    private func fadeAll() {
        for index in 0..<slotCount where slots[index].state == .playing {
            fade(slots + index, outcome: .stopped)
        }
    }

    /// Starts `command` in a free slot, stealing the oldest playing voice first when all voices are busy.
    /// False when no slot is free (every one is still fading or reporting).
    private func start(_ command: VoiceCommand) -> Bool {
        var playing = 0
        var oldest = -1
        for index in 0..<slotCount where slots[index].state == .playing {
            playing &+= 1
            if oldest < 0 || slots[index].order < slots[oldest].order { oldest = index }
        }
        if playing >= voiceCount && oldest >= 0 {
            fade(slots + oldest, outcome: .stolen)
        }
        for index in 0..<slotCount where slots[index].state == .idle {
            slots[index] = Voice(starting: command, order: nextOrder)
            nextOrder &+= 1
            return true
        }
        return false
    }

    private func fade(_ voice: UnsafeMutablePointer<Voice>, outcome: SystemSoundOutcome) {
        voice.pointee.state = .fading
        voice.pointee.outcome = outcome
        voice.pointee.fade.ramp(to: .zero, frames: fadeFrames)
    }

    // MARK: - Mixing

    /// Adds the voice's next frames to `buffer`; ends it when its sound or its fade is over.
    private func mix(_ voice: UnsafeMutablePointer<Voice>, frames: Int, into buffer: UnsafeMutablePointer<Fixed824>,
                     at time: RenderTime) {
        let channels = voice.pointee.channels
        let position = voice.pointee.position
        let source = voice.pointee.samples! + position &* channels
        var count = min(frames, voice.pointee.frames &- position)
        if voice.pointee.state == .playing {
            if channels == 1 {
                for frame in 0..<count {
                    let sample = source[frame]
                    buffer[2 &* frame] += sample
                    buffer[2 &* frame &+ 1] += sample
                }
            } else {
                for index in 0..<(count &* 2) {
                    buffer[index] += source[index]
                }
            }
        } else {
            count = min(count, voice.pointee.fade.remainingFrames)
            for frame in 0..<count {
                let gain = voice.pointee.fade.nextGain()
                let left = source[frame &* channels] * gain
                let right = channels == 1 ? left : source[frame &* 2 &+ 1] * gain
                buffer[2 &* frame] += left
                buffer[2 &* frame &+ 1] += right
            }
        }
        voice.pointee.position = position &+ count
        let finished = voice.pointee.position == voice.pointee.frames
        let faded = voice.pointee.state == .fading && voice.pointee.fade.isSilent
        if finished || faded {
            if finished && voice.pointee.state == .playing { voice.pointee.outcome = .played }
            voice.pointee.state = .ending
            voice.pointee.lastFrame = time.sampleTime &+ Int64(count) &- 1
            report(voice)
        }
    }

    /// Reports an ended voice and frees its slot; if the report ring is full the voice stays `ending` and is
    /// reported next period, so no end is ever lost.
    private func report(_ voice: UnsafeMutablePointer<Voice>) {
        let ended = VoiceReport(token: voice.pointee.token, outcome: voice.pointee.outcome,
                                lastFrame: voice.pointee.lastFrame)
        if reports.push(ended) {
            voice.pointee = Voice()
        }
    }
}

/// One voice slot (render thread only).
struct Voice {
    enum State: UInt8 {
        case idle
        /// Adding its sound to the mix unchanged.
        case playing
        /// Fading out (stolen or stopped); ends when the fade reaches 0 or the sound ends.
        case fading
        /// Over, its report not yet accepted by the report ring.
        case ending
    }

    var state = State.idle
    var samples: UnsafePointer<Fixed824>?
    var frames = 0
    var channels = 1
    var position = 0
    var token: UInt64 = 0
    /// Start order, to find the oldest voice to steal.
    var order: UInt64 = 0
    var fade = GainRamp()
    var outcome = SystemSoundOutcome.played
    var lastFrame: Int64 = 0

    init() {}

    init(starting command: VoiceCommand, order: UInt64) {
        state = .playing
        samples = command.samples
        frames = command.frames
        channels = command.channels
        token = command.token
        self.order = order
    }
}
