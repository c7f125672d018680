import CALSA

/// One `snd_pcm_status` reading: state, frames available, delay and the timestamps, all taken by the
/// kernel (or the plugin) at the same moment. The timestamps are on CLOCK_MONOTONIC because
/// `ALSAHardwareParameters.installSoftware` sets the tstamp type to MONOTONIC and the mode to ENABLE
/// (without ENABLE the kernel leaves `tstamp` zero unless the stream runs: pcm_native.c snd_pcm_status64).
struct ALSAStatus {
    var state: snd_pcm_state_t
    /// Playback: room to write. Capture: frames captured and not read (more than the buffer after an
    /// overrun that ran on before the stop).
    var available: Int
    /// Frames between the application and the converter (0 unless running or draining).
    var delay: Int
    /// When this status was taken.
    var time: Timestamp
    /// When the stream last started, stopped (an xrun included) or paused.
    var triggerTime: Timestamp

    init(of pcm: OpaquePointer, name: String) throws(PCMError) {
        var reading: (Int32, snd_pcm_state_t, Int, Int, timespec, timespec) = (0, SND_PCM_STATE_OPEN, 0, 0, timespec(), timespec())
        // snd_pcm_status_t is opaque: its size comes from alsa-lib; stack memory, no allocation.
        withUnsafeTemporaryAllocation(byteCount: snd_pcm_status_sizeof(), alignment: 16) { space in
            let status = OpaquePointer(space.baseAddress!)
            space.initializeMemory(as: UInt8.self, repeating: 0)
            reading.0 = snd_pcm_status(pcm, status)
            guard reading.0 == 0 else { return }
            reading.1 = snd_pcm_status_get_state(status)
            reading.2 = Int(snd_pcm_status_get_avail(status))
            reading.3 = Int(snd_pcm_status_get_delay(status))
            snd_pcm_status_get_htstamp(status, &reading.4)
            snd_pcm_status_get_trigger_htstamp(status, &reading.5)
        }
        guard reading.0 == 0 else {
            throw PCMError.io(name: name, operation: "read the status", errno: Errno(-reading.0),
                              detail: String(cString: calsa_last_message()))
        }
        state = reading.1
        available = reading.2
        delay = reading.3
        time = Timestamp(reading.4)
        triggerTime = Timestamp(reading.5)
    }

    /// A reading made up by a test.
    init(state: snd_pcm_state_t, available: Int, delay: Int = 0, time: Timestamp, triggerTime: Timestamp) {
        self.state = state
        self.available = available
        self.delay = delay
        self.time = time
        self.triggerTime = triggerTime
    }

    /// Capture frames the device clock ran on while the stream stood stopped after an overrun: from the
    /// trigger time (the stop) to this reading's time, at `rate`. A plugin that keeps no trigger time (zero)
    /// or one later than the reading's own time tells nothing of the gap, and none is counted: seconds
    /// since boot times the rate would be a far worse guess than the frames known to be waiting.
    func framesMissedWhileStopped(rate: Int) -> Int64 {
        guard triggerTime != .zero, triggerTime <= time else { return 0 }
        let stopped = time.nanoseconds - triggerTime.nanoseconds
        return Int64(1_000_000_000).dividingFullWidth(stopped.multipliedFullWidth(by: Int64(rate))).quotient
    }

    /// Playback frames written and not yet played: the delay while the device runs; otherwise the part
    /// of the buffer that is not free (a prepared stream holds what was written before its start).
    func queuedPlayback(bufferFrames: Int) -> Int {
        if state == SND_PCM_STATE_RUNNING || state == SND_PCM_STATE_DRAINING { return max(delay, 0) }
        return max(bufferFrames - available, 0)
    }

    /// Capture frames captured and not yet read; none once the stream is back in setup or open (alsa-lib's
    /// null plugin reports a full buffer there).
    var waitingCapture: Int {
        state == SND_PCM_STATE_SETUP || state == SND_PCM_STATE_OPEN || state == SND_PCM_STATE_DISCONNECTED
            ? 0 : max(available, 0)
    }
}

extension Timestamp {
    init(_ time: timespec) {
        self.init(nanoseconds: Int64(time.tv_sec) * 1_000_000_000 + Int64(time.tv_nsec))
    }
}

extension PCMState {
    /// The state alsa-lib reports.
    init(_ state: snd_pcm_state_t) {
        self = switch state {
        case SND_PCM_STATE_OPEN: .open
        case SND_PCM_STATE_SETUP: .setup
        case SND_PCM_STATE_PREPARED: .prepared
        case SND_PCM_STATE_RUNNING: .running
        case SND_PCM_STATE_XRUN: .xrun
        case SND_PCM_STATE_DRAINING: .draining
        case SND_PCM_STATE_PAUSED: .paused
        case SND_PCM_STATE_SUSPENDED: .suspended
        default: .disconnected
        }
    }
}
