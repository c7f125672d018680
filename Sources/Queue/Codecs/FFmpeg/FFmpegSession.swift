import CFFmpeg

/// The FFmpeg objects one open file or decoder owns (I/O context, demuxer, decoder, packet, frame), released
/// together exactly once, whether the open finished or failed half-way.
final class FFmpegSession {
    let library: FFmpegLibrary
    var api: CFFmpegFunctions { library.api }
    var io: UnsafeMutablePointer<AVIOContext>?
    var format: UnsafeMutablePointer<AVFormatContext>?
    var decoder: UnsafeMutablePointer<AVCodecContext>?
    var packet: UnsafeMutablePointer<AVPacket>?
    var frame: UnsafeMutablePointer<AVFrame>?

    init(_ library: FFmpegLibrary) throws {
        self.library = library
        packet = library.api.av_packet_alloc()
        frame = library.api.av_frame_alloc()
        guard packet != nil, frame != nil else { throw AudioFileError(.io, "FFmpeg could not allocate a packet and a frame") }
    }

    deinit { release() }

    func release() {
        if decoder != nil { api.avcodec_free_context(&decoder) }
        if format != nil { api.avformat_close_input(&format) }   // custom I/O: the context is ours to free
        FFmpegIO.free(io, api)
        io = nil
        if packet != nil { api.av_packet_free(&packet) }
        if frame != nil { api.av_frame_free(&frame) }
    }

    /// Opens the decoder for `parameters` (AAC or Apple Lossless), checking it outputs a sample format
    /// `FFmpegSampleConversion` converts.
    func openDecoder(parameters: UnsafePointer<AVCodecParameters>, timeBase: AVRational, path: String?) throws -> UnsafeMutablePointer<AVCodecContext> {
        let id = parameters.pointee.codec_id
        let name = FFmpegCodecs.formatID(id)?.description ?? "codec \(id.rawValue)"
        return try openDecoder(id, name: name, setup: "this stream", path: path) { context in
            let copied = api.avcodec_parameters_to_context(context, parameters)
            guard copied >= 0 else { throw AudioFileError(.malformed, "the \(name) parameters are invalid: \(library.message(copied))", path: path) }
            context.pointee.pkt_timebase = timeBase
        }
    }

    /// Finds the decoder for `id`, lets `configure` set up its context (parameters, extradata), opens it, and
    /// checks it outputs a sample format `FFmpegSampleConversion` converts. The context is this session's to free.
    func openDecoder(_ id: AVCodecID, name: String, setup: String, path: String? = nil,
                     configure: (UnsafeMutablePointer<AVCodecContext>) throws -> Void) throws -> UnsafeMutablePointer<AVCodecContext> {
        guard let codec = api.avcodec_find_decoder(id), let context = api.avcodec_alloc_context3(codec) else {
            throw AudioFileError(.unsupported, "this FFmpeg has no \(name) decoder", path: path)
        }
        decoder = context
        try configure(context)
        let opened = api.avcodec_open2(context, codec, nil)
        guard opened >= 0 else { throw AudioFileError(.malformed, "the \(name) decoder refuses \(setup): \(library.message(opened))", path: path) }
        guard FFmpegSampleConversion.isSupported(context.pointee.sample_fmt.rawValue) else {
            throw AudioFileError(.unsupported, "the \(name) decoder outputs sample format \(context.pointee.sample_fmt.rawValue), not 16/32-bit or float", path: path)
        }
        return context
    }

    /// Calls `body` with each (name, value) of an AVDictionary.
    func forEachTag(_ dictionary: OpaquePointer?, _ body: (String, String) -> Void) {
        guard let dictionary else { return }
        var entry: UnsafeMutablePointer<AVDictionaryEntry>?
        while let next = api.av_dict_get(dictionary, "", entry, AV_DICT_IGNORE_SUFFIX) {
            if let key = next.pointee.key, let value = next.pointee.value {
                body(String(cString: key), String(cString: value))
            }
            entry = next
        }
    }

    /// What demuxing every packet of `stream` says, without decoding.
    struct Scan {
        /// Frames in all packets (their durations, the last one cut at the edit list's end where there is one).
        var frames: Int64 = 0
        /// Frames the decoder outputs for all packets (AAC decodes a whole 1024 even where the duration is shorter).
        var coded: Int64 = 0
        /// Whether some packet had no duration (CAF): then `frames` counts the last packet as `framesPerPacket`
        /// and the caller decodes it to learn its real length.
        var durationsMissing = false
        var lastTimestamp: Int64?
        var lastFrames: Int64 = 0
        /// Frames the decoder drops at the end: skip-samples side data's trailing discard, and packets flagged
        /// discard after the first it keeps (past an edit list's end). What it skips at the start is measured by
        /// decoding (`firstFrameTimestamp`): libavcodec carries a skip longer than a packet over to the next.
        var trailing: Int64 = 0
        /// Whether a packet the decoder keeps has been seen (discarded packets before it are priming).
        var kept = false
        var firstTimestamp: Int64?
        /// Where reading stopped early (a cut or corrupt packet), if it did.
        var damage: AudioFileError?
    }

    /// Reads every packet of `stream` once (FFmpeg then holds the index a seek needs, even for ADTS).
    func scan(stream: Int32, clock: FFmpegClock, framesPerPacket: Int64, input: LibraryInput) -> Scan {
        var result = Scan()
        guard let format, let packet else { return result }
        while true {
            let status = api.av_read_frame(format, packet)
            if status == FFmpegLibrary.endOfFile { break }
            if status < 0 {
                // A read past the end of the file is a cut file; anything else, damage.
                let cut = input.position >= input.length
                result.damage = input.failure ?? AudioFileError(cut ? .truncated : .malformed,
                                                                "FFmpeg stops reading after frame \(result.frames): \(cut ? "the file ends early" : library.message(status))",
                                                                offset: input.position)
                break
            }
            defer { api.av_packet_unref(packet) }
            guard packet.pointee.stream_index == stream else { continue }
            if packet.pointee.flags & AV_PKT_FLAG_CORRUPT != 0 {
                result.damage = AudioFileError(.truncated, "the packet after frame \(result.frames) is cut short (the file ends inside it)",
                                               offset: packet.pointee.pos >= 0 ? packet.pointee.pos : input.position)
                break
            }
            if result.firstTimestamp == nil {
                let pts = packet.pointee.pts != FFmpegLibrary.noTimestamp ? packet.pointee.pts : packet.pointee.dts
                if pts != FFmpegLibrary.noTimestamp { result.firstTimestamp = pts }
            }
            if packet.pointee.duration <= 0 { result.durationsMissing = true }
            let frames = packet.pointee.duration > 0 ? clock.frames(packet.pointee.duration) : framesPerPacket
            result.frames = FFmpegClock.add(result.frames, frames)
            result.coded = FFmpegClock.add(result.coded, max(frames, framesPerPacket))
            let pts = packet.pointee.pts != FFmpegLibrary.noTimestamp ? packet.pointee.pts : packet.pointee.dts
            if pts != FFmpegLibrary.noTimestamp { result.lastTimestamp = pts }
            result.lastFrames = frames
            if packet.pointee.flags & AV_PKT_FLAG_DISCARD != 0 {
                if result.kept { result.trailing = FFmpegClock.add(result.trailing, frames) }
                continue
            }
            result.kept = true
            var size = 0
            if let side = api.av_packet_get_side_data(packet, AV_PKT_DATA_SKIP_SAMPLES, &size), size >= 8 {
                // libavcodec's layout: le32 samples to skip at the start, le32 samples to discard at the end.
                let end = Int64(UInt32(littleEndian: UnsafeRawPointer(side).loadUnaligned(fromByteOffset: 4, as: UInt32.self)))
                result.trailing = FFmpegClock.add(result.trailing, min(frames, end))
            }
        }
        return result
    }

    /// The timestamp of the first frame with audio a decoder outputs after a seek to `timestamp`: where the
    /// audio starts once FFmpeg has skipped what it skips (an edit list's priming, or iTunSMPB's, which its
    /// mov demuxer applies to AAC at the start and to any codec after a seek), the skip already added to the
    /// timestamp by libavcodec. nil when nothing decodes within `packetLimit` packets. Decodes with a decoder of
    /// its own for `parameters`, freed before it returns: this session's decoder stays fresh (AAC's noise
    /// substitution draws from a generator a flush does not reset, so a decoder that had decoded here would
    /// not match a fresh one bit for bit). Leaves the demuxer to be rewound.
    func firstFrameTimestamp(from timestamp: Int64, stream: Int32, parameters: UnsafePointer<AVCodecParameters>,
                             timeBase: AVRational, packetLimit: Int = 64) -> Int64? {
        guard let format, let packet, let frame else { return nil }
        // The scratch decoder is opened as this session's own is (openDecoder makes it `decoder`), then freed,
        // and the session's put back.
        let kept = decoder
        defer {
            if decoder != kept { api.avcodec_free_context(&decoder) }   // openDecoder may fail before making one
            decoder = kept
        }
        guard let decoder = try? openDecoder(parameters: parameters, timeBase: timeBase, path: nil),
              api.avformat_seek_file(format, stream, Int64.min, timestamp, timestamp, 0) >= 0 else { return nil }
        var sent = 0
        while sent < packetLimit {
            while api.avcodec_receive_frame(decoder, frame) == 0 {
                if frame.pointee.nb_samples > 0 {
                    return frame.pointee.pts == FFmpegLibrary.noTimestamp ? nil : frame.pointee.pts
                }
            }
            guard api.av_read_frame(format, packet) >= 0 else { return nil }
            defer { api.av_packet_unref(packet) }
            guard packet.pointee.stream_index == stream else { continue }
            guard api.avcodec_send_packet(decoder, packet) >= 0 else { return nil }
            sent += 1
        }
        return nil
    }

    /// Frames the packet at `timestamp` of `stream` decodes to (the last packet of a CAF, whose real length
    /// only its Apple Lossless frame header says). Leaves the demuxer and decoder to be rewound.
    func decodedFrames(ofPacketAt timestamp: Int64, stream: Int32) -> Int64? {
        guard let format, let decoder, let packet, let frame else { return nil }
        guard api.avformat_seek_file(format, stream, timestamp, timestamp, timestamp, 0) >= 0 else { return nil }
        api.avcodec_flush_buffers(decoder)
        defer { api.avcodec_flush_buffers(decoder) }
        while api.av_read_frame(format, packet) >= 0 {
            defer { api.av_packet_unref(packet) }
            guard packet.pointee.stream_index == stream else { continue }
            guard packet.pointee.pts == timestamp, api.avcodec_send_packet(decoder, packet) >= 0 else { return nil }
            _ = api.avcodec_send_packet(decoder, nil)
            var frames: Int64 = 0
            while api.avcodec_receive_frame(decoder, frame) == 0 { frames = FFmpegClock.add(frames, Int64(frame.pointee.nb_samples)) }
            return frames
        }
        return nil
    }
}

/// Timestamps in a stream's time base as frame positions and back (rounded to nearest).
///
/// Timestamps and durations come from the file (a 64-bit mdhd or edit-list duration, a packet's pts), so a
/// hostile file can make any product overflow: the scaling is done in 128 bits and the result clamped to
/// ±`limit`, which is far beyond any real position (2^61 frames at 384 kHz is 190,000 years) and leaves room
/// for the sums and differences of a few such positions without overflow.
struct FFmpegClock {
    let numerator: Int64
    let denominator: Int64
    static let limit: Int64 = 1 << 61

    init(timeBase: AVRational, sampleRate: Int) {
        numerator = Int64(timeBase.num) * Int64(sampleRate)
        denominator = Int64(max(1, timeBase.den))
    }

    func frames(_ timestamp: Int64) -> Int64 { Self.scale(timestamp, numerator, denominator) }
    func timestamp(_ frames: Int64) -> Int64 { Self.scale(frames, denominator, max(1, numerator)) }

    /// `a * b / c` rounded to nearest (halves away from zero), clamped to ±`limit`; `c` > 0.
    static func scale(_ a: Int64, _ b: Int64, _ c: Int64) -> Int64 {
        let negative = (a < 0) != (b < 0)
        let divisor = UInt64(max(1, c))
        let product = a.magnitude.multipliedFullWidth(by: b.magnitude)   // at most 2^126: high < 2^63
        let (low, carry) = product.low.addingReportingOverflow(divisor / 2)
        let high = product.high + (carry ? 1 : 0)
        guard high < divisor else { return negative ? -limit : limit }   // the quotient needs more than 64 bits
        let quotient = divisor.dividingFullWidth((high: high, low: low)).quotient
        let clamped = Int64(min(quotient, UInt64(limit)))
        return negative ? -clamped : clamped
    }

    /// `a + b` clamped to ±`limit` (for running totals of clamped values).
    static func add(_ a: Int64, _ b: Int64) -> Int64 { max(-limit, min(limit, a + b)) }
}

/// FFmpeg's codec ids for the formats this part handles.
enum FFmpegCodecs {
    static func formatID(_ id: AVCodecID) -> AudioFormatID? {
        switch id {
        case AV_CODEC_ID_AAC: .mpeg4AAC
        case AV_CODEC_ID_ALAC: .appleLossless
        default: nil
        }
    }

    static func codecID(_ id: AudioFormatID) -> AVCodecID? {
        switch id {
        case .mpeg4AAC: AV_CODEC_ID_AAC
        case .appleLossless: AV_CODEC_ID_ALAC
        default: nil
        }
    }
}
