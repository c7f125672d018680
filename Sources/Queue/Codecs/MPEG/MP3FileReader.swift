import CMPG123
import Codec8_24

/// An MP3 file decoded by libmpg123, reading through `LibraryInput` (callbacks, never a path), gapless: the
/// encoder delay and padding of the LAME/Xing tag are removed by the library (MPG123_GAPLESS), so an album of
/// tracks plays as one unbroken signal. The length is exact (a full scan at open), seeks are sample-accurate,
/// output is signed 32-bit integer rounded to 8.24. A cut file plays to the cut, then throws `.truncated`; past
/// garbage libmpg123 resynchronises (it does not say how many bytes it skipped), and the file ends with
/// `.malformed` when fewer frames decode than its LAME tag promises. A tag that counts fewer frames than the
/// stream holds is not believed: all of them play.
final class MP3FileReader: CompressedFileReader {
    private let input: LibraryInput
    private let handle: MPG123Handle
    private(set) var info: CompressedFileInfo
    private let channels: Int
    /// The stream's last byte + 1 (an ID3v1 tag at the end excluded), and where a LAME tag says it should end.
    private let audioEnd: Int64
    private let declaredEnd: Int64?
    /// Frames that decode: `info.frameCount` unless the file no longer matches its LAME tag (cut or damaged),
    /// whose promised length `info.frameCount` then is, so that reading ends early with the error.
    private let playableFrames: Int64
    /// Frames at the start skipped here, when libmpg123 did not trim them itself (see `init`).
    private let startTrim: Int64
    /// Frames handed out since the start (or the last seek).
    private var position: Int64 = 0
    /// An error met after some frames were returned: thrown by the next `read`.
    private var pending: AudioFileError?

    /// `gapless: false` keeps the priming and padding (for comparison only: that is how a gap sounds).
    init(_ input: LibraryInput, gapless: Bool = true) throws {
        self.input = input
        let first = try Self.firstFrame(input)
        let lame = first.flatMap { first in first.bytes.withUnsafeBytes { LAMETag(frame: $0, header: first.header) } }
        let tail = input.length >= 128 ? try input.file.read(count: 3, at: input.length - 128) : []
        audioEnd = input.length - (tail == Array("TAG".utf8) ? 128 : 0)
        declaredEnd = if let first, let bytes = lame?.byteCount { first.offset + Int64(bytes) } else { nil }

        // libmpg123 trims the priming and padding itself (MPG123_GAPLESS) only where the LAME tag describes the
        // stream: a possible frame count, equal to the frames the scan finds. Elsewhere (a file cut short or
        // damaged, a damaged count, files joined end to end) the library cuts at the tag's count, even in the
        // middle of the stream: the file is opened again without its trimming, and the priming and padding are
        // trimmed here.
        var libraryTrims = gapless && (lame?.countHoldsDelayAndPadding ?? true)
        var handle = try Self.scanned(input, gapless: libraryTrims)
        // The MPEG frames the scan found (the tag's own frame excluded), with or without the library's trimming.
        let mpegFrames = Int64(mpg123_framelength(handle.raw))
        if libraryTrims, let lame, lame.encoder != nil, let tagFrames = lame.frameCount, Int64(tagFrames) != mpegFrames {
            libraryTrims = false
            handle = try Self.scanned(input, gapless: false)
        }
        self.handle = handle
        let h = handle.raw
        func failure(_ what: String) -> AudioFileError { Self.failure(what, handle, input) }
        var rate = 0, channelCount: Int32 = 0, encoding: Int32 = 0
        guard mpg123_getformat(h, &rate, &channelCount, &encoding) == MPG123_OK.rawValue else { throw failure("tell its format") }
        var length = Int64(mpg123_length(h))
        guard length >= 0 else { throw failure("tell its length") }
        var frame = mpg123_frameinfo2()
        guard mpg123_info2(h, &frame) == MPG123_OK.rawValue else { throw failure("read its first frame") }
        guard frame.layer == 3 else {
            throw AudioFileError(.unsupported, "MPEG audio layer \(frame.layer) is not supported (only Layer III, MP3)", offset: 0, path: input.path)
        }
        channels = Int(channelCount)

        let samplesPerFrame = frame.version == MPG123_1_0.rawValue ? 1152 : 576
        // The frames the LAME tag promises: its frame count times the frame's samples, less delay and padding.
        // A count that is impossible, or smaller than the frames the stream holds (a damaged tag, or files
        // joined end to end), promises nothing: every frame plays, as FFmpeg plays it. A larger count is a file
        // cut short or damaged, which plays to where it stops and then says so.
        let promisedFrames: Int64? = if let lame, let frames = lame.frameCount, lame.encoder != nil,
                                        lame.countHoldsDelayAndPadding, Int64(frames) >= mpegFrames {
            Int64(frames * samplesPerFrame - (gapless ? lame.encoderDelay + lame.padding : 0))
        } else { nil }
        // Where libmpg123 does not trim (above), or turned its trimming off itself, the priming is trimmed here,
        // so what plays stays in time with the intact file. The decoder adds 529 samples of its own delay (the
        // synthesis filter bank's, which LAME's delay field does not count and libmpg123's GAPLESS_DELAY and
        // FFmpeg's decoder both remove).
        var startTrim: Int64 = 0
        let trimmedByLibrary = mpegFrames * Int64(samplesPerFrame) - Int64((lame?.encoderDelay ?? 0) + (lame?.padding ?? 0))
        if gapless, let lame, lame.encoderDelay + lame.padding > 0, !libraryTrims || length != trimmedByLibrary {
            startTrim = Int64(lame.encoderDelay + 529)
            let isCut = (declaredEnd ?? 0) > audioEnd
            let endTrim = isCut ? 0 : Int64(max(lame.padding - 529, 0))
            length = max(length - startTrim - endTrim, 0)
            guard mpg123_seek(h, off_t(startTrim), 0) == startTrim else { throw failure("skip the encoder delay") }
        }
        self.startTrim = startTrim
        playableFrames = length
        let frameCount = length != promisedFrames ? promisedFrames ?? length : length
        let audioBytes = audioEnd - (first?.offset ?? 0) - Int64(lame == nil ? 0 : first?.bytes.count ?? 0)
        let bitRate: Int? = if frame.vbr == MPG123_CBR.rawValue {
            Int(frame.bitrate) * 1000
        } else if frameCount > 0 {
            Int(audioBytes * 8 * Int64(rate) / frameCount)
        } else { nil }
        info = CompressedFileInfo(
            fileType: .mp3,
            format: .compressed(.mpegLayer3, sampleRate: Double(rate), channels: channels, framesPerPacket: samplesPerFrame),
            frameCount: frameCount, encoderDelay: lame?.encoderDelay ?? 0, padding: lame?.padding ?? 0,
            bitRate: bitRate, encoder: lame?.encoder, metadata: Self.metadata(h))
    }

    func seek(toFrame frame: Int64) throws {
        guard (0...info.frameCount).contains(frame) else {
            throw AudioFileError(.misuse, "frame \(frame) is outside 0 ... \(info.frameCount)", path: input.path)
        }
        guard frame <= playableFrames else {   // past a cut: the next read says so
            pending = nil
            position = frame
            return
        }
        let reached = mpg123_seek(handle.raw, off_t(frame + startTrim), 0)   // SEEK_SET
        guard reached == frame + startTrim else {
            var error = input.failure ?? AudioFileError(.malformed, "libmpg123 cannot seek to frame \(frame): \(handle.lastError)")
            error.path = input.path
            throw error
        }
        pending = nil
        position = frame
    }

    func read(into buffer: UnsafeMutableBufferPointer<Fixed824>) throws -> Int {
        if let pending {
            self.pending = nil
            throw pending
        }
        let capacity = min(buffer.count / channels, Int(max(min(info.frameCount, playableFrames) - position, 0)))
        guard let base = buffer.baseAddress, buffer.count >= channels else { return 0 }
        if capacity == 0, let end = endOfAudio(at: position) { throw end }
        let frameBytes = 4 * channels
        var frames = 0
        var ended = false
        // Decoded straight into the caller's buffer as Int32 (the size and alignment of Fixed824), then
        // rounded to 8.24 in place.
        let samples = UnsafeMutableRawPointer(base)
        while frames < capacity, !ended {
            var done = 0
            let result = mpg123_read(handle.raw, samples + frames * frameBytes, (capacity - frames) * frameBytes, &done)
            frames += done / frameBytes
            switch result {
            case MPG123_OK.rawValue: continue
            case MPG123_NEW_FORMAT.rawValue:
                var rate = 0, channelCount: Int32 = 0, encoding: Int32 = 0
                mpg123_getformat(handle.raw, &rate, &channelCount, &encoding)
                if Int(channelCount) != channels || Double(rate) != info.format.sampleRate {
                    pending = damage(.unsupported, "the format changes to \(rate) Hz, \(channelCount) channels at frame \(position + Int64(frames))")
                    ended = true
                }
            case MPG123_DONE.rawValue:
                ended = true
                let end = position + Int64(frames)
                pending = endOfAudio(at: end) ?? (end < info.frameCount
                    ? AudioFileError(.truncated, "the audio ends at frame \(end) of \(info.frameCount)", offset: input.position, path: input.path) : nil)
            default:
                pending = damage(.malformed, "libmpg123 cannot decode after frame \(position + Int64(frames)): \(handle.lastError)")
                ended = true
            }
        }
        LibrarySamples.int32ToFixed824(base, count: frames * channels)
        position += Int64(frames)
        if frames == 0, let pending {
            self.pending = nil
            throw pending
        }
        return frames
    }

    func close() {
        mpg123_close(handle.raw)
    }

    /// What is wrong when the audio ends at frame `end`: a file shorter than its LAME tag says (cut), or fewer or
    /// more frames than it promises (damaged, resynchronised past garbage); nil for a whole file.
    private func endOfAudio(at end: Int64) -> AudioFileError? {
        // A file whose frames all decode is whole, even when its tag's byte count is off (some encoders count
        // their ID3 tags in).
        guard playableFrames != info.frameCount else { return nil }
        if let declaredEnd, declaredEnd > audioEnd {
            return AudioFileError(.truncated, "the file is cut short: its LAME tag promises \(declaredEnd) bytes of MPEG audio, it has \(audioEnd) (after frame \(end))",
                                  offset: audioEnd, path: input.path)
        }
        return AudioFileError(.malformed, "the audio is damaged: \(playableFrames) frames decode where the LAME tag promises \(info.frameCount) (libmpg123 skipped or guessed what it could not decode; stopped at frame \(end))",
                              path: input.path)
    }

    private func damage(_ kind: AudioFileError.Kind, _ message: String) -> AudioFileError {
        Self.error(kind, message, input)
    }

    /// An error met reading `input`: the file's own I/O error if a read callback met one, else `message`.
    private static func error(_ kind: AudioFileError.Kind, _ message: String, _ input: LibraryInput) -> AudioFileError {
        var error = input.failure ?? AudioFileError(kind, message, offset: input.position)
        error.path = input.path
        return error
    }

    /// A libmpg123 handle on `input` from its start: opened, held to the first frame's format (a false sync in
    /// damaged data that claims another sample rate or channel count is decoded into this format, not a format
    /// change of the file), and scanned (a full pass over the frames: the exact length, an accurate seek index).
    private static func scanned(_ input: LibraryInput, gapless: Bool) throws -> MPG123Handle {
        _ = input.seek(0, whence: 0)   // SEEK_SET
        let handle = try MPG123Handle(gapless: gapless)
        let h = handle.raw
        try handle.check(mpg123_replace_reader_handle(h, { io, buffer, count in
            guard let io, let buffer else { return -1 }
            return Unmanaged<LibraryInput>.fromOpaque(io).takeUnretainedValue().read(into: buffer, count: count)
        }, { io, offset, whence in
            guard let io else { return -1 }
            return Unmanaged<LibraryInput>.fromOpaque(io).takeUnretainedValue().seek(Int64(offset), whence: whence).map { off_t($0) } ?? -1
        }, nil), "take the file's read callbacks")
        guard mpg123_open_handle(h, Unmanaged.passUnretained(input).toOpaque()) == MPG123_OK.rawValue else {
            throw failure("open it", handle, input)
        }
        var rate = 0, channelCount: Int32 = 0, encoding: Int32 = 0
        guard mpg123_getformat(h, &rate, &channelCount, &encoding) == MPG123_OK.rawValue else {
            throw failure("find an MPEG audio frame in it", handle, input, .notAudioFile)
        }
        try handle.check(mpg123_format_none(h), "clear its output formats")
        try handle.check(mpg123_format(h, rate, channelCount, encoding), "keep the output format")
        guard mpg123_scan(h) == MPG123_OK.rawValue else { throw failure("scan its frames", handle, input) }
        return handle
    }

    /// The error of a libmpg123 call on `input` that failed.
    private static func failure(_ what: String, _ handle: MPG123Handle, _ input: LibraryInput,
                                _ kind: AudioFileError.Kind = .malformed) -> AudioFileError {
        error(kind, "libmpg123 cannot \(what): \(handle.lastError)", input)
    }

    /// Where the first frame starts (after an ID3v2 tag), its header and bytes, or nil when no frame followed by
    /// another valid header is found in the first 64 kB after the tag.
    private static func firstFrame(_ input: LibraryInput) throws -> (offset: Int64, header: MPEGAudioFrameHeader, bytes: [UInt8])? {
        var start: Int64 = 0
        while let tag = ID3v2Header(try input.file.read(count: ID3v2Header.length, at: start)) { start += Int64(tag.totalLength) }
        let window = try input.file.read(count: 65536 + 2 * 1441, at: start)
        return window.withUnsafeBytes { raw -> (Int64, MPEGAudioFrameHeader, [UInt8])? in
            for i in 0..<min(65536, raw.count) {
                guard let header = MPEGAudioFrameHeader(raw, at: i), let next = MPEGAudioFrameHeader(raw, at: i + header.frameLength),
                      header.continues(next) else { continue }
                return (start + Int64(i), header, Array(window[i..<(i + header.frameLength)]))
            }
            return nil
        }
    }

    /// Title, artist, album, track, date, comment and ReplayGain from the ID3v2 tag (text frames by their
    /// frame ID, TXXX by their description), or the ID3v1 tag when there is no ID3v2 one, through `TagNames`.
    private static func metadata(_ h: OpaquePointer) -> AudioFileMetadata {
        var metadata = AudioFileMetadata()
        var v1: UnsafeMutablePointer<mpg123_id3v1>?
        var v2: UnsafeMutablePointer<mpg123_id3v2>?
        guard mpg123_id3(h, &v1, &v2) == MPG123_OK.rawValue else { return metadata }
        if let tag = v2?.pointee {
            for i in 0..<tag.texts {
                let text = tag.text[i]
                TagNames.apply(withUnsafeBytes(of: text.id) { String(decoding: $0, as: UTF8.self) }, string(text.text), to: &metadata)
            }
            for i in 0..<tag.extras {
                TagNames.apply(string(tag.extra[i].description), string(tag.extra[i].text), to: &metadata)
            }
            for i in 0..<tag.comments where string(tag.comment_list[i].description).isEmpty {
                TagNames.apply("COMM", string(tag.comment_list[i].text), to: &metadata)
            }
        } else if var tag = v1?.pointee {
            func field<T>(_ value: inout T) -> String {
                withUnsafeBytes(of: &value) { String(decoding: $0.prefix { $0 != 0 }, as: UTF8.self) }
            }
            TagNames.apply("TITLE", field(&tag.title), to: &metadata)
            TagNames.apply("ARTIST", field(&tag.artist), to: &metadata)
            TagNames.apply("ALBUM", field(&tag.album), to: &metadata)
            TagNames.apply("YEAR", field(&tag.year), to: &metadata)
            TagNames.apply("COMMENT", field(&tag.comment), to: &metadata)
        }
        return metadata
    }

    private static func string(_ s: mpg123_string) -> String {
        guard let p = s.p, s.fill > 0 else { return "" }
        return String(cString: p)
    }
}
