import CFFmpeg
import Codec8_24

/// AAC (ADTS, M4A) and Apple Lossless (M4A, CAF) decoded by FFmpeg's libavformat and libavcodec, read through
/// `LibraryInput` (a custom AVIOContext: FFmpeg never opens the file).
///
/// Gapless: FFmpeg's mov demuxer turns the MP4 edit list's start into skip-samples side data on the first
/// packet, which the decoder honours; the end padding it leaves (FFmpeg 5.1 decodes an M4A made from 44100
/// frames as 45056) is cut here at the edit list's duration (the stream's duration). A file with no edit list
/// but Apple's iTunSMPB tag (delay, padding, original length), as iTunes, fdkaac and qaac write them, is trimmed
/// by that tag when its counts add up to the stream's. ADTS has no gapless information: every decoded frame is
/// returned, as `ffmpeg` does.
///
/// The exact length comes from a packet scan at open (demuxing only, no decoding; measured on the host, debug
/// build, for a 3-minute file: the whole open takes 144 ms for AAC in M4A, 13 ms for ADTS, 3 ms for ALAC in
/// CAF, against about 2 s to decode it), which also finds a file cut short before any audio is played. Seeks are sample-accurate:
/// FFmpeg seeks to a packet at or before the target (two AAC packets early, so the decoder's overlap is
/// rebuilt), and the frames before the target are decoded and dropped by their timestamps.
final class FFmpegFileReader: CompressedFileReader {
    let info: CompressedFileInfo
    private let input: LibraryInput
    private let session: FFmpegSession
    private let streamIndex: Int32
    /// Frames per tick of the stream's time base: timestamps become frame positions through it.
    private let clock: FFmpegClock
    /// The stream position, in frames of its timestamps, of the file's frame 0: after the priming FFmpeg
    /// skips (an edit list's, or an iTunSMPB atom's; measured by decoding at open) and the priming removed
    /// here (an iTunSMPB key's).
    private let zero: Int64
    /// Where the audio starts (the first packet's timestamp), for rewinding.
    private let firstTimestamp: Int64
    /// Frames decoded and dropped before a seek target (the AAC decoder's overlap needs one packet).
    private let preroll: Int64
    /// What the open-time scan found wrong: thrown when reading reaches the frames before it.
    private let damage: AudioFileError?

    private var nextFrame: Int64 = 0
    /// The part of the session's current frame not yet returned.
    private var pendingStart = 0
    private var pendingEnd = 0
    private var draining = false
    private var finished = false

    init(_ input: LibraryInput, type: AudioFileType) throws {
        self.input = input
        let what = type == .adts ? "AAC decoding" : "AAC and Apple Lossless decoding"
        let library = try FFmpegLibrary.loaded(for: what)
        let api = library.api
        session = try FFmpegSession(library)
        let fail = { (kind: AudioFileError.Kind, message: String) in
            AudioFileError(kind, message, offset: nil, path: input.path)
        }

        // Open the container on our I/O.
        guard let io = FFmpegIO.reading(input, api) else { throw fail(.io, "FFmpeg could not allocate its I/O context") }
        session.io = io   // the session frees it even if what follows fails
        guard var context = api.avformat_alloc_context() else { throw fail(.io, "FFmpeg could not allocate its format context") }
        context.pointee.pb = io
        context.pointee.flags |= AVFMT_FLAG_CUSTOM_IO
        var opened: UnsafeMutablePointer<AVFormatContext>? = context
        // FFmpeg never opens a file or URL itself: the file's own bytes come through `io`, but a demuxer may
        // follow a reference inside it (an MP4 data reference, an HLS or concat playlist) and open it with
        // FFmpeg's own protocols, around HAL and the path the user chose. An empty protocol whitelist makes
        // every such nested open fail.
        var options: OpaquePointer?
        _ = api.av_dict_set(&options, "protocol_whitelist", "", 0)
        defer { api.av_dict_free(&options) }
        let status = api.avformat_open_input(&opened, nil, nil, &options)
        guard status >= 0, let opened else {   // FFmpeg freed the context
            if let failure = input.failure { throw failure }
            if status == FFmpegLibrary.noMemory { throw fail(.malformed, Self.indexTooLarge(type)) }
            throw fail(status == FFmpegLibrary.endOfFile ? .truncated : .malformed,
                       "FFmpeg cannot read this \(type): \(library.message(status)) (a file cut short loses an M4A's index)")
        }
        context = opened
        session.format = context
        let found = api.avformat_find_stream_info(context, nil)
        guard found >= 0 else {
            if found == FFmpegLibrary.noMemory { throw input.failure ?? fail(.malformed, Self.indexTooLarge(type)) }
            throw input.failure ?? fail(.malformed, "FFmpeg finds no stream information: \(library.message(found))")
        }
        let index = api.av_find_best_stream(context, AVMEDIA_TYPE_AUDIO, -1, -1, nil, 0)
        guard index >= 0, let stream = context.pointee.streams[Int(index)], let parameters = stream.pointee.codecpar else {
            throw fail(.notAudioFile, "this \(type) holds no audio stream")
        }
        streamIndex = index
        let codecID = parameters.pointee.codec_id
        guard let formatID = FFmpegCodecs.formatID(codecID) else {
            throw fail(.unsupported, "this \(type) holds a codec other than AAC or Apple Lossless (FFmpeg codec id \(codecID.rawValue))")
        }

        // The decoder.
        let decoder = try session.openDecoder(parameters: parameters, timeBase: stream.pointee.time_base, path: input.path)
        let channels = Int(decoder.pointee.ch_layout.nb_channels)
        let sampleRate = Int(decoder.pointee.sample_rate)
        guard channels > 0, sampleRate > 0 else { throw fail(.malformed, "the \(formatID) stream gives no channel count or sample rate") }
        clock = FFmpegClock(timeBase: stream.pointee.time_base, sampleRate: sampleRate)
        preroll = formatID == .mpeg4AAC ? 2048 : 0

        // Tags (container, then stream), and Apple's gapless tag.
        var metadata = AudioFileMetadata()
        var encoder: String?
        var smpb: String?
        for dictionary in [context.pointee.metadata, stream.pointee.metadata] {
            session.forEachTag(dictionary) { name, value in
                TagNames.apply(name, value, to: &metadata)
                switch name.lowercased() {
                case "encoder": encoder = encoder ?? value
                case "itunsmpb": smpb = value
                default: break
                }
            }
        }

        // The packet scan: what the decoder will output, and where the file is damaged.
        let scan = session.scan(stream: index, clock: clock, framesPerPacket: Int64(parameters.pointee.frame_size), input: input)
        if scan.firstTimestamp == nil, scan.frames == 0, scan.damage == nil, stream.pointee.nb_frames > 0 {
            // The sample table names packets, yet FFmpeg indexed none: it gives up on an index it cannot allocate
            // (`largestAllocation`) without a word, and the file would play as empty.
            throw fail(.malformed, Self.indexTooLarge(type))
        }
        firstTimestamp = scan.firstTimestamp ?? 0
        var frames = scan.frames
        var coded = scan.coded
        if scan.durationsMissing, let first = scan.firstTimestamp, let last = scan.lastTimestamp,
           let lastFrames = session.decodedFrames(ofPacketAt: last, stream: index) {
            // Packets without durations (CAF): their timestamps span all but the last, which is decoded.
            let span = last.subtractingReportingOverflow(first)
            frames = FFmpegClock.add(clock.frames(span.overflow ? Int64.max : span.partialValue), lastFrames)
            coded = frames
        }
        // Where the audio starts: the first frame FFmpeg's decoder outputs after a seek to the first packet, as
        // every read from the start begins. What comes before it (whole packets discarded, and skip-samples
        // that libavcodec carries across packets) is the priming FFmpeg removes.
        let first = clock.frames(firstTimestamp)
        var origin = first
        if let packet = scan.firstTimestamp, let start = session.firstFrameTimestamp(from: packet, stream: index, parameters: parameters,
                                                                                               timeBase: stream.pointee.time_base) {
            origin = clock.frames(start)
        }
        let skipped = max(0, FFmpegClock.add(origin, -first))
        let decoded = frames - skipped - scan.trailing
        var delay: Int64 = 0
        var length = decoded
        // MP4: FFmpeg's stream duration is the edit list's, in milliseconds as ffmpeg writes it; the media
        // duration less the priming is exact, and wins when within a millisecond of the edit list's.
        let stated = stream.pointee.duration > 0 && type == .m4a ? clock.frames(stream.pointee.duration) : nil
        if let stated, stated < length { length = stated }
        if type == .m4a, let media = MP4MediaDuration.frames(input, sampleRate: sampleRate) {
            let exact = media - skipped
            if exact > length, exact - length <= Int64(sampleRate / 1000 + 1), exact <= coded - skipped { length = exact }
        }
        // Apple's iTunSMPB: FFmpeg removes its priming itself when it is a '----' atom, as iTunes writes it (mov.c's
        // start_pad), but not when it is an 'mdta' key; the padding it leaves either way. The tag is believed only
        // where its counts add up to the frames the packets hold, as the tag defines them: a tag left on other
        // audio (a re-encode, an edit) would cut that audio short.
        if let smpb, let tag = ITunesGaplessInfo(smpb, decoded: coded), tag.addsUp,
           skipped == 0 || skipped == tag.delay {
            delay = tag.delay - skipped
            length = min(length, tag.playable)
            encoder = encoder ?? "iTunes"
        }
        if scan.damage != nil { length = min(length, decoded - delay) }   // play up to the damage, then say so
        zero = FFmpegClock.add(origin, delay)
        var foundDamage = scan.damage.map { AudioFileError($0.kind, $0.message, offset: $0.offset, path: input.path) }
        // The packets found must cover what the index promises. Its duration counts the priming or not (an edit
        // list's excludes it; without one, or in a fragmented file, it is the packets' own), so it is held against
        // all the packets hold: a file cut short lacks far more than a priming's worth.
        if foundDamage == nil, let stated, coded < stated {
            foundDamage = AudioFileError(.truncated, "the audio stops at frame \(coded) of the \(stated) the index promises (the file is cut short)",
                                          offset: input.length, path: input.path)
        }
        damage = foundDamage

        let bits = formatID == .appleLossless
            ? Int(parameters.pointee.bits_per_raw_sample > 0 ? parameters.pointee.bits_per_raw_sample : parameters.pointee.bits_per_coded_sample)
            : 0
        let format = StreamFormat.compressed(formatID, sampleRate: Double(sampleRate), channels: channels,
                                             framesPerPacket: Int(parameters.pointee.frame_size), bitsPerChannel: bits)
        var bitRate = Int(parameters.pointee.bit_rate)
        if bitRate <= 0, length > 0 { bitRate = Int(FFmpegClock.scale(input.length * 8, Int64(sampleRate), length)) }
        info = CompressedFileInfo(fileType: type, format: format, frameCount: max(0, length),
                                  encoderDelay: Int(skipped + delay), padding: Int(max(0, coded - skipped - delay - length)),
                                  bitRate: bitRate > 0 ? bitRate : nil, encoder: encoder, metadata: metadata)
        // No packet at all (a fragmented M4A cut before its first fragment: issue 16): nothing to seek in, and
        // FFmpeg refuses to (EPERM); the file opens as empty.
        if scan.firstTimestamp != nil { try rewind(toFrame: 0) }
    }

    deinit { session.release() }

    func seek(toFrame frame: Int64) throws {
        guard (0...info.frameCount).contains(frame) else {
            throw AudioFileError(.misuse, "seek to frame \(frame) is outside 0 ... \(info.frameCount)", path: input.path)
        }
        try rewind(toFrame: frame)
    }

    private func rewind(toFrame frame: Int64) throws {
        guard let context = session.format, let decoder = session.decoder else { throw AudioFileError.misuse("the file is closed") }
        let api = session.api
        // The packet at or before the frame: a timestamp rounded up past it (a time base coarser than a frame)
        // would land a packet late.
        let position = FFmpegClock.add(zero, frame - preroll)
        var target = clock.timestamp(position)
        if clock.frames(target) > position { target -= 1 }
        target = max(firstTimestamp, target)
        let status = api.avformat_seek_file(context, streamIndex, Int64.min, target, target, 0)
        guard status >= 0 else {
            throw input.failure ?? AudioFileError(.io, "FFmpeg cannot seek to frame \(frame): \(session.library.message(status))", path: input.path)
        }
        api.avcodec_flush_buffers(decoder)
        nextFrame = frame
        pendingStart = 0
        pendingEnd = 0
        draining = false
        finished = false
    }

    func read(into buffer: UnsafeMutableBufferPointer<Fixed824>) throws -> Int {
        guard let base = buffer.baseAddress, let frame = session.frame else { return 0 }
        let channels = info.format.channelsPerFrame
        let capacity = buffer.count / channels
        var written = 0
        while written < capacity {
            if pendingStart < pendingEnd {
                let n = min(pendingEnd - pendingStart, capacity - written)
                FFmpegSampleConversion.interleave(frame, channels: channels, first: pendingStart, count: n,
                                                  into: base + written * channels)
                pendingStart += n
                written += n
                nextFrame += Int64(n)
                continue
            }
            if finished { break }
            do { try decodeNextFrame() } catch {
                throw damage ?? error   // past the scan's damage, the scan's message is the clearer one
            }
        }
        if written == 0 && finished {
            if let damage { throw damage }
            if nextFrame < info.frameCount {
                throw AudioFileError(.truncated, "the audio stops at frame \(nextFrame) of \(info.frameCount)", offset: input.position, path: input.path)
            }
        }
        return written
    }

    /// Decodes until a frame with audio at or after `nextFrame` is pending, or the end.
    private func decodeNextFrame() throws {
        guard let decoder = session.decoder, let frame = session.frame, let packet = session.packet,
              let context = session.format else { finished = true; return }
        let api = session.api
        while true {
            let received = api.avcodec_receive_frame(decoder, frame)
            if received == 0 {
                guard Int(frame.pointee.ch_layout.nb_channels) == info.format.channelsPerFrame else {
                    throw AudioFileError(.unsupported, "the \(info.format.formatID) stream changes from \(info.format.channelsPerFrame) to \(frame.pointee.ch_layout.nb_channels) channels near frame \(nextFrame)",
                                         offset: input.position, path: input.path)
                }
                let count = Int(frame.pointee.nb_samples)
                let pts = frame.pointee.pts
                let start = pts == FFmpegLibrary.noTimestamp ? nextFrame : FFmpegClock.add(clock.frames(pts), -zero)
                if start >= info.frameCount { finished = true; return }
                let from = Int(max(0, min(Int64(count), nextFrame - start)))
                let to = Int(max(0, min(Int64(count), info.frameCount - start)))
                if to > from {
                    pendingStart = from
                    pendingEnd = to
                    nextFrame = start + Int64(from)
                    return
                }
                continue
            }
            if received == FFmpegLibrary.endOfFile { finished = true; return }
            guard received == FFmpegLibrary.again else {
                throw AudioFileError(.malformed, "the \(info.format.formatID) decoder fails near frame \(nextFrame): \(session.library.message(received))",
                                     offset: input.position, path: input.path)
            }
            if draining { finished = true; return }
            let status = api.av_read_frame(context, packet)
            if status == FFmpegLibrary.endOfFile {
                draining = true
                _ = api.avcodec_send_packet(decoder, nil)
                continue
            }
            guard status >= 0 else {
                throw input.failure ?? damage ?? AudioFileError(.malformed, "FFmpeg cannot read the packet after frame \(nextFrame): \(session.library.message(status))",
                                                                offset: input.position, path: input.path)
            }
            defer { api.av_packet_unref(packet) }
            guard packet.pointee.stream_index == streamIndex else { continue }
            let sent = api.avcodec_send_packet(decoder, packet)
            if sent < 0 && sent != FFmpegLibrary.again {
                throw AudioFileError(.malformed, "corrupt \(info.format.formatID) packet near frame \(nextFrame): \(session.library.message(sent))",
                                     offset: packet.pointee.pos >= 0 ? packet.pointee.pos : input.position, path: input.path)
            }
        }
    }

    func close() { session.release() }

    /// FFmpeg ran out of room at open: with `largestAllocation` in force, that is a sample table claiming more
    /// packets than the file could hold.
    private static func indexTooLarge(_ type: AudioFileType) -> String {
        "this \(type)'s sample tables claim more packets than an index of \(FFmpegLibrary.largestAllocation >> 20) MB holds (damaged tables)"
    }
}

/// Apple's gapless tag, iTunSMPB: " 00000000 00000840 000001C0 0000000000046E00 ...", hexadecimal fields of
/// which the second is the encoder delay, the third the padding and the fourth the original length in frames:
/// delay + length + padding are the frames the packets hold. The tag is the file's word, so each field is
/// clamped to the frames the packets hold (`decoded`): a huge padding or length cannot push the arithmetic that
/// trims by them out of range.
struct ITunesGaplessInfo {
    var delay: Int64
    var padding: Int64
    var length: Int64
    /// Frames the packets hold, delay and padding included.
    var decoded: Int64

    init?(_ text: String, decoded: Int64) {
        let fields = text.split(separator: " ").compactMap { Int64($0, radix: 16) }
        guard fields.count >= 4, fields[1] >= 0, fields[2] >= 0, fields[3] >= 0 else { return nil }
        self.decoded = max(0, decoded)
        delay = min(fields[1], self.decoded)
        padding = min(fields[2], self.decoded)
        length = min(fields[3], self.decoded)
    }

    /// Whether the tag describes these packets: its three counts add up to theirs (a length of 0, which some
    /// encoders write, leaves delay and padding to fit).
    var addsUp: Bool { length == 0 ? delay + padding <= decoded : delay + padding + length == decoded }

    /// Frames to play after the delay: the stated length, or (length 0) what the padding leaves; within
    /// 0 ... decoded - delay.
    var playable: Int64 {
        let available = decoded - delay
        return max(0, min(length > 0 ? length : available - padding, available))
    }
}
