import CFFmpeg

/// FFmpeg's libavutil, libavcodec and libavformat, opened with dlopen once, on first use (Swift runs a static
/// `let`'s initializer exactly once, thread-safely). A board without FFmpeg still runs; only AAC and Apple
/// Lossless fail to open, with a message naming the Debian packages to install.
final class FFmpegLibrary: @unchecked Sendable {   // immutable after load: the function table only
    /// The functions, resolved with dlsym.
    let api: CFFmpegFunctions

    private init(api: CFFmpegFunctions) { self.api = api }

    /// The sonames of the headers the firmware was built against (struct layouts match only that major).
    struct Sonames: Sendable {
        var avutil = "libavutil.so.\(cffmpeg_avutil_major())"
        var avcodec = "libavcodec.so.\(cffmpeg_avcodec_major())"
        var avformat = "libavformat.so.\(cffmpeg_avformat_major())"
    }

    private static let shared: Result<FFmpegLibrary, AudioFileError> = load(Sonames())

    /// The loaded library, or the error that says which package to install. `what` names the codec for the
    /// message ("AAC", "Apple Lossless").
    static func loaded(for what: String) throws -> FFmpegLibrary {
        switch shared {
        case .success(let library): return library
        case .failure(let error): throw error.naming(what)
        }
    }

    /// Opens the libraries by `sonames` (tests pass a soname that does not exist to see the message).
    static func load(_ sonames: Sonames) -> Result<FFmpegLibrary, AudioFileError> {
        var reason = [CChar](repeating: 0, count: 512)
        guard let loaded = cffmpeg_load(sonames.avutil, sonames.avcodec, sonames.avformat, &reason, reason.count) else {
            let major = cffmpeg_avcodec_major()
            let why = String(decoding: reason.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
            return .failure(AudioFileError(.unsupported, "needs FFmpeg's libavcodec\(major) (Debian: apt install libavcodec\(major) libavformat\(cffmpeg_avformat_major())): \(why)"))
        }
        let table = loaded.pointee
        cffmpeg_release(loaded)
        table.av_log_set_level(AV_LOG_QUIET)   // errors come back as our own messages, never on stderr
        table.av_max_alloc(largestAllocation)
        return .success(FFmpegLibrary(api: table))
    }

    /// The most FFmpeg may ask for in one allocation (av_max_alloc; its default is 2 GB). The MP4 demuxer sizes
    /// its packet index by what the sample tables claim, at once: a 466-byte M4A claiming 130 million frames
    /// made it allocate and fill 3.2 GB (ffprobe too), more than a board has. 256 MB holds the index of about
    /// 11 million AAC packets (24 bytes each: 70 hours at 44.1 kHz); past it, the file is refused.
    static let largestAllocation = 256 << 20

    /// FFmpeg's text for an error code (av_strerror).
    func message(_ code: Int32) -> String {
        var text = [CChar](repeating: 0, count: 128)
        _ = api.av_strerror(code, &text, text.count)
        return String(decoding: text.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
    }

    static let endOfFile = cffmpeg_error_eof()
    static let again = cffmpeg_error_again()
    static let noMemory = cffmpeg_error_no_memory()
    static let noTimestamp = cffmpeg_no_pts()
    /// Bytes FFmpeg may read past the end of a packet or extradata buffer (AV_INPUT_BUFFER_PADDING_SIZE).
    static let inputPadding = Int(AV_INPUT_BUFFER_PADDING_SIZE)
}

extension AudioFileError {
    /// The load failure with the codec named in front ("AAC needs FFmpeg's libavcodec61 (...)").
    fileprivate func naming(_ what: String) -> AudioFileError {
        AudioFileError(kind, "\(what) \(message)", offset: offset, path: path)
    }
}
