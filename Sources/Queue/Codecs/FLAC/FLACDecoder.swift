import CFLAC
import Codec8_24

/// libFLAC's stream decoder on callbacks, shared by the file reader (bytes from a `LibraryInput`, native or
/// Ogg FLAC) and the packet decoder (a synthetic "fLaC" + STREAMINFO header, then one frame at a time).
/// Each decoded frame lands, as interleaved 8.24, in a buffer sized at open for STREAMINFO's largest block;
/// damage libFLAC reports through its error callback is kept as a typed error for the caller to throw.
final class FLACDecoder {
    enum Source {
        case file(LibraryInput)
        /// Packets: the header is served first, then each packet set by `decode`.
        case packets(header: [UInt8])
    }

    let source: Source
    private(set) var decoder: UnsafeMutablePointer<FLAC__StreamDecoder>?
    private(set) var streamInfo: FLACStreamInfo?
    private(set) var vendor: String?
    private(set) var comments: [(String, String)] = []

    /// The decoded frame: `frames` frames from `firstSample`, of which `consumed` were taken.
    private(set) var samples: UnsafeMutablePointer<Fixed824>?
    private(set) var capacity = 0
    private(set) var channels = 0
    var frames = 0
    var consumed = 0
    private(set) var firstSample: UInt64 = 0
    /// The sample number in the header of the first frame libFLAC read (its CRC-16 good or not): where the
    /// file's audio starts on the stream's own timeline, the one seeks and seek tables use.
    private(set) var firstFrameSample: UInt64?
    /// Decoded frames since open (for error messages naming the frame).
    private(set) var frameIndex = 0
    /// Only count samples (the open-time pass over a file whose STREAMINFO has no total).
    var countingOnly = false
    private(set) var countedSamples: UInt64 = 0

    /// The first damage met since the caller last took it.
    var damage: AudioFileError?
    /// Byte offset just after the last good frame (native FLAC), where damage is reported.
    private(set) var lastGoodEnd: Int64?
    private var pendingCRCMismatch = false
    /// After a frame whose CRC-16 failed: the sample the next good frame starts at. (libFLAC's own recovery
    /// goes back into the bad frame looking for a sync and hands over silence for what it skips, so the
    /// reader seeks there instead.)
    var resumeSample: UInt64?

    // Packet source state.
    private var headerSent = 0
    private var packet: UnsafeRawBufferPointer?
    private var packetSent = 0

    init(_ source: Source, ogg: Bool = false) throws {
        self.source = source
        guard let decoder = FLAC__stream_decoder_new() else { throw AudioFileError(.io, "libFLAC could not allocate a decoder") }
        self.decoder = decoder
        FLAC__stream_decoder_set_metadata_respond(decoder, FLAC__METADATA_TYPE_VORBIS_COMMENT)
        let client = Unmanaged.passUnretained(self).toOpaque()
        let status: FLAC__StreamDecoderInitStatus
        if ogg {
            status = FLAC__stream_decoder_init_ogg_stream(decoder, flacRead, flacSeek, flacTell, flacLength, flacEOF,
                                                          flacWrite, flacMetadata, flacError, client)
        } else {
            status = FLAC__stream_decoder_init_stream(decoder, flacRead, flacSeek, flacTell, flacLength, flacEOF,
                                                      flacWrite, flacMetadata, flacError, client)
        }
        guard status == FLAC__STREAM_DECODER_INIT_STATUS_OK else {
            throw AudioFileError(.io, "libFLAC refused to start decoding (init status \(status.rawValue))")
        }
        let ok = FLAC__stream_decoder_process_until_end_of_metadata(decoder)
        if let failure = input?.failure { throw failure }
        guard ok != 0, let info = streamInfo else {
            // libFLAC reads ahead, so a small file is wholly read whatever went wrong: only its end-of-stream
            // state says the metadata was cut short rather than refused.
            if let input, input.isAtEnd, state == FLAC__STREAM_DECODER_END_OF_STREAM {
                throw AudioFileError(.truncated, "the file ends inside its FLAC metadata blocks", offset: input.length)
            }
            let reason = streamInfo == nil ? "no STREAMINFO block" : "libFLAC refused its metadata blocks"
            throw damage ?? AudioFileError(.malformed, "not a valid FLAC stream: \(reason) (\(stateText))", offset: input?.position ?? 0)
        }
        damage = nil
        var position: UInt64 = 0
        if FLAC__stream_decoder_get_decode_position(decoder, &position) != 0 { lastGoodEnd = Int64(position) }
        // A frame never exceeds 65535 samples (RFC 9639 section 9.1.1); STREAMINFO's maximum is used when it says.
        let largest = (16...65535).contains(info.maximumBlockSize) ? info.maximumBlockSize : 65535
        channels = info.channels
        capacity = largest
        samples = .allocate(capacity: largest * info.channels)
    }

    deinit { close() }

    func close() {
        if let decoder {
            FLAC__stream_decoder_delete(decoder)
            self.decoder = nil
        }
        samples?.deallocate()
        samples = nil
    }

    var input: LibraryInput? {
        if case .file(let input) = source { return input }
        return nil
    }

    var state: FLAC__StreamDecoderState {
        decoder.map { FLAC__stream_decoder_get_state($0) } ?? FLAC__STREAM_DECODER_ABORTED
    }

    var stateText: String {
        guard let decoder, let text = FLAC__stream_decoder_get_resolved_state_string(decoder) else { return "closed" }
        return String(cString: text)
    }

    /// Decodes the next frame (or reports damage, or the end). False when libFLAC failed outright.
    func processSingle() -> Bool {
        guard let decoder else { return false }
        let ok = FLAC__stream_decoder_process_single(decoder) != 0
        var position: UInt64 = 0
        if ok, damage == nil, FLAC__stream_decoder_get_decode_position(decoder, &position) != 0 { lastGoodEnd = Int64(position) }
        return ok
    }

    /// Decodes one frame packet (packet source); true when a frame came out of it.
    func decode(_ bytes: UnsafeRawBufferPointer) -> Bool {
        packet = bytes
        packetSent = 0
        damage = nil
        frames = 0
        consumed = 0
        let decoded = processSingle() && frames > 0 && damage == nil
        packet = nil
        if !decoded || state == FLAC__STREAM_DECODER_END_OF_STREAM { flush() }
        return decoded
    }

    /// Forgets buffered bytes and the decoded frame (after damage, a seek failure or a gap in a stream).
    func flush() {
        if let decoder { _ = FLAC__stream_decoder_flush(decoder) }
        frames = 0
        consumed = 0
        pendingCRCMismatch = false
        resumeSample = nil
    }

    /// Back to the first frame: libFLAC rewinds the input and reads the metadata again.
    func rewind() -> Bool {
        guard let decoder else { return false }
        frames = 0
        consumed = 0
        pendingCRCMismatch = false
        guard FLAC__stream_decoder_reset(decoder) != 0, FLAC__stream_decoder_process_until_end_of_metadata(decoder) != 0 else { return false }
        damage = nil
        return true
    }

    // MARK: Callbacks

    fileprivate func read(_ buffer: UnsafeMutablePointer<FLAC__byte>, _ count: inout Int) -> FLAC__StreamDecoderReadStatus {
        switch source {
        case .file(let input):
            let n = input.read(into: buffer, count: count)
            if n < 0 { count = 0; return FLAC__STREAM_DECODER_READ_STATUS_ABORT }
            count = n
            return n == 0 ? FLAC__STREAM_DECODER_READ_STATUS_END_OF_STREAM : FLAC__STREAM_DECODER_READ_STATUS_CONTINUE
        case .packets(let header):
            if headerSent < header.count {
                let n = min(count, header.count - headerSent)
                header.withUnsafeBytes { UnsafeMutableRawPointer(buffer).copyMemory(from: $0.baseAddress! + headerSent, byteCount: n) }
                headerSent += n
                count = n
                return FLAC__STREAM_DECODER_READ_STATUS_CONTINUE
            }
            guard let packet, packetSent < packet.count else { count = 0; return FLAC__STREAM_DECODER_READ_STATUS_END_OF_STREAM }
            let n = min(count, packet.count - packetSent)
            UnsafeMutableRawPointer(buffer).copyMemory(from: packet.baseAddress! + packetSent, byteCount: n)
            packetSent += n
            count = n
            return FLAC__STREAM_DECODER_READ_STATUS_CONTINUE
        }
    }

    fileprivate func received(_ frame: UnsafePointer<FLAC__Frame>, _ buffer: UnsafePointer<UnsafePointer<FLAC__int32>?>) -> FLAC__StreamDecoderWriteStatus {
        let header = frame.pointee.header
        let blockSize = Int(header.blocksize)
        // FLAC/format.h (FLAC__FrameHeader.number_type): the decoder always converts a frame number to a
        // sample number, so decoded frames carry their first sample.
        let start = header.number.sample_number
        frameIndex += 1
        if firstFrameSample == nil { firstFrameSample = start }
        if pendingCRCMismatch {
            // libFLAC hands over silence for a frame whose CRC-16 failed: dropped, the error says where.
            pendingCRCMismatch = false
            resumeSample = start + UInt64(blockSize)
            damage = AudioFileError(.malformed, "FLAC frame \(frameIndex - 1) (from sample \(start)) is corrupt: its CRC-16 does not match",
                                    offset: lastGoodEnd)
            return FLAC__STREAM_DECODER_WRITE_STATUS_CONTINUE
        }
        if countingOnly {
            countedSamples = max(countedSamples, start + UInt64(blockSize))
            return FLAC__STREAM_DECODER_WRITE_STATUS_CONTINUE
        }
        guard Int(header.channels) == channels, blockSize <= capacity, let samples else {
            damage = AudioFileError(.malformed, "FLAC frame \(frameIndex - 1) has \(header.channels) channels and \(blockSize) samples; STREAMINFO says \(channels) channels and at most \(capacity)",
                                    offset: lastGoodEnd)
            return FLAC__STREAM_DECODER_WRITE_STATUS_ABORT
        }
        FLACDecoder.interleave(buffer, channels: channels, frames: blockSize, bits: Int(header.bits_per_sample), into: samples)
        frames = blockSize
        consumed = 0
        firstSample = start
        return FLAC__STREAM_DECODER_WRITE_STATUS_CONTINUE
    }

    /// libFLAC's per-channel integers as interleaved 8.24: exact shifts up to 25 bits (16 and 24 bits through
    /// `Fixed824(int16:)` / `(int24:)`), rounded beyond (8.24 keeps 25 bits of a full-scale sample).
    static func interleave(_ buffer: UnsafePointer<UnsafePointer<FLAC__int32>?>, channels: Int, frames: Int, bits: Int,
                           into output: UnsafeMutablePointer<Fixed824>) {
        for c in 0..<channels {
            guard let channel = buffer[c] else { continue }
            var out = output + c
            switch bits {
            case 16:
                for i in 0..<frames { out.pointee = Fixed824(int16: Int16(truncatingIfNeeded: channel[i])); out += channels }
            case 24:
                for i in 0..<frames { out.pointee = Fixed824(int24: channel[i]); out += channels }
            default:
                let shift = Int32(32 - bits)
                for i in 0..<frames { out.pointee = Fixed824(int32: channel[i] &<< shift); out += channels }
            }
        }
    }

    fileprivate func metadata(_ block: UnsafePointer<FLAC__StreamMetadata>) {
        switch block.pointee.type {
        case FLAC__METADATA_TYPE_STREAMINFO:
            let s = block.pointee.data.stream_info
            let md5 = withUnsafeBytes(of: s.md5sum) { Array($0) }
            streamInfo = FLACStreamInfo(minimumBlockSize: Int(s.min_blocksize), maximumBlockSize: Int(s.max_blocksize),
                                        minimumFrameSize: Int(s.min_framesize), maximumFrameSize: Int(s.max_framesize),
                                        sampleRate: Int(s.sample_rate), channels: Int(s.channels),
                                        bitsPerSample: Int(s.bits_per_sample), totalSamples: s.total_samples, md5: md5)
        case FLAC__METADATA_TYPE_VORBIS_COMMENT:
            let v = block.pointee.data.vorbis_comment
            vendor = Self.text(v.vendor_string)
            comments = (0..<Int(v.num_comments)).compactMap { i in v.comments.flatMap { VorbisComment.field(Self.text($0[i])) } }
        default: break
        }
    }

    static func text(_ entry: FLAC__StreamMetadata_VorbisComment_Entry) -> String {
        guard let bytes = entry.entry else { return "" }
        return String(decoding: UnsafeBufferPointer(start: bytes, count: Int(entry.length)), as: UTF8.self)
    }

    fileprivate func error(_ status: FLAC__StreamDecoderErrorStatus) {
        if status == FLAC__STREAM_DECODER_ERROR_STATUS_FRAME_CRC_MISMATCH {
            pendingCRCMismatch = true
            return
        }
        // libFLAC 1.5 (Debian trixie, the board) added two statuses that 1.4's header (the bookworm host) lacks,
        // so they are matched by value (FLAC/stream_decoder.h of 1.5: OUT_OF_BOUNDS = 5, MISSING_FRAME = 6).
        // A missing frame is not damage to stop for: libFLAC fills the gap between the two frames around it with
        // constant (silent) subframes, as 1.4 already did without a word, so the timeline stays whole.
        if status.rawValue == 6 { return }
        let what = switch status {
        case FLAC__STREAM_DECODER_ERROR_STATUS_LOST_SYNC: "bytes that are not a FLAC frame (lost sync)"
        case FLAC__STREAM_DECODER_ERROR_STATUS_BAD_HEADER: "a corrupt FLAC frame header"
        case FLAC__STREAM_DECODER_ERROR_STATUS_UNPARSEABLE_STREAM: "FLAC data libFLAC cannot parse (a reserved coding)"
        case FLAC__STREAM_DECODER_ERROR_STATUS_BAD_METADATA: "a corrupt FLAC metadata block"
        default: status.rawValue == 5 ? "a FLAC frame whose samples exceed its bit depth" : "FLAC damage libFLAC calls status \(status.rawValue)"
        }
        damage = damage ?? AudioFileError(.malformed, "\(what) after frame \(frameIndex)", offset: lastGoodEnd)
    }
}

// MARK: libFLAC's callbacks (C function pointers capturing nothing; the decoder is the client data), as computed
// globals: no stored global state for Swift 6 to check

private func flacDecoder(_ client: UnsafeMutableRawPointer?) -> FLACDecoder {
    Unmanaged<FLACDecoder>.fromOpaque(client!).takeUnretainedValue()
}

private var flacRead: FLAC__StreamDecoderReadCallback { { _, buffer, bytes, client in
    guard let buffer, let bytes else { return FLAC__STREAM_DECODER_READ_STATUS_ABORT }
    var count = Int(bytes.pointee)
    let status = flacDecoder(client).read(buffer, &count)
    bytes.pointee = count
    return status
} }

private var flacSeek: FLAC__StreamDecoderSeekCallback { { _, offset, client in
    guard let input = flacDecoder(client).input else { return FLAC__STREAM_DECODER_SEEK_STATUS_UNSUPPORTED }
    return input.seek(Int64(offset), whence: 0) == nil ? FLAC__STREAM_DECODER_SEEK_STATUS_ERROR : FLAC__STREAM_DECODER_SEEK_STATUS_OK
} }

private var flacTell: FLAC__StreamDecoderTellCallback { { _, offset, client in
    guard let input = flacDecoder(client).input else { return FLAC__STREAM_DECODER_TELL_STATUS_UNSUPPORTED }
    offset?.pointee = UInt64(input.position)
    return FLAC__STREAM_DECODER_TELL_STATUS_OK
} }

private var flacLength: FLAC__StreamDecoderLengthCallback { { _, length, client in
    guard let input = flacDecoder(client).input else { return FLAC__STREAM_DECODER_LENGTH_STATUS_UNSUPPORTED }
    length?.pointee = UInt64(input.length)
    return FLAC__STREAM_DECODER_LENGTH_STATUS_OK
} }

private var flacEOF: FLAC__StreamDecoderEofCallback { { _, client in
    guard let input = flacDecoder(client).input else { return 0 }
    return input.isAtEnd ? 1 : 0
} }

private var flacWrite: FLAC__StreamDecoderWriteCallback { { _, frame, buffer, client in
    guard let frame, let buffer else { return FLAC__STREAM_DECODER_WRITE_STATUS_ABORT }
    return flacDecoder(client).received(frame, buffer)
} }

private var flacMetadata: FLAC__StreamDecoderMetadataCallback { { _, block, client in
    if let block { flacDecoder(client).metadata(block) }
} }

private var flacError: FLAC__StreamDecoderErrorCallback { { _, status, client in
    flacDecoder(client).error(status)
} }
