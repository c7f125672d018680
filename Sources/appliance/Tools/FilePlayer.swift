import HAL
import Queue
import Synchronization

/// Plays a file through an output queue on a running engine: the read-fill-enqueue loop of the README's
/// example, limited to a number of packets, looping back to the file's start (gaplessly: the next buffer
/// simply continues from packet 0) until that many have been enqueued. Finished when every enqueued buffer
/// has played out of the device (its `played` completion) after the queue was told to stop after them.
final class FilePlayer: @unchecked Sendable {
    let queue: OutputQueue
    private let feed: AudioFileFeed
    private let loops: Bool
    private let bytesPerPacket: Int
    private let done = Condition()
    // Guarded by `done`:
    private var remainingPackets: Int64
    /// Frames of each buffer enqueued whose `played` (or discarded) completion has not come yet, in order.
    private var inFlight: [Int] = []
    private var playedFrames: Int64 = 0
    private var ending = false
    private var failure: (any Error)?

    /// A queue for `file` on `host`, to play `packets` packets (looping the file when it has fewer).
    init(file: AudioFile, host: any RenderHost, packets: Int64, loops: Bool,
         callbackThread: AudioQueueCallbackThread) throws {
        feed = AudioFileFeed(file: file)
        self.loops = loops
        bytesPerPacket = file.dataFormat.bytesPerPacket
        remainingPackets = packets
        let box = Weak()
        queue = try OutputQueue(format: file.dataFormat, host: host, callbackThread: callbackThread) { queue, buffer, event in
            box.player?.completed(buffer, event, on: queue)
        }
        box.player = self
    }

    private final class Weak: @unchecked Sendable { weak var player: FilePlayer? }

    /// Allocates `count` buffers of about `seconds` of audio each, fills and enqueues them.
    func enqueueFirst(buffers count: Int, seconds: Double) throws {
        let format = feed.file.dataFormat
        let packets = max(1, Int(seconds * format.sampleRate) / max(1, format.framesPerPacket))
        for _ in 0..<count {
            let buffer = try queue.allocateBuffer(byteCapacity: packets * bytesPerPacket)
            guard try fill(buffer) else { break }
        }
        if done.locked({ inFlight.isEmpty }) { throw AudioToolError("'\(feed.file.path)' has no audio to play") }
    }

    /// Callback thread: a consumed buffer is refilled; a played or discarded one leaves the count in flight.
    private func completed(_ buffer: AudioQueueBuffer, _ event: AudioQueueBufferEvent, on queue: OutputQueue) {
        if event.discarded {
            done.broadcast { _ = inFlight.popLast() }       // the last enqueued go first
        } else if event.stage == .played {
            done.broadcast { playedFrames += Int64(inFlight.removeFirst()) }   // buffers play in order
        }
        guard event.stage == .consumed, !event.discarded else { return }
        do {
            if try fill(buffer) { return }
        } catch {
            done.broadcast { failure = failure ?? error }
        }
        let first = done.locked { () -> Bool in
            defer { ending = true }
            return !ending
        }
        if first { try? queue.stop(immediately: false) }     // what is enqueued plays out
    }

    /// Fills `buffer` with the next packets (from the file's start again when looping) and enqueues it;
    /// false when there is nothing left to play.
    private func fill(_ buffer: AudioQueueBuffer) throws -> Bool {
        let remaining = done.locked { remainingPackets }
        guard remaining > 0 else { return false }
        let limit = Int(min(remaining, Int64(Int.max)))
        var enqueued = try feed.enqueueNext(buffer, on: queue, maximumPackets: limit)
        if !enqueued && loops {
            feed.seek(toPacket: 0)
            enqueued = try feed.enqueueNext(buffer, on: queue, maximumPackets: limit)
        }
        guard enqueued else { return false }
        let packets = buffer.byteSize / bytesPerPacket
        done.locked {
            remainingPackets -= Int64(packets)
            inFlight.append(packets * feed.file.dataFormat.framesPerPacket)
        }
        return true
    }

    /// Frames of the file (at its rate) that have played out of the device.
    var framesPlayed: Int64 { done.locked { playedFrames } }

    /// Waits until every buffer has played out (true), an error stopped the feed (thrown), or `deadline`
    /// passed (false).
    func waitUntilPlayed(deadline: Timestamp) throws -> Bool {
        let finished = done.wait(until: { (ending && inFlight.isEmpty) || failure != nil }, deadline: deadline)
        if let failure = done.locked({ failure }) { throw failure }
        return finished
    }
}
