/// The sample formats the render engine hands to a PCM device: interleaved, little-endian, the ones I2S
/// codecs and ALSA's plugins speak. `s24LE` is ALSA's S24_LE: 24 significant bits in the low bits of a
/// 32-bit container (not packed 3-byte S24_3LE).
public enum PCMSampleFormat: String, CaseIterable, Hashable, Sendable, CustomStringConvertible {
    case s16LE = "S16_LE"
    case s24LE = "S24_LE"
    case s32LE = "S32_LE"
    case float32LE = "FLOAT_LE"

    /// Bytes one sample takes in memory (the container, not the significant bits).
    public var bytesPerSample: Int {
        switch self {
        case .s16LE: 2
        case .s24LE, .s32LE, .float32LE: 4
        }
    }

    /// ALSA's name for the format, as `aplay -f` and the error messages spell it.
    public var alsaName: String { rawValue }

    /// The format with ALSA's name, if it is one of ours.
    public init?(alsaName: String) { self.init(rawValue: alsaName) }

    public var description: String { rawValue }
}

/// Which way samples flow through a PCM stream.
public enum PCMDirection: String, Hashable, Sendable, CustomStringConvertible {
    case playback
    case capture

    public var description: String { rawValue }
}
