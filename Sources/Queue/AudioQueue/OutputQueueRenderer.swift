import Codec8_24
import HAL
import Synchronization

/// The render side of an output queue: pulled by the engine once per period on the render thread. It owns
/// the playback order of the enqueued buffers, the decoder, the fades, the queue volume, the meter and the
/// rate converter; the control side (`OutputQueue`) reaches it only through `commands` and hears back only
/// through `reports` and the published levels and time anchor.
///
/// Per period: take the commands; work out the queue-rate frames the period needs (the period itself, or
/// what the converter needs for it); fill them from the buffers (decoding whole packets with `PacketCodec`
/// into a small staging area), or with silence; apply the fade and the volume (8.24 `GainRamp`s, one gain
/// per frame); meter; convert to the engine's rate.
///
/// Fades (a few ms, linear): out on pause, stop-immediately and reset while sounding, and on the tail of an
/// underrun; in on resume and when data comes after an underrun. Frames are taken from the buffers only up to
/// the end of a fade out, so a pause resumes at the frame after the last one faded. Between buffers nothing
/// is added or dropped, and at unity volume with no fade the frames are the decoded samples bit for bit.
/// Running dry after a flush or during a stop-after-enqueued is the end of the data: no fade. An underrun is
/// seen a fade ahead (fewer frames left than the period plus a fade), so the tail fades out on its last frame;
/// the queue sounds again once a period and a fade of data are queued (or the data is known to end).
///
/// Nothing here allocates, locks, logs or calls a closure or existential after `prepare`: the buffers'
/// memory belongs to the pool (kept alive by this object), and every table is preallocated.
final class OutputQueueRenderer: RenderSource, @unchecked Sendable {
    let format: StreamFormat
    let channels: Int
    let commands: SPSCRing<OutputQueueCommand>
    let reports: SPSCRing<OutputQueueReport>
    let levels: AudioQueueLevels
    /// The published time anchor (see `TimeAnchor`).
    let anchor = TimeAnchor()
    /// Keeps the buffers' memory alive while this side may still read it.
    private let pool: AudioQueueBufferPool
    private let codec: PacketCodec
    private let fadeMilliseconds: Double
    let meteringEnabled: Bool

    var renderChannels: Int { channels }

    // Made in `prepare`:
    private(set) var engineRate = 0
    private var converter: SampleRateConverter?
    /// Queue-rate frames of one period (room for what the converter needs).
    private var scratch: UnsafeMutablePointer<Fixed824>?
    private var scratchFrames = 0
    private var meter: LevelMeter?
    private var fadeFrames = 1

    // Render thread state:
    /// Enqueued buffers in play order: a ring of `pool.capacity + 1` entries. One more than the pool: a head
    /// buffer whose last packet is decoded has been reported consumed (its owner may enqueue it again) while
    /// its frames still wait in `staging`, so the same buffer can be pending twice.
    private let pendingCapacity: Int
    private let pendingIndex: UnsafeMutablePointer<Int>
    private let pendingData: UnsafeMutablePointer<UnsafeRawPointer>
    private let pendingBytes: UnsafeMutablePointer<Int>
    /// The frames available at the last starved period (-1: not starved then), to see a client that gives
    /// no more.
    private var starvedAvailable = -1
    private var pendingHead = 0
    private var pendingCount = 0
    /// Bytes of the head buffer already decoded.
    private var headOffset = 0
    /// Frames enqueued and not yet decoded, over all pending buffers.
    private var undecodedFrames = 0
    /// Decoded frames of the head buffer waiting to be rendered.
    private let staging: UnsafeMutablePointer<Fixed824>
    private let stagingPackets: Int
    private var stagingRead = 0
    private var stagingCount = 0

    private enum Mode: Equatable {
        /// Stopped, primed or paused: silence, nothing taken from the buffers.
        case idle
        /// Started; sounds from device frame `at` (nil: now).
        case waiting(at: Int64?, fadeIn: Bool)
        case playing
        /// Ran dry while running: silence until data comes, then (after an underrun) a fade in.
        case starved(fadeIn: Bool)
        /// Fading out; at the end discard everything when `discard`, then go to `next`.
        case fading(discard: Bool, next: AfterFade)
    }

    private enum AfterFade: Equatable {
        /// Hold the position (pause).
        case hold
        /// Stopped (stop immediately).
        case stop
        /// Go on with what is enqueued next, fading in (reset while running).
        case resume
        /// Ran dry while running: an underrun; fade in when data comes.
        case starve
    }

    private var mode = Mode.idle
    private var fade = GainRamp(gain: .one)
    private var volume = GainRamp(gain: .one)
    /// Stop once what is enqueued has played.
    private var playingOut = false
    /// The data ends after what is enqueued.
    private var flushed = false
    /// Queue frames taken from buffers since the queue last stopped (the queue's own timeline).
    private var queuePosition: Int64 = 0
    private var publishedPosition: Int64 = 0
    /// Queue-rate frames of silence fed to the converter since the queue last sounded.
    private var silentFrames = 0
    /// Pending entries a fade-then-discard will throw away (those enqueued before it was asked).
    private var discardBoundary = 0

    init(format: StreamFormat, pool: AudioQueueBufferPool, commandCapacity: Int, fadeMilliseconds: Double,
         metering: Bool) throws(AudioQueueError) {
        self.format = format
        channels = format.channelsPerFrame
        self.pool = pool
        self.fadeMilliseconds = fadeMilliseconds
        meteringEnabled = metering
        do { codec = try PacketCodec(format: format) } catch {
            throw AudioQueueError(.formatUnsupported, "no decoder for \(format): \(error)",
                                  hint: "use linear PCM, mu-law, A-law or IMA4")
        }
        commands = SPSCRing(minimumCapacity: commandCapacity)
        // Each buffer reports at most twice (consumed or discarded, then rendered) before the control side
        // must take its consumed report to enqueue it again; transport reports follow commands one to one.
        reports = SPSCRing(minimumCapacity: 2 * pool.capacity + 2 * commandCapacity)
        levels = AudioQueueLevels(channels: channels)
        pendingCapacity = pool.capacity + 1
        pendingIndex = .allocate(capacity: pendingCapacity)
        pendingData = .allocate(capacity: pendingCapacity)
        pendingBytes = .allocate(capacity: pendingCapacity)
        stagingPackets = max(1, 512 / format.framesPerPacket)
        staging = .allocate(capacity: stagingPackets * format.framesPerPacket * channels)
    }

    deinit {
        pendingIndex.deallocate()
        pendingData.deallocate()
        pendingBytes.deallocate()
        staging.deallocate()
        scratch?.deallocate()
    }

    // MARK: Control thread

    func prepare(engineRate: Int, maximumFrames: Int) throws {
        guard engineRate > 0, maximumFrames > 0 else {
            throw AudioQueueError(.system, "the engine offers \(engineRate) Hz and \(maximumFrames)-frame periods",
                                  hint: "the host must have a positive rate and period")
        }
        let queueRate = Int(format.sampleRate)
        var converter: SampleRateConverter?
        var frames = maximumFrames
        if Double(engineRate) != format.sampleRate {
            guard format.sampleRate == Double(queueRate), let from = StandardSampleRate(hertz: queueRate),
                  let to = StandardSampleRate(hertz: engineRate) else {
                throw AudioQueueError(.formatUnsupported,
                                      "no rate converter from \(format.sampleRate) Hz to the engine's \(engineRate) Hz",
                                      hint: "use one of 8, 11.025, 16, 22.05, 32, 44.1, 48, 88.2, 96 kHz")
            }
            let made = SampleRateConverter(from: from, to: to, channels: channels)
            let ratio = made.ratio
            // inputFramesRequired is at most framesNeeded (<= taps) + ((L-1) + (n-1)·M) / L.
            frames = made.filterBank.tapsPerPhase + (ratio.interpolation + maximumFrames * ratio.decimation)
                / ratio.interpolation + 1
            converter = made
        }
        self.engineRate = engineRate
        self.converter = converter
        scratch?.deallocate()
        scratch = .allocate(capacity: frames * channels)
        scratchFrames = frames
        fadeFrames = GainRamp.frames(milliseconds: fadeMilliseconds, sampleRate: format.sampleRate)
        meter = meteringEnabled ? LevelMeter(channels: channels, sampleRate: format.sampleRate,
                                             blockFrames: max(1, maximumFrames * queueRate / engineRate),
                                             averageTime: 0) : nil
    }

    // MARK: Render thread

    func render(frames: Int, into buffer: UnsafeMutablePointer<Fixed824>, at time: RenderTime) -> Bool {
        while let command = commands.pop() { apply(command) }
        guard let scratch else {
            buffer.update(repeating: .zero, count: frames * channels)
            return false
        }
        let converter = self.converter
        let need = converter.map { min(scratchFrames, $0.inputFramesRequired(forOutputFrames: frames)) } ?? frames
        let queueFrames = converter == nil ? buffer : scratch
        let consumedBefore = Int64(converter?.inputFramesConsumed ?? 0)
        let producedBefore = Int64(converter?.outputFramesProduced ?? 0)
        let mapping = FrameMapping(periodStart: time.sampleTime, consumedBefore: consumedBefore,
                                   producedBefore: producedBefore, converter: converter)

        var start = 0
        if case .waiting(let at, let fadeIn) = mode {
            let offset = at.map { max(0, $0 - time.sampleTime) } ?? 0
            if offset < frames {
                start = converter == nil ? Int(offset) : min(need, Int(offset) * need / frames)
                reports.push(.started(at: time.sampleTime + offset))
                if fadeIn { fade.ramp(to: .one, frames: fadeFrames) } else { fade.set(.one) }
                mode = .playing
            } else {
                start = need
            }
        }
        if start > 0 { queueFrames.update(repeating: .zero, count: start * channels) }
        let sounding = produce(into: queueFrames + start * channels, count: need - start,
                               firstFrame: start, mapping: mapping)
        if !sounding && start < need {
            (queueFrames + start * channels).update(repeating: .zero, count: (need - start) * channels)
        }
        if sounding, let meter {
            meter.measure(UnsafeBufferPointer(start: queueFrames, count: need * channels))
            levels.publish(meter)
        }
        if let converter {
            // Silent long enough that the converter's history is all zeros: its output would be zeros too.
            silentFrames = sounding ? 0 : min(silentFrames + need, Int.max / 2)
            if silentFrames > 2 * converter.filterBank.tapsPerPhase {
                buffer.update(repeating: .zero, count: frames * channels)
            } else {
                let result = converter.process(input: UnsafeBufferPointer(start: scratch, count: need * channels),
                                               output: UnsafeMutableBufferPointer(start: buffer, count: frames * channels))
                if result.produced < frames {
                    (buffer + result.produced * channels).update(repeating: .zero, count: (frames - result.produced) * channels)
                }
            }
        }
        if sounding || queuePosition != publishedPosition {
            anchor.publish(deviceFrame: time.sampleTime + Int64(frames), queueFrame: queuePosition)
            publishedPosition = queuePosition
        }
        return sounding
    }

    /// Fills `count` queue-rate frames at `out` for the current mode; false (nothing written) when silent.
    private func produce(into out: UnsafeMutablePointer<Fixed824>, count: Int, firstFrame: Int,
                         mapping: FrameMapping) -> Bool {
        guard count > 0 else { return mode == .playing }
        if case .starved(let fadeIn) = mode {
            if playingOut && available == 0 {
                endData()                         // asked to stop after what was enqueued, and it has played
                return false
            }
            // Frames that stayed the same over a whole starved period are all the client has (its buffers
            // hold less than a period and a fade): play them rather than wait for data that cannot come.
            let stalled = available > 0 && available == starvedAvailable
            starvedAvailable = available
            guard canResume(fadeIn: fadeIn, frames: count) || stalled else { return false }
            starvedAvailable = -1
            if fadeIn {
                fade.set(.zero)
                fade.ramp(to: .one, frames: fadeFrames)
            } else {
                fade.set(.one)
            }
            mode = .playing
        }
        guard isSounding else { return false }
        var done = 0
        // Each pass either takes frames or changes mode towards silence; the bound only guards the loop.
        var passes = 0
        while done < count && passes < 8 {
            passes += 1
            let rest = count - done
            let here = out + done * channels
            switch mode {
            case .playing:
                let avail = available
                let endOfData = playingOut || flushed
                // Looking ahead: when fewer than a fade's frames would be left after this period, the tail
                // fade begins so that it ends on the last frame there is (an underrun fades, never cuts).
                var segment = rest
                var tail = 0
                if !endOfData && avail < rest + fadeFrames {
                    tail = min(fadeFrames, avail)
                    segment = min(rest, avail - tail)
                }
                let took = pull(min(segment, avail), into: here, firstFrame: firstFrame + done, mapping: mapping)
                applyGains(here, frames: took)
                done += took
                if took < segment {
                    // The end of the data (flushed, or stopping after what was enqueued).
                    (out + done * channels).update(repeating: .zero, count: (count - done) * channels)
                    endData()
                    return true
                }
                if tail > 0 && done < count {
                    fade.ramp(to: .zero, frames: tail)
                    mode = .fading(discard: false, next: .starve)
                } else if avail == 0 {
                    (out + done * channels).update(repeating: .zero, count: (count - done) * channels)
                    finishFade(discard: false, next: .starve)
                    return true
                }
            case .fading(let discard, let next):
                let limit = min(rest, fade.remainingFrames)
                let avail = discard ? availableBeforeBoundary : available
                if avail < limit { fade.ramp(to: .zero, frames: max(avail, 1)) }
                let took = pull(min(limit, avail), into: here, firstFrame: firstFrame + done, mapping: mapping)
                applyGains(here, frames: took)
                done += took
                if fade.isSilent || took < limit {
                    finishFade(discard: discard, next: next)
                    if case .starved(let fadeIn) = mode, canResume(fadeIn: fadeIn, frames: count - done) {
                        // Data is there (a seek's first buffer, a late one): fade it in right away.
                        fade.ramp(to: .one, frames: fadeFrames)
                        mode = .playing
                        continue
                    }
                    (out + done * channels).update(repeating: .zero, count: (count - done) * channels)
                    return true
                }
            default:
                (out + done * channels).update(repeating: .zero, count: (count - done) * channels)
                return true
            }
        }
        if done < count { (out + done * channels).update(repeating: .zero, count: (count - done) * channels) }
        return true
    }

    /// The queue has stopped: its timeline starts again at 0 and its meters read silence.
    private func stopped() {
        queuePosition = 0
        if let meter {
            meter.reset()
            levels.publish(meter)
        }
    }

    /// Whether a starved queue may sound again: after an underrun only once there is enough data to fade in
    /// and still fade out cleanly should it run dry again (the rest of the period plus a fade), or when the
    /// data is known to end (flushed, stopping after what is enqueued); after the end of data, at once.
    private func canResume(fadeIn: Bool, frames: Int) -> Bool {
        let avail = available
        guard avail > 0 else { return false }
        return !fadeIn || playingOut || flushed || avail >= frames + fadeFrames
    }

    /// The data has ended (flushed, or stopping after what was enqueued): no fade.
    private func endData() {
        flushed = false
        if playingOut {
            // A converter's last `latency` frames follow in the next periods, from the silence it is fed.
            playingOut = false
            mode = .idle
            stopped()
            reports.push(.playedOut)
        } else {
            mode = .starved(fadeIn: false)
        }
    }

    private func applyGains(_ samples: UnsafeMutablePointer<Fixed824>, frames: Int) {
        guard frames > 0 else { return }
        let region = UnsafeMutableBufferPointer(start: samples, count: frames * channels)
        fade.apply(to: region, channels: channels)
        volume.apply(to: region, channels: channels)
    }

    private func finishFade(discard: Bool, next: AfterFade) {
        if discard { discardAll(upTo: discardBoundary) }
        switch next {
        case .hold:
            mode = .idle
            reports.push(.fadedOut)
        case .stop:
            mode = .idle
            playingOut = false
            flushed = false
            stopped()
            reports.push(.fadedOut)
        case .resume:
            mode = .starved(fadeIn: true)
        case .starve:
            mode = .starved(fadeIn: true)
            reports.push(.underrun)
        }
    }

    /// Frames enqueued and not yet rendered.
    private var available: Int { stagingCount + undecodedFrames }

    /// Copies `frames` (at most `available`) frames from the buffers to `out`, decoding as it goes; reports
    /// each buffer consumed when its last packet is decoded and rendered when its last frame is copied.
    private func pull(_ frames: Int, into out: UnsafeMutablePointer<Fixed824>, firstFrame: Int,
                      mapping: FrameMapping) -> Int {
        var done = 0
        while done < frames {
            if stagingCount == 0 { decodeChunk() }
            let n = min(stagingCount, frames - done)
            guard n > 0 else { break }
            (out + done * channels).update(from: staging + stagingRead * channels, count: n * channels)
            stagingRead += n
            stagingCount -= n
            done += n
            if stagingCount == 0 && headFullyDecoded {
                let lastFrame = mapping.deviceFrame(ofQueueFrame: firstFrame + done - 1)
                reports.push(.rendered(index: pendingIndex[pendingHead], lastFrame: lastFrame))
                popHead()
            }
        }
        queuePosition += Int64(done)
        return done
    }

    private var headFullyDecoded: Bool { pendingCount > 0 && headOffset >= pendingBytes[pendingHead] }

    /// Decodes the next packets of the head buffer into the staging area.
    private func decodeChunk() {
        guard pendingCount > 0, !headFullyDecoded else { return }
        let packetBytes = format.bytesPerPacket
        let packets = min(stagingPackets, (pendingBytes[pendingHead] - headOffset) / packetBytes)
        // The control side checked every packet at enqueue, so decoding cannot fail here.
        let decoded = (try? codec.decode(pendingData[pendingHead] + headOffset, packets: packets, into: staging)) ?? 0
        headOffset += packets * packetBytes
        undecodedFrames -= packets * format.framesPerPacket
        stagingRead = 0
        stagingCount = decoded
        if headFullyDecoded { reports.push(.consumed(index: pendingIndex[pendingHead])) }
    }

    private func popHead() {
        pendingHead = (pendingHead + 1) % pendingCapacity
        pendingCount -= 1
        if discardBoundary > 0 { discardBoundary -= 1 }
        headOffset = 0
    }

    /// Frames of the buffers that a pending discard will throw away (those enqueued before it was asked).
    private var availableBeforeBoundary: Int {
        var frames = stagingCount
        var entry = 0
        while entry < min(discardBoundary, pendingCount) {
            let slot = (pendingHead + entry) % pendingCapacity
            let undecoded = entry == 0 ? pendingBytes[slot] - headOffset : pendingBytes[slot]
            frames += undecoded / format.bytesPerPacket * format.framesPerPacket
            entry += 1
        }
        return frames
    }

    /// Throws away the first `entries` enqueued buffers (all when nil); those not yet consumed come back as
    /// discarded. Buffers enqueued after a reset or stop was asked stay.
    private func discardAll(upTo entries: Int? = nil) {
        var left = min(entries ?? pendingCount, pendingCount)
        while left > 0 {
            if !headFullyDecoded {
                undecodedFrames -= (pendingBytes[pendingHead] - headOffset) / format.bytesPerPacket * format.framesPerPacket
                reports.push(.discarded(index: pendingIndex[pendingHead]))
            }
            popHead()
            left -= 1
        }
        discardBoundary = 0
        stagingCount = 0
        stagingRead = 0
        codec.reset()
        converter?.reset()
    }

    private var isSounding: Bool {
        switch mode {
        case .playing, .fading: true
        case .idle, .waiting, .starved: false
        }
    }

    private func apply(_ command: OutputQueueCommand) {
        switch command {
        case .enqueue(let index, let data, let bytes):
            let slot = (pendingHead + pendingCount) % pendingCapacity
            pendingIndex[slot] = index
            pendingData[slot] = data
            pendingBytes[slot] = bytes
            pendingCount += 1
            undecodedFrames += bytes / format.bytesPerPacket * format.framesPerPacket
        case .transport(.begin(let at, let fadeIn)):
            // A reset asked during a pause's fade still throws away what came before it.
            if case .fading(true, _) = mode { discardAll(upTo: discardBoundary) }
            mode = .waiting(at: at, fadeIn: fadeIn)
        case .transport(.fadeOutAndHold):
            switch mode {
            case .playing:
                fade.ramp(to: .zero, frames: fadeFrames)
                mode = .fading(discard: false, next: .hold)
            case .fading(let discard, _):
                mode = .fading(discard: discard, next: .hold)
            case .idle, .waiting, .starved:
                mode = .idle
                reports.push(.fadedOut)
            }
        case .transport(.fadeOutAndDiscard(let keepRunning)):
            switch mode {
            case .playing:
                fade.ramp(to: .zero, frames: fadeFrames)
                discardBoundary = pendingCount
                mode = .fading(discard: true, next: keepRunning ? .resume : .stop)
            case .fading(_, let next):
                discardBoundary = pendingCount
                mode = .fading(discard: true, next: keepRunning ? (next == .starve ? .resume : next) : .stop)
            case .waiting, .starved:
                discardAll()
                if !keepRunning { finishFade(discard: false, next: .stop) }
            case .idle:
                discardAll()
                if !keepRunning { reports.push(.fadedOut) }
            }
        case .transport(.discard):
            discardAll()
            if mode != .idle { mode = .idle }
            stopped()
        case .transport(.playOut):
            playingOut = true
            if mode == .starved(fadeIn: true) || mode == .starved(fadeIn: false), available == 0 {
                playingOut = false
                mode = .idle
                stopped()
                reports.push(.playedOut)
            }
        case .transport(.flush):
            flushed = true
        case .transport(.decodeAhead):
            if stagingCount == 0 { decodeChunk() }
        case .volume(let raw):
            if isSounding { volume.ramp(to: Fixed824(raw: raw), frames: fadeFrames) } else { volume.set(Fixed824(raw: raw)) }
        }
    }
}

/// Where a queue-rate frame of this period lands on the device timeline: directly without a converter, and
/// by the converter's contract with one (output frame `latency + k` is input time `k·M/L`).
struct FrameMapping {
    let periodStart: Int64
    let consumedBefore: Int64
    let producedBefore: Int64
    let converter: SampleRateConverter?

    func deviceFrame(ofQueueFrame frame: Int) -> Int64 {
        guard let converter else { return periodStart + Int64(frame) }
        let input = consumedBefore + Int64(frame)
        let l = Int64(converter.ratio.interpolation), m = Int64(converter.ratio.decimation)
        let output = Int64(converter.latencyFrames) + (input * l + m - 1) / m
        return periodStart + output - producedBefore
    }
}

/// The queue's position published by the render thread once a period: after device frame `deviceFrame`
/// (the end of the period), the queue had taken `queueFrame` frames from its buffers. A sequence counter
/// makes the pair consistent for readers without a lock.
final class TimeAnchor: @unchecked Sendable {
    private let sequence = Atomic<Int>(0)
    private let device = Atomic<Int64>(0)
    private let queue = Atomic<Int64>(0)

    func publish(deviceFrame: Int64, queueFrame: Int64) {
        let s = sequence.load(ordering: .relaxed)
        sequence.store(s &+ 1, ordering: .relaxed)
        atomicMemoryFence(ordering: .releasing)
        device.store(deviceFrame, ordering: .relaxed)
        queue.store(queueFrame, ordering: .relaxed)
        sequence.store(s &+ 2, ordering: .releasing)
    }

    var value: (deviceFrame: Int64, queueFrame: Int64) {
        while true {
            let before = sequence.load(ordering: .acquiring)
            let d = device.load(ordering: .relaxed), q = queue.load(ordering: .relaxed)
            atomicMemoryFence(ordering: .acquiring)
            if before & 1 == 0 && sequence.load(ordering: .relaxed) == before { return (d, q) }
        }
    }
}
