/// The 32-bit header in front of every MPEG audio frame, Layer III only (the layer `.mpegLayer3` names), as
/// ISO/IEC 11172-3 section 2.4.2.3 (MPEG-1) and ISO/IEC 13818-3 section 2.4.2.3 (MPEG-2 low sampling
/// frequencies) define it, with the MPEG-2.5 extension (version bits '00', 11025/12000/8000 Hz) that every
/// decoder accepts. It tells the frame's length, so a stream can be cut into frames without decoding.
struct MPEGAudioFrameHeader: Equatable {
    enum Version: Equatable { case mpeg1, mpeg2, mpeg25 }

    let version: Version
    let bitRate: Int
    let sampleRate: Int
    let channels: Int
    let hasPadding: Bool

    /// Layer III bit rates in kbit/s by bitrate_index 1 ... 14 (0 is free format, 15 forbidden):
    /// ISO/IEC 11172-3 table 2.4.2.3 (MPEG-1) and ISO/IEC 13818-3 table 2.4.2.3 (MPEG-2 and 2.5).
    private static let mpeg1BitRates = [0, 32, 40, 48, 56, 64, 80, 96, 112, 128, 160, 192, 224, 256, 320]
    private static let mpeg2BitRates = [0, 8, 16, 24, 32, 40, 48, 56, 64, 80, 96, 112, 128, 144, 160]
    /// sampling_frequency 0 ... 2 (3 reserved), in Hz: the same tables (MPEG-2.5 halves MPEG-2's rates).
    private static let sampleRates: [Version: [Int]] = [
        .mpeg1: [44100, 48000, 32000], .mpeg2: [22050, 24000, 16000], .mpeg25: [11025, 12000, 8000],
    ]

    /// The header in the 4 bytes at `bytes[offset...]`, or nil when they are not a Layer III frame header this
    /// code can cut (no sync, reserved version, another layer, free format, forbidden bit rate or sample rate,
    /// reserved emphasis).
    init?(_ bytes: UnsafeRawBufferPointer, at offset: Int) {
        guard offset >= 0, offset + 4 <= bytes.count else { return nil }
        let b1 = bytes[offset + 1], b2 = bytes[offset + 2], b3 = bytes[offset + 3]
        guard bytes[offset] == 0xFF, b1 & 0xE0 == 0xE0 else { return nil }   // 11 sync bits
        switch (b1 >> 3) & 0x3 {
        case 0b11: version = .mpeg1
        case 0b10: version = .mpeg2
        case 0b00: version = .mpeg25
        default: return nil
        }
        guard (b1 >> 1) & 0x3 == 0b01 else { return nil }                        // layer '01': Layer III
        let bitRateIndex = Int(b2 >> 4)
        let rateIndex = Int((b2 >> 2) & 0x3)
        guard bitRateIndex != 0, bitRateIndex != 15, rateIndex != 3, b3 & 0x3 != 0b10 else { return nil }
        bitRate = (version == .mpeg1 ? Self.mpeg1BitRates : Self.mpeg2BitRates)[bitRateIndex] * 1000
        sampleRate = Self.sampleRates[version]![rateIndex]
        hasPadding = (b2 >> 1) & 0x1 == 1
        channels = b3 >> 6 == 0b11 ? 1 : 2                                       // mode '11': single channel
    }

    /// Samples per channel in one frame: 1152 for MPEG-1 Layer III, 576 for MPEG-2 and 2.5 (ISO/IEC 13818-3
    /// section 2.4.3.1: one granule per frame instead of two).
    var samplesPerFrame: Int { version == .mpeg1 ? 1152 : 576 }

    /// The frame's length in bytes, header included: 144 (MPEG-1) or 72 (MPEG-2, 2.5) x bit rate / sample rate,
    /// rounded down, plus one padding byte (ISO/IEC 11172-3 section 2.4.3.1, 13818-3 section 2.4.3.1).
    var frameLength: Int { samplesPerFrame / 8 * bitRate / sampleRate + (hasPadding ? 1 : 0) }

    /// The side information's length, which the Xing/Info tag follows: 32 or 17 bytes (MPEG-1 stereo / mono),
    /// 17 or 9 (MPEG-2 and 2.5), after the header and its CRC (ISO/IEC 11172-3 2.4.1.7, 13818-3 2.4.1.7).
    var sideInfoLength: Int {
        switch (version == .mpeg1, channels == 1) {
        case (true, false): 32
        case (true, true), (false, false): 17
        case (false, true): 9
        }
    }

    /// Whether `other` can belong to the same stream: same version, sample rate and channel count (the bit
    /// rate, padding and stereo mode may change from frame to frame).
    func continues(_ other: MPEGAudioFrameHeader) -> Bool {
        version == other.version && sampleRate == other.sampleRate && channels == other.channels
    }
}
