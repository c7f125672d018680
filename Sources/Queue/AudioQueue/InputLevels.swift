import Codec8_24
import Synchronization

/// An input queue's level meter readings, published lock-free (core-audio-iphone-2008.md 1.7: "an atomic
/// snapshot written by the audio thread and read by the console thread"): the render thread stores each
/// channel's peak and average after every meter block; any thread reads them. One atomic word per channel
/// holds both readings as 32-bit floats, so a channel's pair is always from the same block.
///
/// Eight channels at most (the engine's limit), as eight stored atomics: Swift 6.0 has no array or tuple of
/// non-copyable atomics, and pointers to them are not trusted on the 6.0.3 toolchain.
final class InputLevels: @unchecked Sendable {
    let channels: Int
    private let c0 = Atomic<UInt64>(InputLevels.silence), c1 = Atomic<UInt64>(InputLevels.silence)
    private let c2 = Atomic<UInt64>(InputLevels.silence), c3 = Atomic<UInt64>(InputLevels.silence)
    private let c4 = Atomic<UInt64>(InputLevels.silence), c5 = Atomic<UInt64>(InputLevels.silence)
    private let c6 = Atomic<UInt64>(InputLevels.silence), c7 = Atomic<UInt64>(InputLevels.silence)

    private static let silence = pack(LevelMeter.Reading(peak: LevelMeter.floor, average: LevelMeter.floor))

    init(channels: Int) {
        precondition((1...SampleConversion.maxChannels).contains(channels), "1...8 channels")
        self.channels = channels
    }

    /// Render thread: publishes `meter`'s current readings.
    func publish(_ meter: LevelMeter) {
        for channel in 0..<channels { store(Self.pack(meter.reading(channel: channel)), channel: channel) }
    }

    /// Any thread: back to silence (the control thread, after a reset or stop).
    func clear() {
        for channel in 0..<channels { store(Self.silence, channel: channel) }
    }

    /// Any thread: the latest readings, one per channel, in dBFS.
    var readings: [LevelMeter.Reading] { (0..<channels).map { Self.unpack(load(channel: $0)) } }

    private func store(_ word: UInt64, channel: Int) {
        switch channel {
        case 0: c0.store(word, ordering: .relaxed)
        case 1: c1.store(word, ordering: .relaxed)
        case 2: c2.store(word, ordering: .relaxed)
        case 3: c3.store(word, ordering: .relaxed)
        case 4: c4.store(word, ordering: .relaxed)
        case 5: c5.store(word, ordering: .relaxed)
        case 6: c6.store(word, ordering: .relaxed)
        default: c7.store(word, ordering: .relaxed)
        }
    }

    private func load(channel: Int) -> UInt64 {
        switch channel {
        case 0: c0.load(ordering: .relaxed)
        case 1: c1.load(ordering: .relaxed)
        case 2: c2.load(ordering: .relaxed)
        case 3: c3.load(ordering: .relaxed)
        case 4: c4.load(ordering: .relaxed)
        case 5: c5.load(ordering: .relaxed)
        case 6: c6.load(ordering: .relaxed)
        default: c7.load(ordering: .relaxed)
        }
    }

    private static func pack(_ reading: LevelMeter.Reading) -> UInt64 {
        UInt64(Float(reading.peak).bitPattern) << 32 | UInt64(Float(reading.average).bitPattern)
    }

    private static func unpack(_ word: UInt64) -> LevelMeter.Reading {
        LevelMeter.Reading(peak: Double(Float(bitPattern: UInt32(truncatingIfNeeded: word >> 32))),
                           average: Double(Float(bitPattern: UInt32(truncatingIfNeeded: word))))
    }
}
