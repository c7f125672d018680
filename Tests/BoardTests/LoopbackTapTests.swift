import HAL
import RealtimeProbe
import Testing
@testable import Board

/// The simulated loopback cable between the playback and capture render threads: a wire (the bytes played
/// come back exactly, in order) that obeys the real-time rules (DESIGN.md "Threads and real time": no
/// allocation, no lock on a render thread), measured with the RealtimeProbe counters.
@Suite("Loopback tap", .serialized)
struct LoopbackTapTests {
    /// S16_LE stereo: 2 bytes a sample x 2 channels = 4 bytes a frame (ALSA's S16_LE).
    let stereo16 = PCMParameters(format: .s16LE, rate: 48_000, channels: 2, periodFrames: 4, bufferFrames: 16,
                                 startThreshold: 4, availMin: 4)

    func played(_ count: Int, from first: Int) -> [UInt8] { (first..<first + count).map { UInt8(truncatingIfNeeded: $0) } }

    func put(_ tap: LoopbackTap, _ bytes: [UInt8]) {
        bytes.withUnsafeBytes { tap.put($0, frameBytes: 4) }
    }

    func take(_ tap: LoopbackTap, _ count: Int) -> [UInt8] {
        var out = [UInt8](repeating: 0xAA, count: count)
        out.withUnsafeMutableBytes { tap.take(into: $0) }
        return out
    }

    /// Written and read in 24-byte blocks through a 64-byte ring (24 does not divide 64, so the copies wrap at
    /// the ring's end in both directions); a wire gives back the same byte sequence.
    @Test func bytesPlayedComeBackExactlyAcrossTheRingsEnd() {
        let tap = LoopbackTap(capacity: 64)
        tap.playbackOpened(stereo16)
        var sent: [UInt8] = []
        var received: [UInt8] = []
        for block in 0..<30 {
            let bytes = played(24, from: block * 24)
            put(tap, bytes)
            sent += bytes
            received += take(tap, 24)
        }
        #expect(received == sent)
        // Nothing left: a read is silence (zero bytes).
        #expect(take(tap, 8) == [UInt8](repeating: 0, count: 8))
    }

    /// Nothing captures: the ring fills, and what does not fit is dropped in whole frames, so the capture
    /// stays frame-aligned (64 bytes hold 16 whole 4-byte frames; a 6-byte frame fits 10 times in 64 bytes).
    @Test func aFullRingDropsWholeFrames() {
        let tap = LoopbackTap(capacity: 64)
        tap.playbackOpened(stereo16)
        let bytes = played(100, from: 0)
        bytes.withUnsafeBytes { tap.put($0, frameBytes: 6) }
        #expect(take(tap, 100) == Array(bytes.prefix(60)) + [UInt8](repeating: 0, count: 40))
    }

    /// A new playback stream starts clean: what an earlier one left unread does not come back.
    @Test func aNewPlaybackStreamForgetsTheLastOnesBytes() {
        let tap = LoopbackTap(capacity: 64)
        tap.playbackOpened(stereo16)
        put(tap, played(16, from: 0))
        tap.playbackOpened(nil)
        tap.playbackOpened(stereo16)
        put(tap, played(8, from: 100))
        #expect(take(tap, 12) == played(8, from: 100) + [0, 0, 0, 0])
    }

    /// The playback side's `put` and the capture side's `take`, as the render threads call them each period
    /// (256 frames of S16 stereo through the default one-second ring): no allocation, no lock, no system call.
    @Test func putAndTakeAllocateAndLockNothing() {
        let tap = LoopbackTap()
        tap.playbackOpened(stereo16)
        let period = UnsafeMutableRawBufferPointer.allocate(byteCount: 1024, alignment: 16)
        let captured = UnsafeMutableRawBufferPointer.allocate(byteCount: 1024, alignment: 16)
        defer { period.deallocate(); captured.deallocate() }
        for index in 0..<1024 { period[index] = UInt8(truncatingIfNeeded: index &* 7) }
        for _ in 0..<10 {                                    // warm-up: first-use metadata
            tap.put(UnsafeRawBufferPointer(period), frameBytes: 4)
            tap.take(into: captured)
        }
        realtime_probe_begin()
        for _ in 0..<2000 {
            tap.put(UnsafeRawBufferPointer(period), frameBytes: 4)
            tap.take(into: captured)
        }
        let counts = realtime_probe_end()
        #expect(counts.allocations == 0)
        #expect(counts.locks == 0)
        #expect(counts.systemCalls == 0)
        #expect(captured.elementsEqual(period))
    }
}
