import Synchronization

/// The memory of a queue's buffers: one allocation per buffer (audio bytes, then its packet descriptions),
/// made on the control thread and kept until the pool goes. The queue and its render side both hold the
/// pool, so a buffer's memory outlives any render period that might still read it.
final class AudioQueueBufferPool: @unchecked Sendable {
    /// Most buffers one queue may allocate (Core Audio has no fixed limit; a few are usual, 3 in Apple's
    /// examples). The render side's tables are sized by it.
    let capacity: Int
    let queueID: UInt64
    private var allocations: [UnsafeMutableRawPointer] = []
    private var buffers: [AudioQueueBuffer] = []

    private static let nextID = Atomic<UInt64>(1)

    init(capacity: Int) {
        self.capacity = capacity
        queueID = Self.nextID.add(1, ordering: .relaxed).oldValue
    }

    deinit { for memory in allocations { memory.deallocate() } }

    var count: Int { buffers.count }

    /// Control thread, under the queue's lock: a new buffer.
    func allocate(byteCapacity: Int, packetDescriptionCapacity: Int) throws(AudioQueueError) -> AudioQueueBuffer {
        guard byteCapacity > 0, packetDescriptionCapacity >= 0 else {
            throw AudioQueueError(.invalidBuffer,
                                  "a buffer of \(byteCapacity) bytes with \(packetDescriptionCapacity) packet descriptions",
                                  hint: "ask for a positive byte capacity and zero or more packet descriptions")
        }
        guard buffers.count < capacity else {
            throw AudioQueueError(.limitReached, "the queue has all \(capacity) of its buffers allocated",
                                  hint: "reuse buffers as they come back in the callback (three are usually enough)")
        }
        let descriptionStride = MemoryLayout<AudioStreamPacketDescription>.stride
        let descriptionAlignment = MemoryLayout<AudioStreamPacketDescription>.alignment
        let descriptionOffset = (byteCapacity + descriptionAlignment - 1) / descriptionAlignment * descriptionAlignment
        let total = descriptionOffset + packetDescriptionCapacity * descriptionStride
        let memory = UnsafeMutableRawPointer.allocate(byteCount: total, alignment: max(16, descriptionAlignment))
        memory.initializeMemory(as: UInt8.self, repeating: 0, count: byteCapacity)
        var descriptions: UnsafeMutablePointer<AudioStreamPacketDescription>?
        if packetDescriptionCapacity > 0 {
            descriptions = (memory + descriptionOffset).initializeMemory(
                as: AudioStreamPacketDescription.self, repeating: AudioStreamPacketDescription(),
                count: packetDescriptionCapacity)
        }
        allocations.append(memory)
        let buffer = AudioQueueBuffer(queueID: queueID, index: buffers.count, byteCapacity: byteCapacity,
                                      audioData: memory, packetDescriptions: descriptions,
                                      packetDescriptionCapacity: packetDescriptionCapacity)
        buffers.append(buffer)
        return buffer
    }

    /// The buffer in slot `index`.
    subscript(index: Int) -> AudioQueueBuffer { buffers[index] }

    /// Whether `buffer` is one of this pool's.
    func owns(_ buffer: AudioQueueBuffer) -> Bool {
        buffer.queueID == queueID && buffer.index < buffers.count && buffers[buffer.index] === buffer
    }
}
