/// What feeds an output queue from a file, buffer by buffer: `AudioFileFeed` hands over the file's packets
/// as they are (the queue decodes PCM, mu-law, A-law and IMA4 on the render thread), `DecodingFileFeed`
/// decodes a library codec's file (FLAC, MP3, Opus, AAC, Apple Lossless) on the feeding thread and hands
/// over linear PCM. A player works with either through this.
public protocol OutputQueueFeed: AnyObject, Sendable {
    var file: AudioFile { get }
    /// The format of the buffers this feed fills: the one its queue must be made with.
    var format: StreamFormat { get }
    /// The next packet of `format` to be read (for linear PCM, a frame).
    var nextPacket: Int64 { get }
    /// Continues from `packet` of `format` (after a queue reset, to seek).
    func seek(toPacket packet: Int64)
    /// Fills `buffer` and enqueues it on `queue`; false (and nothing enqueued) at the end of the data.
    /// Damage part-way through the file throws, once the audio before it has been enqueued.
    @discardableResult
    func enqueueNext(_ buffer: AudioQueueBuffer, on queue: OutputQueue, maximumPackets: Int) throws -> Bool
}

extension OutputQueueFeed {
    @discardableResult
    public func enqueueNext(_ buffer: AudioQueueBuffer, on queue: OutputQueue) throws -> Bool {
        try enqueueNext(buffer, on: queue, maximumPackets: .max)
    }
}

extension AudioFileFeed: OutputQueueFeed {
    /// The file's own data format: the queue decodes its packets.
    public var format: StreamFormat { file.dataFormat }
}
