import HAL
import Synchronization

/// The simulated board's loopback cable: frames the playback PCM accepts come back on the capture PCM, for
/// `selftest` (a tone out, and back in at its level and frequency). The playback render thread writes and the
/// capture render thread reads, so the cable is a lock-free single-producer single-consumer ring of
/// device-format bytes (`SPSCRing`), allocated once, copied in blocks. When nothing captures it fills up and
/// then keeps the oldest bytes, dropping newly played whole frames (the producer cannot move the consumer's
/// position). The frames come back as soon as they are written, without the DAC and ADC's latency.
public final class LoopbackTap: Sendable {
    private let ring: SPSCRing<UInt8>
    /// Where the current playback stream's bytes start in the ring (the producer's position when it opened):
    /// the capture side drops what came before, from an earlier stream.
    private let streamStart = Atomic<Int>(0)
    /// The playback stream's format, while one is open (read and written on the control thread only).
    private let playbackFormat = Mutex<PCMParameters?>(nil)

    /// A ring of at least `capacity` bytes (rounded up to a power of two); one second of 48 kHz stereo
    /// 32-bit frames by default.
    public init(capacity: Int = 48_000 * 8 * 2) {
        ring = SPSCRing(minimumCapacity: capacity)
    }

    /// The format frames are written in, checked against the capture's.
    public var format: PCMParameters? { playbackFormat.withLock { $0 } }

    /// A playback stream opened (or closed, nil): called while no playback writes.
    func playbackOpened(_ parameters: PCMParameters?) {
        playbackFormat.withLock { $0 = parameters }
        streamStart.store(ring.pushed, ordering: .releasing)
    }

    /// Playback render thread: takes in played bytes, the whole frames of `frameBytes` each that fit.
    func put(_ bytes: UnsafeRawBufferPointer, frameBytes: Int) {
        let room = ring.capacity - ring.count            // at least this much: the consumer only frees more
        let whole = min(bytes.count, room - room % max(frameBytes, 1))
        ring.push(contentsOf: UnsafeBufferPointer(rebasing: bytes.assumingMemoryBound(to: UInt8.self).prefix(whole)))
    }

    /// Capture render thread: fills `target` with the oldest bytes, silence (zero) where there are none yet.
    func take(into target: UnsafeMutableRawBufferPointer) {
        ring.discard(upTo: streamStart.load(ordering: .acquiring))
        let bytes = target.assumingMemoryBound(to: UInt8.self)
        let taken = ring.pop(into: bytes)
        UnsafeMutableRawBufferPointer(rebasing: target[taken...]).initializeMemory(as: UInt8.self, repeating: 0)
    }
}
