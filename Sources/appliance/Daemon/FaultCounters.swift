import Synchronization

/// Faults the appliance met and lived through since it started, for the console's `stats` (one `name: N`
/// line each, every counter shown, zero included, so a script can read them without knowing which occurred).
/// Counted on the control loop and the queue threads, never on the render thread.
final class FaultCounters: Sendable {
    enum Fault: String, CaseIterable, Sendable {
        /// A codec recipe failed on I2C after its retries (NACK, EIO) and the codec was brought back up.
        case codecRecovered = "codec recovered"
        /// A codec recipe failed and the codec could not be brought back up: left reset (silent) or unreachable.
        case codecFailed = "codec failed"
        /// The playback or capture device stopped answering (ENODEV, EBADFD, EIO) and the engine stopped.
        case pcmLost = "pcm lost"
        /// The GPIO chip named by the board file was not there at start: no buttons, no jack sensing.
        case gpioMissing = "gpio missing"
        /// The settings file could not be read as settings: defaults used, the file kept aside.
        case settingsCorrupt = "settings corrupt"
        /// A media file gone (deleted, unmounted) when the player came to it.
        case mediaMissing = "media missing"
        /// A recording stopped because its file system was full (ENOSPC).
        case diskFull = "disk full"
    }

    private let counts = Mutex<[Fault: Int]>([:])

    init() {}

    func count(_ fault: Fault) {
        counts.withLock { $0[fault, default: 0] += 1 }
    }

    subscript(_ fault: Fault) -> Int { counts.withLock { $0[fault] ?? 0 } }

    /// `codec recovered: 0`, ..., in the order of `Fault`.
    var statsLines: [String] {
        let snapshot = counts.withLock { $0 }
        return Fault.allCases.map { "\($0.rawValue): \(snapshot[$0] ?? 0)" }
    }
}
