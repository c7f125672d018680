import Codec8_24
import HAL

/// Feeds a file an output queue cannot decode on the render thread (a library codec: FLAC, MP3, Opus, AAC,
/// Apple Lossless) as linear PCM: `AudioFile.readFrames` decodes to 8.24 on the feeding thread (the caller's:
/// a control loop or the queue's callback thread), into a scratch buffer allocated once, and the frames go
/// into the queue's buffers as signed 32-bit samples, exact for every 8.24 value within full scale, so the
/// render thread only copies them.
///
/// A gain (ReplayGain) is applied here, in 8.24, ramped: here rather than at the queue's volume because it
/// belongs to this file's frames, so at a gapless join the next file's gain starts on its first frame, not
/// whenever the render thread takes a volume command.
public final class DecodingFileFeed: OutputQueueFeed, @unchecked Sendable {
    public let file: AudioFile
    /// Signed 32-bit linear PCM at the file's rate, with its channels.
    public let format: StreamFormat
    private let lock = Condition()
    private let scratch: UnsafeMutableBufferPointer<Fixed824>
    private let channels: Int
    // Guarded by `lock`:
    private var next: Int64 = 0
    private var ramp = GainRamp(gain: .one)
    /// Damage met after some frames of a buffer were decoded: those are enqueued, this is thrown next time
    /// (once: the call after goes on past it, as the file's reader does).
    private var damage: (any Error)?
    /// Where a file cut short ends (set when `.truncated` is met): the feed's end after that error, rather
    /// than the frame count the file promises, so the error is thrown once and the feed then ends.
    private var cutAt: Int64?

    /// A feed for `file` filling buffers of up to `maximumFrames` frames.
    public init(file: AudioFile, maximumFrames: Int) {
        self.file = file
        channels = max(1, file.channelCount)
        format = .linearPCM(sampleRate: file.sampleRate, channels: channels, bits: 32)
        let samples = max(1, maximumFrames) * channels
        scratch = .allocate(capacity: samples)
        scratch.initialize(repeating: .zero)
    }

    deinit { scratch.deallocate() }

    /// The next frame to be decoded.
    public var nextPacket: Int64 { lock.locked { next } }

    /// Continues from frame `packet` (clamped to the file); damage met before is forgotten (it is met again
    /// if the file is read that far).
    public func seek(toPacket packet: Int64) {
        lock.locked {
            next = max(0, min(packet, file.frameCount))
            damage = nil
            cutAt = nil
        }
    }

    /// The gain being applied now (during a ramp, where it has got to).
    public var gain: Fixed824 { lock.locked { ramp.gain } }
    /// The gain the feed ramps to (or holds).
    public var targetGain: Fixed824 { lock.locked { ramp.target } }

    /// Applies `gain` to the frames decoded from now on, reaching it over `rampFrames` frames (0: at once).
    public func setGain(_ gain: Fixed824, rampFrames: Int = 0) {
        lock.locked {
            if rampFrames > 0 { ramp.ramp(to: gain, frames: rampFrames) } else { ramp.set(gain) }
        }
    }

    /// Decodes up to a buffer's worth of frames (at most `maximumPackets`), applies the gain and enqueues
    /// them; false at the end. A read error after some frames enqueues those and throws at the next call
    /// (once); a file cut short (`.truncated`) then ends there.
    @discardableResult
    public func enqueueNext(_ buffer: AudioQueueBuffer, on queue: OutputQueue, maximumPackets: Int) throws -> Bool {
        try lock.locked { () throws -> Bool in
            if let damage {
                self.damage = nil
                throw damage
            }
            let bytesPerFrame = format.bytesPerPacket
            let wanted = min(buffer.byteCapacity / bytesPerFrame, scratch.count / channels, max(0, maximumPackets))
            guard wanted > 0, next < min(cutAt ?? .max, file.frameCount) else { return false }
            if file.framePosition != next { try file.seek(toFrame: next) }
            var got = 0
            do {
                while got < wanted {
                    let room = UnsafeMutableBufferPointer(rebasing: scratch[(got * channels)..<(wanted * channels)])
                    let n = try file.readFrames(into: room)
                    if n == 0 { break }
                    got += n
                }
            } catch {
                if (error as? AudioFileError)?.kind == .truncated { cutAt = next + Int64(got) }
                guard got > 0 else { throw error }
                damage = error
            }
            guard got > 0 else { return false }
            let samples = UnsafeMutableBufferPointer(rebasing: scratch[0..<(got * channels)])
            ramp.apply(to: samples, channels: channels)
            let out = UnsafeMutableRawPointer(buffer.audioData)
            for i in 0..<samples.count {
                out.storeBytes(of: samples[i].int32.littleEndian, toByteOffset: 4 * i, as: Int32.self)
            }
            buffer.byteSize = got * bytesPerFrame
            buffer.packetDescriptionCount = 0
            try queue.enqueue(buffer)
            next += Int64(got)
            return true
        }
    }
}
