import HAL

/// Feeds a file's packets to an output queue, buffer by buffer, in order: the read-fill-enqueue loop every
/// AudioQueue player writes (Apple's examples do it in the output callback). Safe to call from the callback
/// thread and a control thread alike.
public final class AudioFileFeed: @unchecked Sendable {
    public let file: AudioFile
    private let lock = Condition()
    private var next: Int64 = 0

    public init(file: AudioFile) { self.file = file }

    /// The next packet to be read.
    public var nextPacket: Int64 { lock.locked { next } }

    /// Continues from `packet` (after a queue reset, to seek).
    public func seek(toPacket packet: Int64) {
        lock.locked { next = max(0, min(packet, file.packetCount)) }
    }

    /// Fills `buffer` with as many whole packets as it holds (at most `maximumPackets`) and enqueues it on
    /// `queue`; false (and nothing enqueued) at the end of the file.
    @discardableResult
    public func enqueueNext(_ buffer: AudioQueueBuffer, on queue: OutputQueue, maximumPackets: Int = .max) throws -> Bool {
        try lock.locked { () throws -> Bool in
            let packetBytes = file.dataFormat.bytesPerPacket
            let room = UnsafeMutableRawBufferPointer(start: buffer.audioData, count: buffer.byteCapacity)
            let count = min(buffer.byteCapacity / packetBytes, max(0, maximumPackets))
            guard count > 0 else { return false }
            let packets = try file.readPackets(start: next, count: count, into: room)
            guard packets > 0 else { return false }
            buffer.byteSize = packets * packetBytes
            buffer.packetDescriptionCount = 0
            try queue.enqueue(buffer)
            next += Int64(packets)
            return true
        }
    }
}
