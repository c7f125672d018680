import CFLAC
import Codec8_24

/// A FLAC file (native, or Ogg FLAC) encoded by libFLAC's stream encoder, for the recorder and `convert`.
///
/// Streamable and crash-safe: libFLAC hands each frame to the write callback as soon as it is encoded, and
/// the callback writes it to the file at once, so a power cut loses at most the block being gathered. The
/// header written at the start says 0 total samples and an unset MD5 (RFC 9639 section 8.2: unknown); `finish`
/// lets libFLAC seek back and fill them in, and `FLACRepair` does the same for a file that was never finished.
/// `finish` and `abandon` leave the descriptor open: `AudioFile` closes it (or renames an atomic write).
final class FLACFileWriter: CompressedFileWriter {
    fileprivate let output: LibraryOutput
    private let options: AudioFileWriteOptions
    private var encoder: UnsafeMutablePointer<FLAC__StreamEncoder>?
    private var blocks: [UnsafeMutablePointer<FLAC__StreamMetadata>?] = []
    private let channels: Int
    private let bits: Int
    /// Integer samples for one call into libFLAC, allocated here so that `write` does not allocate.
    private let staging: UnsafeMutablePointer<FLAC__int32>
    private static let stagingFrames = 4096
    private(set) var framesWritten: Int64 = 0
    /// Set by `abandon`: the callbacks then refuse, so libFLAC's clean-up writes nothing more.
    fileprivate var abandoned = false
    private var finished = false

    /// Room left after the tags for tags added later (metaflac, a tagger) without rewriting the audio; the
    /// `flac` tool leaves the same 8192 bytes.
    static let paddingBytes: UInt32 = 8192

    init(_ output: LibraryOutput, format: StreamFormat, options: AudioFileWriteOptions, ogg: Bool) throws {
        self.output = output
        self.options = options
        channels = format.channelsPerFrame
        bits = format.bitsPerChannel == 0 ? 16 : format.bitsPerChannel
        let rate = Int(format.sampleRate)
        guard bits == 16 || bits == 24 else {
            throw AudioFileError(.unsupported, "FLAC is written here with 16 or 24 bits per sample, not \(bits)", path: output.path)
        }
        guard (1...8).contains(channels) else {
            throw AudioFileError(.unsupported, "FLAC holds 1 ... 8 channels, not \(channels)", path: output.path)
        }
        // RFC 9639 section 8.2: a 20-bit sample rate in Hz, whole numbers only.
        guard Double(rate) == format.sampleRate, (1...1_048_575).contains(rate) else {
            throw AudioFileError(.unsupported, "FLAC needs a whole sample rate of 1 ... 1048575 Hz, not \(format.sampleRate)", path: output.path)
        }
        let level = options.encoder.compressionLevel ?? 5
        guard (0...8).contains(level) else {
            throw AudioFileError(.unsupported, "FLAC compression levels are 0 ... 8, not \(level)", path: output.path)
        }
        staging = .allocate(capacity: Self.stagingFrames * channels)
        guard let encoder = FLAC__stream_encoder_new() else {
            throw AudioFileError(.io, "libFLAC could not allocate an encoder", path: output.path)
        }
        self.encoder = encoder
        FLAC__stream_encoder_set_channels(encoder, UInt32(channels))
        FLAC__stream_encoder_set_bits_per_sample(encoder, UInt32(bits))
        FLAC__stream_encoder_set_sample_rate(encoder, UInt32(rate))
        FLAC__stream_encoder_set_compression_level(encoder, UInt32(level))
        try makeMetadata(options.metadata)
        let count = UInt32(blocks.count)
        _ = blocks.withUnsafeMutableBufferPointer { FLAC__stream_encoder_set_metadata(encoder, $0.baseAddress, count) }
        let client = Unmanaged.passUnretained(self).toOpaque()
        let status = ogg
            ? FLAC__stream_encoder_init_ogg_stream(encoder, flacEncoderRead, flacEncoderWrite, flacEncoderSeek, flacEncoderTell, nil, client)
            : FLAC__stream_encoder_init_stream(encoder, flacEncoderWrite, flacEncoderSeek, flacEncoderTell, nil, client)
        if let failure = output.failure { throw failure }
        guard status == FLAC__STREAM_ENCODER_INIT_STATUS_OK else {
            let text = FLAC__stream_encoder_get_resolved_state_string(encoder).map { String(cString: $0) } ?? "?"
            throw AudioFileError(.io, "libFLAC refused to start encoding (init status \(status.rawValue): \(text))", path: output.path)
        }
    }

    deinit {
        if !finished { abandon() }
        staging.deallocate()
        for block in blocks { if let block { FLAC__metadata_object_delete(block) } }
    }

    /// The VORBIS_COMMENT block (tags) and the PADDING block libFLAC writes after STREAMINFO.
    private func makeMetadata(_ metadata: AudioFileMetadata) throws {
        guard let comment = FLAC__metadata_object_new(FLAC__METADATA_TYPE_VORBIS_COMMENT),
              let padding = FLAC__metadata_object_new(FLAC__METADATA_TYPE_PADDING) else {
            throw AudioFileError(.io, "libFLAC could not allocate metadata blocks", path: output.path)
        }
        blocks = [comment, padding]
        padding.pointee.length = Self.paddingBytes
        for (name, value) in VorbisComment.fields(metadata, gains: .replayGain) {
            var entry = FLAC__StreamMetadata_VorbisComment_Entry()
            guard FLAC__metadata_object_vorbiscomment_entry_from_name_value_pair(&entry, name, value) != 0,
                  FLAC__metadata_object_vorbiscomment_append_comment(comment, entry, 0) != 0 else {
                throw AudioFileError(.unsupported, "the tag \(name)=\(value) cannot be written as a Vorbis comment", path: output.path)
            }
        }
    }

    func write(_ frames: UnsafeBufferPointer<Fixed824>) throws {
        guard let encoder, !finished, !abandoned else { throw AudioFileError(.misuse, "the FLAC file is already finished", path: output.path) }
        guard let input = frames.baseAddress else { return }
        let total = frames.count / channels
        var done = 0
        while done < total {
            let n = min(Self.stagingFrames, total - done)
            let from = input + done * channels
            if bits == 16 {
                for i in 0..<(n * channels) { staging[i] = FLAC__int32(from[i].int16) }
            } else {
                for i in 0..<(n * channels) { staging[i] = from[i].int24 }
            }
            guard FLAC__stream_encoder_process_interleaved(encoder, staging, UInt32(n)) != 0 else { throw failure("encoding") }
            done += n
            framesWritten += Int64(n)
        }
    }

    /// Every frame libFLAC has encoded is already in the file (only the block being gathered is not), so a
    /// commit is a sync when asked for.
    func commit() throws { try output.commit(synchronizing: options.synchronizeOnCommit) }

    func finish() throws {
        guard let encoder, !finished, !abandoned else { return }
        finished = true
        let ok = FLAC__stream_encoder_finish(encoder) != 0
        defer { FLAC__stream_encoder_delete(encoder); self.encoder = nil }
        guard ok else { throw failure("finishing (the last frame and STREAMINFO's total samples and MD5)") }
    }

    func abandon() {
        guard let encoder else { return }
        abandoned = true
        // libFLAC's delete finishes the stream; with the callbacks refusing, nothing more reaches the file.
        FLAC__stream_encoder_delete(encoder)
        self.encoder = nil
    }

    private func failure(_ doing: String) -> AudioFileError {
        if let failure = output.failure { return failure }
        let text = encoder.flatMap { FLAC__stream_encoder_get_resolved_state_string($0) }.map { String(cString: $0) } ?? "?"
        return AudioFileError(.io, "libFLAC failed \(doing): \(text)", path: output.path)
    }

    fileprivate func writeBytes(_ buffer: UnsafePointer<FLAC__byte>, _ count: Int) -> Bool {
        !abandoned && output.write(buffer, count: count)
    }

    /// Ogg FLAC's finish reads back the first page to rewrite STREAMINFO in it.
    fileprivate func readBytes(_ buffer: UnsafeMutablePointer<FLAC__byte>, _ count: Int) -> Int? {
        guard !abandoned else { return nil }
        let available = Int(max(0, min(Int64(count), output.length - output.position)))
        guard available > 0 else { return 0 }
        guard let n = try? output.file.read(into: buffer, count: available, at: output.position) else { return nil }
        _ = output.seek(Int64(n), whence: 1)
        return n
    }

}

// MARK: libFLAC's callbacks (C function pointers capturing nothing; the writer is the client data)

private func flacWriter(_ client: UnsafeMutableRawPointer?) -> FLACFileWriter {
    Unmanaged<FLACFileWriter>.fromOpaque(client!).takeUnretainedValue()
}

private var flacEncoderWrite: FLAC__StreamEncoderWriteCallback { { _, buffer, bytes, _, _, client in
    guard let buffer else { return FLAC__STREAM_ENCODER_WRITE_STATUS_FATAL_ERROR }
    return flacWriter(client).writeBytes(buffer, bytes) ? FLAC__STREAM_ENCODER_WRITE_STATUS_OK : FLAC__STREAM_ENCODER_WRITE_STATUS_FATAL_ERROR
} }

private var flacEncoderSeek: FLAC__StreamEncoderSeekCallback { { _, offset, client in
    let writer = flacWriter(client)
    guard !writer.abandoned, writer.output.seek(Int64(offset), whence: 0) != nil else { return FLAC__STREAM_ENCODER_SEEK_STATUS_ERROR }
    return FLAC__STREAM_ENCODER_SEEK_STATUS_OK
} }

private var flacEncoderTell: FLAC__StreamEncoderTellCallback { { _, offset, client in
    offset?.pointee = UInt64(flacWriter(client).output.position)
    return FLAC__STREAM_ENCODER_TELL_STATUS_OK
} }

private var flacEncoderRead: FLAC__StreamEncoderReadCallback { { _, buffer, bytes, client in
    guard let buffer, let bytes, let n = flacWriter(client).readBytes(buffer, Int(bytes.pointee)) else {
        return FLAC__STREAM_ENCODER_READ_STATUS_ABORT
    }
    bytes.pointee = n
    return n == 0 ? FLAC__STREAM_ENCODER_READ_STATUS_END_OF_STREAM : FLAC__STREAM_ENCODER_READ_STATUS_CONTINUE
} }
