import CFFmpeg
import Codec8_24

/// Apple Lossless (16 or 24 bits) into CAF or M4A through FFmpeg's alac encoder and its caf / ipod muxers,
/// written through `LibraryOutput` (a custom AVIOContext: every write and seek is HAL's).
///
/// What survives a power cut:
/// - M4A is written fragmented (FFmpeg's empty_moov + frag_custom): an empty index up front, then one
///   fragment (moof + mdat) per `commit()`. A file cut short plays up to its last complete fragment, i.e. the
///   last commit (plus at most the 4096-frame packet the encoder was filling is lost).
/// - CAF: FFmpeg's caf muxer leaves the data chunk's size open (-1) and writes the packet table ('pakt'),
///   which Apple Lossless's variable-size packets need, only at `finish()`. A cut CAF still holds the audio
///   bytes, but no reader (FFmpeg included) can find its packets.
/// So the crash-safe choice for a recorder is M4A (`crashSafeContainer`).
final class FFmpegFileWriter: CompressedFileWriter {
    /// The container a recorder should choose for Apple Lossless.
    static let crashSafeContainer: AudioFileType = .m4a

    private(set) var framesWritten: Int64 = 0
    private let output: LibraryOutput
    private let library: FFmpegLibrary
    private var api: CFFmpegFunctions { library.api }
    private let type: AudioFileType
    private let options: AudioFileWriteOptions
    private let channels: Int
    private let bits: Int
    private var io: UnsafeMutablePointer<AVIOContext>?
    private var muxer: UnsafeMutablePointer<AVFormatContext>?
    private var encoder: UnsafeMutablePointer<AVCodecContext>?
    private var frame: UnsafeMutablePointer<AVFrame>?
    private var packet: UnsafeMutablePointer<AVPacket>?
    private var stream: UnsafeMutablePointer<AVStream>?
    /// Frames per packet (the encoder's frame size) and how many of the pending frame are filled.
    private var frameSize = 4096
    private var filled = 0
    private var encodedFrames: Int64 = 0

    init(_ output: LibraryOutput, type: AudioFileType, format: StreamFormat, options: AudioFileWriteOptions) throws {
        self.output = output
        self.type = type
        self.options = options
        library = try FFmpegLibrary.loaded(for: "Apple Lossless encoding")
        channels = format.channelsPerFrame
        bits = format.bitsPerChannel == 0 ? 16 : format.bitsPerChannel
        guard format.formatID == .appleLossless else {
            throw AudioFileError(.unsupported, "FFmpeg encodes Apple Lossless only here, not \(format.formatID)", path: output.path)
        }
        guard type == .caf || type == .m4a else {
            throw AudioFileError(.incompatibleFormat, "Apple Lossless goes into CAF or M4A, not \(type)", path: output.path)
        }
        guard bits == 16 || bits == 24 else {
            throw AudioFileError(.unsupported, "Apple Lossless is recorded at 16 or 24 bits, not \(bits)", path: output.path)
        }
        guard (1...8).contains(channels), format.sampleRate >= 1, format.sampleRate <= 384_000 else {
            throw AudioFileError(.unsupported, "Apple Lossless takes 1 ... 8 channels up to 384 kHz, not \(channels) at \(format.sampleRate) Hz", path: output.path)
        }
        do { try open(sampleRate: Int32(format.sampleRate)) } catch {
            release()
            throw error
        }
    }

    deinit { release() }

    private func fail(_ what: String, _ code: Int32) -> AudioFileError {
        output.failure ?? AudioFileError(.io, "\(what): \(library.message(code))", path: output.path)
    }

    private func open(sampleRate: Int32) throws {
        var context: UnsafeMutablePointer<AVFormatContext>?
        let made = api.avformat_alloc_output_context2(&context, nil, type == .caf ? "caf" : "ipod", nil)
        guard made >= 0, let context else { throw fail("FFmpeg has no \(type) muxer", made) }
        muxer = context
        guard let io = FFmpegIO.writing(output, api) else { throw AudioFileError(.io, "FFmpeg could not allocate its I/O context", path: output.path) }
        self.io = io
        context.pointee.pb = io
        context.pointee.flags |= AVFMT_FLAG_CUSTOM_IO

        guard let codec = api.avcodec_find_encoder(AV_CODEC_ID_ALAC), let encoder = api.avcodec_alloc_context3(codec) else {
            throw AudioFileError(.unsupported, "this FFmpeg has no Apple Lossless encoder", path: output.path)
        }
        self.encoder = encoder
        encoder.pointee.sample_rate = sampleRate
        api.av_channel_layout_default(&encoder.pointee.ch_layout, Int32(channels))
        encoder.pointee.sample_fmt = bits == 16 ? AV_SAMPLE_FMT_S16P : AV_SAMPLE_FMT_S32P
        encoder.pointee.bits_per_raw_sample = Int32(bits)
        encoder.pointee.time_base = AVRational(num: 1, den: sampleRate)
        if context.pointee.oformat.pointee.flags & AVFMT_GLOBALHEADER != 0 {
            encoder.pointee.flags |= AV_CODEC_FLAG_GLOBAL_HEADER
        }
        let opened = api.avcodec_open2(encoder, codec, nil)
        guard opened >= 0 else { throw fail("the Apple Lossless encoder refuses \(bits)-bit \(channels)-channel audio", opened) }
        frameSize = Int(encoder.pointee.frame_size > 0 ? encoder.pointee.frame_size : 4096)

        guard let stream = api.avformat_new_stream(context, nil) else { throw AudioFileError(.io, "FFmpeg could not add a stream", path: output.path) }
        self.stream = stream
        let copied = api.avcodec_parameters_from_context(stream.pointee.codecpar, encoder)
        guard copied >= 0 else { throw fail("FFmpeg could not describe the stream", copied) }
        stream.pointee.time_base = encoder.pointee.time_base

        let metadata = options.metadata
        let tags: [(String, String?)] = [
            ("title", metadata.title), ("artist", metadata.artist), ("album", metadata.album), ("date", metadata.date),
            ("comment", metadata.comment), ("copyright", metadata.copyright),
            ("track", metadata.trackNumber.map { n in metadata.trackTotal.map { "\(n)/\($0)" } ?? "\(n)" }),
        ]
        for case let (key, value?) in tags { _ = api.av_dict_set(&context.pointee.metadata, key, value, 0) }

        var muxerOptions: OpaquePointer?
        if type == .m4a { _ = api.av_dict_set(&muxerOptions, "movflags", "+empty_moov+frag_custom", 0) }
        let written = api.avformat_write_header(context, &muxerOptions)
        api.av_dict_free(&muxerOptions)
        guard written >= 0 else { throw fail("FFmpeg cannot write the \(type) header", written) }

        guard let frame = api.av_frame_alloc(), let packet = api.av_packet_alloc() else {
            throw AudioFileError(.io, "FFmpeg could not allocate a frame and a packet", path: output.path)
        }
        self.frame = frame
        self.packet = packet
        frame.pointee.nb_samples = Int32(frameSize)
        frame.pointee.format = encoder.pointee.sample_fmt.rawValue
        api.av_channel_layout_default(&frame.pointee.ch_layout, Int32(channels))
        let buffered = api.av_frame_get_buffer(frame, 0)
        guard buffered >= 0 else { throw fail("FFmpeg could not allocate a frame buffer", buffered) }
    }

    func write(_ frames: UnsafeBufferPointer<Fixed824>) throws {
        guard let frame, let base = frames.baseAddress else {
            if frames.isEmpty { return }
            throw AudioFileError.misuse("the Apple Lossless file is closed")
        }
        let total = frames.count / channels
        var done = 0
        while done < total {
            if filled == 0 {
                let writable = api.av_frame_make_writable(frame)
                guard writable >= 0 else { throw fail("FFmpeg could not reuse its frame", writable) }
            }
            let n = min(frameSize - filled, total - done)
            guard let planes = frame.pointee.extended_data else { throw AudioFileError.misuse("the frame has no buffer") }
            for c in 0..<channels {
                guard let plane = planes[c] else { continue }
                var sample = base + done * channels + c
                if bits == 16 {
                    let out = UnsafeMutableRawPointer(plane).assumingMemoryBound(to: Int16.self) + filled
                    for i in 0..<n { out[i] = sample.pointee.int16; sample += channels }
                } else {   // s32p with the 24-bit sample in the top bits, as the alac encoder takes it
                    let out = UnsafeMutableRawPointer(plane).assumingMemoryBound(to: Int32.self) + filled
                    for i in 0..<n { out[i] = sample.pointee.int24 << 8; sample += channels }
                }
            }
            filled += n
            done += n
            framesWritten += Int64(n)
            if filled == frameSize { try encode(frames: filled) }
        }
    }

    /// Sends the pending frame (`frames` of it; nil: flush the encoder) and writes the packets that come out.
    private func encode(frames: Int?) throws {
        guard let encoder, let frame, let packet, let muxer, let stream else { return }
        let sent: Int32
        if let frames {
            frame.pointee.nb_samples = Int32(frames)
            frame.pointee.pts = encodedFrames
            encodedFrames += Int64(frames)
            sent = api.avcodec_send_frame(encoder, frame)
            filled = 0
        } else {
            sent = api.avcodec_send_frame(encoder, nil)
        }
        guard sent >= 0 else { throw fail("the Apple Lossless encoder fails", sent) }
        let clock = FFmpegClock(timeBase: stream.pointee.time_base, sampleRate: Int(encoder.pointee.sample_rate))
        while true {
            let received = api.avcodec_receive_packet(encoder, packet)
            if received == FFmpegLibrary.again || received == FFmpegLibrary.endOfFile { return }
            guard received >= 0 else { throw fail("the Apple Lossless encoder fails", received) }
            // Encoder time base is 1/rate (frames); the muxer may have chosen another for the stream.
            packet.pointee.stream_index = stream.pointee.index
            packet.pointee.pts = clock.timestamp(packet.pointee.pts)
            packet.pointee.dts = clock.timestamp(packet.pointee.dts)
            packet.pointee.duration = clock.timestamp(packet.pointee.duration)
            let written = api.av_write_frame(muxer, packet)
            api.av_packet_unref(packet)
            guard written >= 0 else { throw fail("FFmpeg cannot write a packet", written) }
        }
    }

    func commit() throws {
        guard let muxer, let io else { throw AudioFileError.misuse("the Apple Lossless file is closed") }
        if type == .m4a {
            let cut = api.av_write_frame(muxer, nil)   // frag_custom: a NULL packet closes a fragment
            guard cut >= 0 else { throw fail("FFmpeg cannot write a fragment", cut) }
        }
        api.avio_flush(io)
        try output.commit(synchronizing: options.synchronizeOnCommit)
    }

    /// Writes the trailer (M4A's last fragment, CAF's packet table); syncing and closing the file is
    /// `AudioFile`'s, which owns it.
    func finish() throws {
        guard let muxer, let io else { throw AudioFileError.misuse("the Apple Lossless file is closed") }
        defer { release() }
        if filled > 0 { try encode(frames: filled) }
        try encode(frames: nil)
        let trailer = api.av_write_trailer(muxer)
        guard trailer >= 0 else { throw fail("FFmpeg cannot finish the \(type) file", trailer) }
        api.avio_flush(io)
        if let failure = output.failure { throw failure }
    }

    func abandon() { release() }

    private func release() {
        if encoder != nil { api.avcodec_free_context(&encoder) }
        if frame != nil { api.av_frame_free(&frame) }
        if packet != nil { api.av_packet_free(&packet) }
        if let muxer { api.avformat_free_context(muxer) }
        muxer = nil
        stream = nil
        FFmpegIO.free(io, api)
        io = nil
    }
}
