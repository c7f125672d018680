import Codec8_24
import Foundation
import HAL
import Synchronization
import Testing
@testable import Queue

/// The player across real threads: a render thread pulls the voices while the test thread plays and
/// services. Nothing is timed: the test ends when every completion has come, so it checks that none is
/// lost or doubled and none runs on the render thread, however the threads interleave.
@Suite("System sounds across threads")
struct SystemSoundThreadTests {
    @Test func everyPlayCompletesOnceOnTheServicingThread() throws {
        let player = SystemSoundPlayer(sampleRate: 48_000, voices: 4, clock: ManualClock())
        let sound = try player.register(constantClip(0.01, frames: 37))
        let plays = 500
        let completions = Mutex<[Int: Int]>([:])
        let renderThread = Mutex<SystemThread.ID?>(nil)
        let stop = Atomic<Bool>(false)
        let rendered = Atomic<Int>(0)
        let thread = Thread { [voices = player.voices] in
            renderThread.withLock { $0 = SystemThread.ID.current }
            let buffer = UnsafeMutablePointer<Fixed824>.allocate(capacity: 2 * 64)
            defer { buffer.deallocate() }
            var sampleTime: Int64 = 0
            while !stop.load(ordering: .acquiring) {
                _ = voices.render(frames: 64, into: buffer, at: RenderTime(sampleTime: sampleTime, hostTime: .zero))
                sampleTime += 64
                rendered.add(1, ordering: .relaxed)
            }
        }
        thread.start()
        defer { stop.store(true, ordering: .releasing) }
        var started = 0
        var spins = 0
        while completions.withLock({ $0.count }) < plays && spins < 50_000_000 {
            spins += 1
            if started < plays {
                let index = started
                do throws(SystemSoundError) {
                    try player.play(sound) { _ in
                        let renderer = renderThread.withLock { $0 }
                        #expect(renderer != nil && renderer != SystemThread.ID.current)
                        completions.withLock { $0[index, default: 0] += 1 }
                    }
                    started += 1
                } catch {
                    guard case .renderThreadBehind = error else { throw error }
                }
            }
            try player.service()
        }
        let counts = completions.withLock { $0 }
        #expect(counts.count == plays)
        #expect(counts.values.allSatisfy { $0 == 1 })
        #expect(rendered.load(ordering: .relaxed) > 0)
        #expect(player.playsInProgress == 0)
    }
}
