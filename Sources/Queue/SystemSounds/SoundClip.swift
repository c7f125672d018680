import Codec8_24

/// A system sound in memory: interleaved 8.24 frames (mono or stereo) at the engine's rate, loaded once.
///
/// Immutable after init, so the render thread may read its samples while the control side holds it; the
/// player keeps a clip alive until every play of it has ended, so disposing of a sound mid-play is safe.
public final class SoundClip: @unchecked Sendable {
    /// The reference's limit: a system sound is shorter than 30 seconds.
    public static let maximumSeconds = 30

    public let channels: Int
    public let frames: Int
    public let sampleRate: Int
    let storage: UnsafeMutablePointer<Fixed824>

    /// A clip of `samples` (interleaved, whole frames of `channels`) at `sampleRate`, checked against the
    /// 30 s limit and the channel count.
    public convenience init(samples: [Fixed824], channels: Int, sampleRate: Int) throws(SystemSoundError) {
        guard (1...2).contains(channels) else { throw .unsupportedChannels(channels) }
        guard samples.count % channels == 0 else { throw .partialFrame(samples: samples.count, channels: channels) }
        try Self.check(frames: Int64(samples.count / channels), sampleRate: sampleRate)
        self.init(checked: samples, channels: channels, sampleRate: sampleRate)
    }

    /// A clip whose limits were checked already (a converted clip may round up to one frame more than the
    /// original's length, which was under the limit).
    init(checked samples: [Fixed824], channels: Int, sampleRate: Int) {
        self.channels = channels
        frames = samples.count / channels
        self.sampleRate = sampleRate
        storage = .allocate(capacity: samples.count)
        _ = UnsafeMutableBufferPointer(start: storage, count: samples.count).initialize(from: samples)
    }

    deinit { storage.deallocate() }

    /// The samples, `frames * channels` of them.
    public var samples: UnsafeBufferPointer<Fixed824> {
        UnsafeBufferPointer(start: storage, count: frames * channels)
    }

    /// Refuses an empty clip or one of 30 s or more (`frames >= 30 * sampleRate`).
    static func check(frames: Int64, sampleRate: Int) throws(SystemSoundError) {
        guard frames > 0 else { throw .empty }
        guard frames < Int64(maximumSeconds) * Int64(sampleRate) else {
            throw .tooLong(frames: frames, sampleRate: sampleRate)
        }
    }
}

extension SoundClip {
    /// A built-in sound synthesized at `sampleRate` (mono).
    public convenience init(_ sound: BuiltInSound, sampleRate: Int) {
        // The designs are all far below 30 s.
        self.init(checked: ToneSynthesizer.render(sound.design, sampleRate: sampleRate), channels: 1,
                  sampleRate: sampleRate)
    }

    /// This clip at `rate`: itself when the rates match, else converted with `SampleRateConverter`, its
    /// group delay dropped so the sound starts on time: ceil(frames·L/M) frames for the ratio L/M (the
    /// converter's contract length, `latencyFrames` of it trimmed off the front).
    public func converted(to rate: Int) throws(SystemSoundError) -> SoundClip {
        if rate == sampleRate { return self }
        guard let from = StandardSampleRate(hertz: sampleRate), let to = StandardSampleRate(hertz: rate) else {
            throw .unsupportedRate(clip: sampleRate, engine: rate)
        }
        let converter = SampleRateConverter(from: from, to: to, channels: channels)
        let produced = converter.latencyFrames + converter.maximumOutputFrames(forInputFrames: frames)
        var output = [Fixed824](repeating: .zero, count: produced * channels)
        var written = output.withUnsafeMutableBufferPointer { buffer in
            converter.process(input: samples, output: buffer).produced
        }
        while true {
            let tail = output.withUnsafeMutableBufferPointer { buffer in
                converter.drain(output: UnsafeMutableBufferPointer(rebasing: buffer[(written * channels)...]))
            }
            if tail == 0 { break }
            written += tail
        }
        let skip = min(converter.latencyFrames, written)
        let trimmed = Array(output[(skip * channels)..<(written * channels)])
        return SoundClip(checked: trimmed, channels: channels, sampleRate: rate)
    }

    /// The whole of `file`, decoded to 8.24 and converted to `rate`. The 30 s limit is checked from the
    /// file's header, before anything is decoded.
    public static func decoding(_ file: AudioFile, to rate: Int) throws(SystemSoundError) -> SoundClip {
        let fileRate = Int(file.sampleRate.rounded())
        try Self.check(frames: file.frameCount, sampleRate: fileRate)
        let channels = file.channelCount
        guard (1...2).contains(channels) else { throw .unsupportedChannels(channels) }
        var samples = [Fixed824](repeating: .zero, count: Int(file.frameCount) * channels)
        do {
            try file.seek(toFrame: 0)
            var read = 0
            while read < Int(file.frameCount) {
                let got = try samples.withUnsafeMutableBufferPointer { buffer in
                    try file.readFrames(into: UnsafeMutableBufferPointer(rebasing: buffer[(read * channels)...]))
                }
                if got == 0 { break }
                read += got
            }
            samples.removeLast((Int(file.frameCount) - read) * channels)
        } catch let error as AudioFileError {
            throw .file(error)
        } catch {
            throw .file(AudioFileError(.io, "\(error)", path: file.path))
        }
        return try SoundClip(samples: samples, channels: channels, sampleRate: fileRate).converted(to: rate)
    }
}
