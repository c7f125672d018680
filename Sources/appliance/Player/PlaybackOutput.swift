import HAL
import Queue

/// One output queue and what is in it, for `PlaybackService` (control loop thread only): the files feeding
/// it in order (the playing one, then any queued gaplessly behind it), and each enqueued buffer's stretch
/// of which file, so the position and the track boundary follow what has actually been played out.
final class PlaybackOutput {
    /// A file feeding the queue.
    final class Item {
        let track: Int
        let file: String
        let audio: AudioFile
        let feed: any OutputQueueFeed
        /// The feed when it decodes (a library codec), which is where a ReplayGain is applied; nil for the
        /// formats the queue decodes itself.
        let decoding: DecodingFileFeed?
        /// The second it was asked to start from (a resume position), to recognise it at a boundary.
        let startSeconds: Double

        /// `bufferFrames`: the most frames one buffer of a decoding feed holds.
        init(track: Int, file: String, audio: AudioFile, startSeconds: Double, bufferFrames: Int) {
            self.track = track
            self.file = file
            self.audio = audio
            self.startSeconds = startSeconds
            if audio.dataFormat.formatID.isLibraryCodec {
                let decoding = DecodingFileFeed(file: audio, maximumFrames: bufferFrames)
                self.decoding = decoding
                feed = decoding
            } else {
                decoding = nil
                feed = AudioFileFeed(file: audio)
            }
            feed.seek(toPacket: Self.packet(at: startSeconds, in: feed.format))
        }

        /// The format the queue plays this file in (the feed's).
        var format: StreamFormat { feed.format }

        static func packet(at seconds: Double, in format: StreamFormat) -> Int64 {
            // Clamped: a position of 1e300 s (or NaN) from a settings file or a seek is the end, not a trap.
            let frames = (seconds * format.sampleRate).rounded(.down)
            let whole: Int64 = frames >= 0x1p63 ? .max : frames >= 0 ? Int64(frames) : 0
            return whole / Int64(max(1, format.framesPerPacket))
        }
    }

    /// An enqueued buffer: whose frames, from which frame, how many; `generation` changes with every seek,
    /// so stretches from before it do not move the position.
    struct Stretch {
        let buffer: ObjectIdentifier
        let item: Item
        let firstFrame: Int64
        let frames: Int64
        let generation: Int
    }

    let queue: OutputQueue
    let format: StreamFormat
    let bufferBytes: Int
    private(set) var allocated: [AudioQueueBuffer] = []
    var free: [AudioQueueBuffer] = []
    /// Buffers enqueued and not yet handed back.
    var pending = 0
    /// Enqueued and not yet played, in play order.
    var stretches: [Stretch] = []
    /// The file heard now (its frames are the position).
    var audible: Item
    var audibleFrame: Int64
    /// The device-timeline frame at which `audibleFrame` was reached (the last played buffer's end), while
    /// the queue plays on from there; nil after a seek or a pause until the next buffer is played.
    var audibleDeviceFrame: Int64?
    /// The file being read into buffers (nil once the data has ended).
    var feeding: Item?
    var generation = 0
    /// The queue has been told the data ends (`flush`), until a seek feeds it again.
    var flushed = false
    /// The file queued gaplessly whose first buffer was just heard, while the state is told the track ended.
    var arrived: Item?

    init(queue: OutputQueue, item: Item, bufferBytes: Int) {
        self.queue = queue
        format = queue.format
        self.bufferBytes = bufferBytes
        audible = item
        feeding = item
        audibleFrame = item.feed.nextPacket * Int64(format.framesPerPacket)
    }

    /// A buffer to fill: a free one, or a new one while fewer than `limit` exist.
    func takeBuffer(limit: Int) throws -> AudioQueueBuffer? {
        if let buffer = free.popLast() { return buffer }
        guard allocated.count < limit else { return nil }
        let buffer = try queue.allocateBuffer(byteCapacity: bufferBytes)
        allocated.append(buffer)
        return buffer
    }

    func buffer(_ id: ObjectIdentifier) -> AudioQueueBuffer? { allocated.first { ObjectIdentifier($0) == id } }

    /// Pausing: the position stays where the device got to, not at the end of the last whole buffer played.
    func freeze(timeline: DeviceTimeline, engineRate: Int) {
        audibleFrame = Int64((position(timeline: timeline, engineRate: engineRate, playing: true) * format.sampleRate).rounded())
        audibleDeviceFrame = nil
    }

    /// Seconds into the audible file: the end of the last buffer played, plus what the device has played
    /// since (when `playing`), at most the next buffer of the same file.
    func position(timeline: DeviceTimeline, engineRate: Int, playing: Bool) -> Double {
        var frame = audibleFrame
        if playing, let since = audibleDeviceFrame, let next = stretches.first, next.item === audible,
           next.generation == generation {
            let deviceFrames = max(0, timeline.playedFrames - 1 - since)
            let fileFrames = Int64((Double(deviceFrames) * format.sampleRate / Double(max(1, engineRate))).rounded(.down))
            frame += min(fileFrames, next.frames)
        }
        return Double(frame) / format.sampleRate
    }
}
