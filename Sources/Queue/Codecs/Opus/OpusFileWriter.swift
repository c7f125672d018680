import COpus
import Codec8_24

/// Writes Ogg Opus with libopusenc through `LibraryOutput`: any input sample rate (libopusenc resamples to
/// 48 kHz and records the input rate in OpusHead), the bit rate from `options.encoder.bitRate`
/// (OPUS_SET_BITRATE; libopus's default otherwise), tags as Vorbis comments in OpusTags (RFC 7845 5.2).
///
/// Crash safety: the headers are written at once (ope_encoder_flush_header) and pages leave the encoder at
/// most `pageDelay` frames behind (OPE_SET_MUXING_DELAY, OPE_SET_DECISION_DELAY), each written as it is made,
/// so a file cut by a power loss reads up to its last complete page; `commit` syncs them when asked.
final class OpusFileWriter: CompressedFileWriter {
    /// 100 ms at 48 kHz: how far behind the input the written pages may be (libopusenc's default is 1 s).
    static let pageDelay: Int32 = 4800
    private let output: LibraryOutput
    private let options: AudioFileWriteOptions
    private let channels: Int
    private var encoder: OpaquePointer?
    /// For each channel the encoder takes (mapping family 1: Vorbis order, RFC 7845 5.1.1.2), the input
    /// channel with that speaker label; in order when the input's layout does not name them all.
    private let order: [Int]
    private let pcm: UnsafeMutablePointer<Float>
    private let pcmFrames = 4096
    private(set) var framesWritten: Int64 = 0

    init(_ output: LibraryOutput, format: StreamFormat, options: AudioFileWriteOptions) throws {
        self.output = output
        self.options = options
        channels = format.channelsPerFrame
        let rate = Int32(format.sampleRate)
        guard Double(rate) == format.sampleRate, rate >= 100, rate <= 768_000 else {
            throw AudioFileError(.incompatibleFormat, "Opus takes whole sample rates from 100 Hz to 768 kHz, not \(format.sampleRate) Hz", path: output.path)
        }
        guard (1...255).contains(channels) else {
            throw AudioFileError(.incompatibleFormat, "Opus takes 1 ... 255 channels, not \(channels)", path: output.path)
        }
        // RFC 7845 5.1.1: mapping family 0 for mono and stereo, 1 (Vorbis order) up to 8, 255 beyond.
        let family: Int32 = channels <= 2 ? 0 : channels <= 8 ? 1 : 255
        order = Self.order(from: format.channelLayout, channels: channels, family: Int(family))
        guard let comments = ope_comments_create() else { throw AudioFileError(.io, "libopusenc: out of memory", path: output.path) }
        defer { ope_comments_destroy(comments) }
        for (name, value) in VorbisComment.fields(options.metadata, gains: .r128, encoder: "appliance with libopusenc") { _ = ope_comments_add(comments, name, value) }
        var callbacks = OpusEncCallbacks(write: { user, bytes, count in
            let output = Unmanaged<LibraryOutput>.fromOpaque(user!).takeUnretainedValue()
            return output.write(bytes!, count: Int(count)) ? 0 : 1
        }, close: { _ in 0 })
        var error: Int32 = 0
        guard let encoder = ope_encoder_create_callbacks(&callbacks, Unmanaged.passUnretained(output).toOpaque(), comments,
                                                         rate, Int32(channels), family, &error) else {
            throw AudioFileError(.incompatibleFormat, "libopusenc refuses \(channels) channels at \(rate) Hz: \(String(cString: ope_strerror(error)))",
                                 path: output.path)
        }
        self.encoder = encoder
        pcm = .allocate(capacity: pcmFrames * channels)
        if let bitRate = options.encoder.bitRate {
            // RFC 6716 2.1.1: 6 ... 510 kb/s per stream (libopus clamps other values silently).
            let streams = (channels + 1) / 2
            let rates = EncoderSettings.opusBitRates
            guard (rates.lowerBound...(rates.upperBound * streams)).contains(bitRate),
                  copus_encoder_set(encoder, OPUS_SET_BITRATE_REQUEST, Int32(bitRate)) == OPE_OK else {
                abandon()
                throw AudioFileError(.incompatibleFormat, "Opus takes \(rates.lowerBound) ... \(rates.upperBound * streams) b/s for \(channels) channels, not \(bitRate)", path: output.path)
            }
        }
        _ = copus_encoder_set(encoder, OPE_SET_MUXING_DELAY_REQUEST, Self.pageDelay)
        _ = copus_encoder_set(encoder, OPE_SET_DECISION_DELAY_REQUEST, Self.pageDelay)
        let status = ope_encoder_flush_header(encoder)
        guard status == OPE_OK else {
            abandon()
            throw failure(status, doing: "cannot write the Opus headers")
        }
    }

    deinit {
        if let encoder { ope_encoder_destroy(encoder) }
        pcm.deallocate()
    }

    /// Input channel per encoder channel: the family's speaker order found in `layout`, or the identity.
    static func order(from layout: ChannelLayout?, channels: Int, family: Int) -> [Int] {
        let identity = Array(0..<channels)
        guard let layout, let wanted = OpusHead.layout(channels: channels, family: family) else { return identity }
        let found = wanted.labels.compactMap { layout.labels.firstIndex(of: $0) }
        return found.count == channels && Set(found).count == channels ? found : identity
    }

    func write(_ frames: UnsafeBufferPointer<Fixed824>) throws {
        guard let encoder else { throw AudioFileError(.misuse, "the Opus file is finished", path: output.path) }
        var done = 0
        let total = frames.count / channels
        while done < total {
            let n = min(pcmFrames, total - done)
            let base = done * channels
            for frame in 0..<n {
                for (c, source) in order.enumerated() {
                    pcm[frame * channels + c] = frames[base + frame * channels + source].floatValue
                }
            }
            let status = ope_encoder_write_float(encoder, pcm, Int32(n))
            guard status == OPE_OK else { throw failure(status, doing: "cannot encode frames \(framesWritten) ...") }
            done += n
            framesWritten += Int64(n)
        }
    }

    func commit() throws { try output.commit(synchronizing: options.synchronizeOnCommit) }

    func finish() throws {
        guard let encoder else { throw AudioFileError(.misuse, "the Opus file is finished", path: output.path) }
        let status = ope_encoder_drain(encoder)
        ope_encoder_destroy(encoder)
        self.encoder = nil
        guard status == OPE_OK else { throw failure(status, doing: "cannot finish the Opus stream") }
        if let failure = output.failure { throw failure }
    }

    func abandon() {
        if let encoder { ope_encoder_destroy(encoder) }
        encoder = nil
    }

    private func failure(_ status: Int32, doing what: String) -> AudioFileError {
        output.failure ?? AudioFileError(.io, "\(what): libopusenc: \(String(cString: ope_strerror(status)))", path: output.path)
    }
}
