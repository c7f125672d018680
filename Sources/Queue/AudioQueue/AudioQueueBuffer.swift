/// A buffer owned by an audio queue (Core Audio's `AudioQueueBuffer`): the caller fills `audioData` with
/// `byteSize` bytes of the queue's format (output) or reads what the queue recorded (input). Only the queue
/// allocates buffers (core-audio-iphone-2008.md 1.5: "you cannot hand it arbitrary memory"), and a queue
/// refuses a buffer that is not its own.
///
/// A buffer allocated with packet descriptions keeps them in the same allocation, after the audio bytes
/// (behaviour 26), so no second copy is made for variable-packet data.
///
/// Between enqueue and the queue giving it back (the output callback, stage `consumed`), the buffer belongs
/// to the queue: its bytes are read by the render thread, and the caller must not write them.
public final class AudioQueueBuffer: @unchecked Sendable {
    /// Bytes `audioData` can hold.
    public let byteCapacity: Int
    /// The audio bytes: `byteCapacity` of them, aligned for any sample type.
    public let audioData: UnsafeMutableRawPointer
    /// Bytes of valid audio in `audioData` (set by the caller before enqueueing an output buffer; by the
    /// queue in a recorded buffer).
    public var byteSize: Int = 0
    /// Room for packet descriptions (0 when allocated without).
    public let packetDescriptionCapacity: Int
    /// The packet descriptions, in the same allocation as the audio (nil when allocated without).
    public let packetDescriptions: UnsafeMutablePointer<AudioStreamPacketDescription>?
    /// Valid entries in `packetDescriptions`.
    public var packetDescriptionCount: Int = 0
    /// Anything the caller wants to keep with the buffer (a file position, a tag).
    public var userData: (any Sendable)?

    /// The queue that allocated it and its slot there: how a queue recognises its own buffers.
    let queueID: UInt64
    let index: Int

    init(queueID: UInt64, index: Int, byteCapacity: Int, audioData: UnsafeMutableRawPointer,
         packetDescriptions: UnsafeMutablePointer<AudioStreamPacketDescription>?, packetDescriptionCapacity: Int) {
        self.queueID = queueID
        self.index = index
        self.byteCapacity = byteCapacity
        self.audioData = audioData
        self.packetDescriptions = packetDescriptions
        self.packetDescriptionCapacity = packetDescriptionCapacity
    }

    /// The valid audio bytes.
    public var bytes: UnsafeMutableRawBufferPointer { UnsafeMutableRawBufferPointer(start: audioData, count: byteSize) }
}
