import HAL

/// The simulated board's loopback cable: frames the playback PCM accepts come back on the capture PCM, for
/// `selftest` (a tone out, and back in at its level and frequency). A first-in first-out ring of device-format
/// bytes, allocated once; it keeps the newest second when nothing captures. The frames come back as soon
/// as they are written, without the DAC and ADC's latency.
public final class LoopbackTap: @unchecked Sendable {
    private let condition = Condition()
    private let capacity: Int
    private let storage: UnsafeMutablePointer<UInt8>
    // Guarded by `condition`:
    private var start = 0
    private var count = 0
    /// The playback stream's format, while one is open.
    private var playbackFormat: PCMParameters?

    /// A ring of `capacity` bytes.
    public init(capacity: Int = 48_000 * 8 * 2) {
        self.capacity = capacity
        storage = .allocate(capacity: capacity)
        storage.initialize(repeating: 0, count: capacity)
    }

    deinit { storage.deallocate() }

    /// The format frames are written in, checked against the capture's.
    public var format: PCMParameters? { condition.locked { playbackFormat } }

    func playbackOpened(_ parameters: PCMParameters?) {
        condition.locked {
            playbackFormat = parameters
            start = 0
            count = 0
        }
    }

    /// Takes in played bytes (the oldest are lost when the ring is full).
    func put(_ bytes: UnsafeRawBufferPointer) {
        condition.locked {
            for byte in bytes.suffix(capacity) {
                storage[(start + count) % capacity] = byte
                if count == capacity { start = (start + 1) % capacity } else { count += 1 }
            }
        }
    }

    /// Fills `target` with the oldest bytes, silence (zero) where there are none yet.
    func take(into target: UnsafeMutableRawBufferPointer) {
        condition.locked {
            let taken = min(count, target.count)
            for index in 0..<taken { target[index] = storage[(start + index) % capacity] }
            start = (start + taken) % capacity
            count -= taken
            for index in taken..<target.count { target[index] = 0 }
        }
    }
}
