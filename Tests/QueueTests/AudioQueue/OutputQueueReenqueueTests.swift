import Codec8_24
import HAL
import Testing
@testable import Queue

@Suite(.serialized)
/// A buffer whose last packet is decoded is reported consumed while its frames still wait in the staging
/// area; enqueued again at once (every allocated buffer in use), it is pending twice. Play order must hold:
/// A, B, then A's new contents (the order the buffers were enqueued: AudioQueueEnqueueBuffer plays in order).
struct OutputQueueReenqueueTests {
    @Test func aBufferEnqueuedAgainWhileItsFramesAreStillStagedPlaysInOrder() throws {
        let host = TestRenderHost(maximumFrames: 64, latency: 0)
        let log = QueueLog()
        let queue = try QueueFixture.queue(.linearPCM(sampleRate: 48000, channels: 1, bits: 16), host: host, log: log, buffers: 2, fadeMilliseconds: 0.1)
        defer { queue.dispose() }
        let a = try queue.allocateBuffer(byteCapacity: 800); QueueFixture.fill(a, int16: (0..<300).map { Int16(1000 + $0) })
        let b = try QueueFixture.buffer(queue, int16: (0..<400).map { Int16(2000 + $0) })
        try queue.enqueue(a); try queue.enqueue(b)
        try queue.start()
        var out = host.render(periods: 1)
        queue.deliverCallbacks()
        #expect(log.events(of: 0).map(\.stage) == [.consumed])
        QueueFixture.fill(a, int16: (0..<400).map { Int16(3000 + $0) })
        try queue.enqueue(a)
        out += host.render(periods: 25)
        let values = out.map { Int(($0.raw + (1 << 8)) >> 9) }
        let expected = (0..<300).map { 1000 + $0 } + (0..<400).map { 2000 + $0 } + (0..<400).map { 3000 + $0 }
        let got = Array(values.prefix(1080)), want = Array(expected.prefix(1080))
        #expect(got == want)
    }
}
