import CMPG123

/// One libmpg123 decoder handle, quiet (errors come back as values, never printed), with signed 32-bit
/// integer output (full scale 2^31, which `Fixed824(int32:)` rounds to 8.24) at the `rates` and channel counts
/// given. The file reader and the packet decoder each own one.
final class MPG123Handle {
    let raw: OpaquePointer

    /// Every sampling frequency of ISO/IEC 11172-3 and 13818-3 (and MPEG-2.5).
    static let allRates = [8000, 11025, 12000, 16000, 22050, 24000, 32000, 44100, 48000]

    /// - Parameters:
    ///   - gapless: remove the encoder delay and padding the LAME/Xing tag declares (files only: a stream has
    ///     no end to trim, and its packets come without the tag's frame).
    ///   - rates, channels: the output formats allowed; a mono stream is duplicated when only 2 channels are.
    init(gapless: Bool, rates: [Int] = allRates, channels: [Int] = [1, 2]) throws {
        var error: Int32 = 0
        guard let handle = mpg123_new(nil, &error) else {
            throw AudioFileError(.unsupported, "libmpg123 cannot make a decoder: \(String(cString: mpg123_plain_strerror(error)))")
        }
        raw = handle
        let gaplessFlag = Int(MPG123_GAPLESS.rawValue)
        try check(mpg123_param2(handle, Int32(MPG123_ADD_FLAGS.rawValue), Int(MPG123_QUIET.rawValue) | (gapless ? gaplessFlag : 0),
                                      0), "set its flags")
        if !gapless { try check(mpg123_param2(handle, Int32(MPG123_REMOVE_FLAGS.rawValue), gaplessFlag, 0), "turn gapless off") }
        // Garbage between frames of any length is skipped to the next frame (the default gives up after 1 kB).
        try check(mpg123_param2(handle, Int32(MPG123_RESYNC_LIMIT.rawValue), -1, 0), "set its resync limit")
        try check(mpg123_format_none(handle), "clear its output formats")
        let channelMask = channels.reduce(Int32(0)) { $0 | ($1 == 1 ? Int32(MPG123_MONO.rawValue) : Int32(MPG123_STEREO.rawValue)) }
        for rate in rates {
            try check(mpg123_format(handle, rate, channelMask, Int32(MPG123_ENC_SIGNED_32.rawValue)), "accept 32-bit output at \(rate) Hz")
        }
    }

    deinit { mpg123_delete(raw) }

    /// The handle's last error, as libmpg123 words it.
    var lastError: String { String(cString: mpg123_strerror(raw)) }

    /// Throws unless `result` is MPG123_OK.
    func check(_ result: Int32, _ what: String) throws {
        guard result == MPG123_OK.rawValue else {
            throw AudioFileError(.unsupported, "libmpg123 could not \(what): \(lastError)")
        }
    }
}
