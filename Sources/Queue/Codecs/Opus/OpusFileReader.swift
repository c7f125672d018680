import COpus
import Codec8_24
import Synchronization

/// An Ogg Opus file (RFC 7845) decoded by libopusfile, reading through `LibraryInput`: 48 kHz float decoded to
/// 8.24, the length exact (libopusfile's op_pcm_total: pre-skip removed, RFC 7845 4.2, and the end trimmed to
/// the last granule position, 4.4), the OpusHead output gain applied (RFC 7845 5.1: "the decoder MUST apply"
/// it; libopusfile does by default, OP_HEADER_GAIN, set here explicitly), seeks sample-exact (op_pcm_seek).
///
/// Chained files play through if every link has the same channel count. A file cut short plays to its last
/// complete page, then `read` throws `.truncated`.
final class OpusFileReader: CompressedFileReader {
    private(set) var info: CompressedFileInfo
    private let input: LibraryInput
    private var file: OpaquePointer?
    private let channels: Int
    /// op_read_float's output, converted to 8.24: room for two 120 ms packets.
    private let pcm: UnsafeMutablePointer<Float>
    private let pcmFrames = 2 * OpusHead.maximumPacketFrames
    private let end: OggOpusEnd
    /// Seeked to the very end (libopusfile refuses op_pcm_seek there): reads give nothing until the next seek.
    private var atEnd = false
    /// OggOpusFile handles opened and not yet freed, across all readers. The fuzz target checks it is 0 after
    /// every input: LeakSanitizer cannot, because its suppressions must skip libopusfile's own allocations
    /// (a leak inside op_open_callbacks, Fuzzing/lsan.supp) and a handle we forgot to free is one of those.
    static let openHandles = Atomic<Int>(0)

    init(_ input: LibraryInput) throws {
        self.input = input
        end = try OggOpusEnd.scan(input.file, length: input.length)
        var callbacks = OpusFileCallbacks(read: { stream, buffer, count in
            let input = Unmanaged<LibraryInput>.fromOpaque(stream!).takeUnretainedValue()
            return Int32(input.read(into: buffer!, count: Int(count)))
        }, seek: { stream, offset, whence in
            let input = Unmanaged<LibraryInput>.fromOpaque(stream!).takeUnretainedValue()
            return input.seek(offset, whence: whence) == nil ? -1 : 0
        }, tell: { stream in
            Unmanaged<LibraryInput>.fromOpaque(stream!).takeUnretainedValue().position
        }, close: nil)
        var error: Int32 = 0
        guard let file = op_open_callbacks(Unmanaged.passUnretained(input).toOpaque(), &callbacks, nil, 0, &error) else {
            if !end.isComplete && input.failure == nil && error != OP_ENOTFORMAT {
                let what = end.holdsAudio
                    ? "cut short and cannot be opened: \(Self.reason(error).text)"
                    : "cut short before its first complete audio page"
                throw AudioFileError(.truncated, "the Ogg Opus file is \(what)", offset: end.lastCompletePageEnd, path: input.path)
            }
            throw Self.failure(error, input: input, doing: "cannot open the Ogg Opus stream")
        }
        Self.openHandles.add(1, ordering: .relaxed)
        self.file = file
        do {
            guard let head = op_head(file, 0)?.pointee else { throw AudioFileError(.malformed, "no OpusHead", path: input.path) }
            channels = Int(head.channel_count)
            for link in 0..<op_link_count(file) where op_channel_count(file, link) != Int32(channels) {
                throw AudioFileError(.unsupported, "chained Ogg Opus link \(link + 1) has \(op_channel_count(file, link)) channels, the first \(channels)",
                                     path: input.path)
            }
            _ = op_set_gain_offset(file, OP_HEADER_GAIN, 0)
            let total = op_pcm_total(file, -1)
            guard total >= 0 else { throw Self.failure(Int32(total), input: input, doing: "cannot tell the length") }
            var metadata = AudioFileMetadata()
            var encoder: String?
            if let tags = op_tags(file, 0)?.pointee {
                if let vendor = tags.vendor { encoder = String(cString: vendor) }
                for i in 0..<Int(tags.comments) {
                    guard let comment = tags.user_comments[i] else { continue }
                    let bytes = UnsafeRawBufferPointer(start: comment, count: Int(tags.comment_lengths[i]))
                    guard let field = VorbisComment.field(String(decoding: bytes, as: UTF8.self)) else { continue }
                    TagNames.apply(field.name, field.value, to: &metadata)
                }
            }
            let bitRate = op_bitrate(file, -1)
            var format = StreamFormat.compressed(.opus, sampleRate: Double(OpusHead.sampleRate), channels: channels)
            format.channelLayout = OpusHead.layout(channels: channels, family: Int(head.mapping_family))
            info = CompressedFileInfo(fileType: .ogg,
                                      format: format,
                                      frameCount: total, encoderDelay: Int(head.pre_skip), padding: end.padding,
                                      bitRate: bitRate > 0 ? Int(bitRate) : nil, encoder: encoder, metadata: metadata)
        } catch {
            Self.free(file)
            throw error
        }
        pcm = .allocate(capacity: pcmFrames * channels)
    }

    deinit {
        if let file { Self.free(file) }
        pcm.deallocate()
    }

    func seek(toFrame frame: Int64) throws {
        guard let file else { throw AudioFileError(.misuse, "the Opus file is closed", path: input.path) }
        guard frame >= 0 && frame <= info.frameCount else {
            throw AudioFileError(.misuse, "seek to frame \(frame) outside 0 ... \(info.frameCount)", path: input.path)
        }
        atEnd = frame == info.frameCount
        if atEnd { return }
        let status = op_pcm_seek(file, frame)
        guard status == 0 else { throw Self.failure(status, input: input, doing: "cannot seek to frame \(frame)") }
    }

    func read(into buffer: UnsafeMutableBufferPointer<Fixed824>) throws -> Int {
        guard let file else { throw AudioFileError(.misuse, "the Opus file is closed", path: input.path) }
        let wanted = min(buffer.count / channels, pcmFrames)
        guard wanted > 0, !atEnd else { return 0 }
        let frame = op_pcm_tell(file)
        let frames = op_read_float(file, pcm, Int32(wanted * channels), nil)
        guard frames >= 0 else {
            throw Self.failure(frames, input: input, doing: "cannot decode after frame \(frame)")
        }
        if frames == 0 && !end.isComplete {
            throw AudioFileError(.truncated, "the Ogg Opus file is cut short: it ends after frame \(max(0, frame)) without its end-of-stream page",
                                 offset: end.lastCompletePageEnd, path: input.path)
        }
        let count = Int(frames) * channels
        LibrarySamples.floatToFixed824(pcm, count: count, into: buffer)
        return Int(frames)
    }

    func close() {
        if let file { Self.free(file) }
        file = nil
    }

    private static func free(_ file: OpaquePointer) {
        op_free(file)
        openHandles.subtract(1, ordering: .relaxed)
    }

    /// A libopusfile failure as the file's error; a read error keeps the I/O error it came from.
    static func failure(_ code: Int32, input: LibraryInput, doing what: String) -> AudioFileError {
        if let failure = input.failure { return failure }
        let (kind, text) = reason(code)
        return AudioFileError(kind, "\(what): \(text)", path: input.path)
    }

    /// libopusfile's negative codes (opusfile.h) as one line each.
    static func reason(_ code: Int32) -> (kind: AudioFileError.Kind, text: String) {
        switch code {
        case OP_HOLE: (.malformed, "a hole in the data: pages missing or corrupt (bad CRC or sequence)")
        case OP_EREAD: (.io, "a read failed")
        case OP_EFAULT: (.io, "out of memory or an internal error in libopusfile")
        case OP_EIMPL: (.unsupported, "a feature libopusfile does not implement")
        case OP_EINVAL: (.misuse, "an invalid argument")
        case OP_ENOTFORMAT: (.malformed, "no Ogg Opus stream found (not Ogg, or no OpusHead)")
        case OP_EBADHEADER: (.malformed, "a corrupt OpusHead or OpusTags header (RFC 7845 5)")
        case OP_EVERSION: (.unsupported, "an OpusHead version this library does not know")
        case OP_ENOTAUDIO: (.unsupported, "the stream holds no audio")
        case OP_EBADPACKET: (.malformed, "a corrupt Opus packet")
        case OP_EBADLINK: (.malformed, "a chained link is missing or corrupt")
        case OP_ENOSEEK: (.unsupported, "the file cannot be seeked")
        case OP_EBADTIMESTAMP: (.malformed, "an impossible granule position (timestamp)")
        default: (.malformed, "libopusfile error \(code)")
        }
    }
}
