import Codec8_24
import Synchronization

/// A queue's level meter readings, published lock-free: the render thread stores each channel's peak and
/// average power (dBFS, as the bits of a Double) after every metered block; any thread reads them
/// (core-audio-iphone-2008.md 1.7: "an atomic snapshot written by the audio thread"). Up to two channels, the
/// widest a queue renders.
final class AudioQueueLevels: @unchecked Sendable {
    let channels: Int
    private let peak0 = Atomic<UInt64>(LevelMeter.floor.bitPattern)
    private let average0 = Atomic<UInt64>(LevelMeter.floor.bitPattern)
    private let peak1 = Atomic<UInt64>(LevelMeter.floor.bitPattern)
    private let average1 = Atomic<UInt64>(LevelMeter.floor.bitPattern)

    init(channels: Int) {
        precondition(channels == 1 || channels == 2, "a queue meters one or two channels")
        self.channels = channels
    }

    /// Render thread: the meter's current readings.
    func publish(_ meter: LevelMeter) {
        let first = meter.reading(channel: 0)
        peak0.store(first.peak.bitPattern, ordering: .relaxed)
        average0.store(first.average.bitPattern, ordering: .relaxed)
        guard channels == 2 else { return }
        let second = meter.reading(channel: 1)
        peak1.store(second.peak.bitPattern, ordering: .relaxed)
        average1.store(second.average.bitPattern, ordering: .relaxed)
    }

    /// Any thread: one reading per channel.
    var readings: [LevelMeter.Reading] {
        var result = [LevelMeter.Reading(peak: Double(bitPattern: peak0.load(ordering: .relaxed)),
                                         average: Double(bitPattern: average0.load(ordering: .relaxed)))]
        if channels == 2 {
            result.append(LevelMeter.Reading(peak: Double(bitPattern: peak1.load(ordering: .relaxed)),
                                             average: Double(bitPattern: average1.load(ordering: .relaxed))))
        }
        return result
    }
}
