/// What the caller asks of a PCM stream when it opens it. The device may round the period and buffer
/// (devices work in whole DMA blocks); format and channels are granted exactly or refused; the rate is
/// exact unless `allowsNearestRate`.
public struct PCMConfiguration: Hashable, Sendable {
    public var format: PCMSampleFormat
    public var rate: Int
    public var channels: Int
    /// Frames per period: the unit the device wakes the writer for (and the render engine's block size).
    public var periodFrames: Int
    /// Periods in the ring buffer; latency is about `periodFrames * periodCount / rate`.
    public var periodCount: Int
    /// Accept the nearest rate the device offers instead of refusing a rate it does not have.
    public var allowsNearestRate: Bool
    /// Frames that must be queued before playback starts by itself (`nil`: a full buffer, like `aplay`);
    /// for capture, frames asked of the first read before the device starts (`nil`: 1, start on the first read).
    public var startThreshold: Int?
    /// Reads and writes never block: they transfer what fits now and return the count (0 if none).
    public var nonBlocking: Bool
    /// Underruns, overruns and suspends are recovered inside `read`/`write` (counted in `xruns`);
    /// when false they throw `PCMError.xrun` / `.suspended` and the caller recovers with `recover`.
    public var recoversXruns: Bool
    /// Use the device's hardware pause where it has one; false treats it as a device without (as the Pi's
    /// bcm2835-i2s, whose DMA engine cannot pause), so that path runs on devices that can pause.
    public var usesHardwarePause: Bool

    public init(format: PCMSampleFormat, rate: Int, channels: Int, periodFrames: Int, periodCount: Int,
                allowsNearestRate: Bool = false, startThreshold: Int? = nil, nonBlocking: Bool = false,
                recoversXruns: Bool = true, usesHardwarePause: Bool = true) {
        self.format = format
        self.rate = rate
        self.channels = channels
        self.periodFrames = periodFrames
        self.periodCount = periodCount
        self.allowsNearestRate = allowsNearestRate
        self.startThreshold = startThreshold
        self.nonBlocking = nonBlocking
        self.recoversXruns = recoversXruns
        self.usesHardwarePause = usesHardwarePause
    }
}

/// What the device actually granted: the stream runs with these, whatever was asked.
public struct PCMParameters: Hashable, Sendable, CustomStringConvertible {
    public var format: PCMSampleFormat
    public var rate: Int
    public var channels: Int
    public var periodFrames: Int
    public var bufferFrames: Int
    /// Frames queued before playback starts by itself (capture: frames asked before the device starts).
    public var startThreshold: Int
    /// A read or write waits until at least this many frames can move (one period).
    public var availMin: Int

    public init(format: PCMSampleFormat, rate: Int, channels: Int, periodFrames: Int, bufferFrames: Int,
                startThreshold: Int, availMin: Int) {
        self.format = format
        self.rate = rate
        self.channels = channels
        self.periodFrames = periodFrames
        self.bufferFrames = bufferFrames
        self.startThreshold = startThreshold
        self.availMin = availMin
    }

    public var bytesPerFrame: Int { format.bytesPerSample * channels }
    /// Whole periods in the buffer.
    public var periodCount: Int { bufferFrames / max(periodFrames, 1) }
    /// How long one period lasts at the granted rate.
    public var periodDuration: Duration { duration(ofFrames: periodFrames) }
    /// The worst-case output latency of a full buffer.
    public var latency: Duration { duration(ofFrames: bufferFrames) }

    /// The time `frames` take at the granted rate.
    public func duration(ofFrames frames: Int) -> Duration {
        .nanoseconds(Int64(frames) * 1_000_000_000 / Int64(max(rate, 1)))
    }

    public var description: String {
        "\(format) \(rate) Hz \(channels) ch, period \(periodFrames) frames, buffer \(bufferFrames) frames "
            + "(\(latency.nanoseconds / 1000) µs)"
    }
}
