import Codec8_24
import HAL
import Testing
@testable import Queue

@Suite(.serialized)
/// A client whose three buffers together hold less than a period and a fade (3 x 256 frames on a 1024-frame
/// period) cannot keep the queue fed, but must not be starved for ever: the queue plays what it is given
/// each time the client has given all it can.
struct OutputQueueSmallBufferTests {
    @Test func buffersSmallerThanAPeriodKeepSounding() throws {
        let host = TestRenderHost(maximumFrames: 1024, latency: 0)
        let log = QueueLog()
        let queue = try QueueFixture.queue(.linearPCM(sampleRate: 48000, channels: 1, bits: 16), host: host, log: log, buffers: 3)
        defer { queue.dispose() }
        var buffers: [AudioQueueBuffer] = []
        for _ in 0..<3 { let b = try QueueFixture.buffer(queue, int16: [Int16](repeating: 8000, count: 256)); buffers.append(b); try queue.enqueue(b) }
        try queue.start()
        var loudPeriods: [Bool] = []
        for _ in 0..<20 {
            let out = host.renderPeriod()
            loudPeriods.append(out.contains { $0.raw != 0 })
            queue.deliverCallbacks()
            // refill every buffer that came back (consumed), as a streaming client would
            for (i, b) in buffers.enumerated() where log.events(of: i).filter({ $0.stage == .consumed }).count > 0 {
                QueueFixture.fill(b, int16: [Int16](repeating: 8000, count: 256))
                try? queue.enqueue(b)
            }
        }
        // Before the fix only the first period sounded, then never again.
        #expect(loudPeriods.suffix(10).filter { $0 }.count >= 4, "sounds at least every other period: \(loudPeriods)")
    }
}
