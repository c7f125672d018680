/// What kind of data a stream carries (Core Audio's `AudioFormatID`): the codec, not the container.
/// The raw value is the four-character code Core Audio and CAF use.
public enum AudioFormatID: UInt32, Sendable, CaseIterable, CustomStringConvertible {
    /// Uncompressed samples; width, signedness, float and byte order are in `StreamFormat.flags`/`bitsPerChannel`.
    case linearPCM = 0x6C70_636D          // 'lpcm'
    /// G.711 mu-law, one byte per sample.
    case muLaw = 0x756C_6177              // 'ulaw'
    /// G.711 A-law, one byte per sample.
    case aLaw = 0x616C_6177               // 'alaw'
    /// Apple IMA4: 34-byte packets of 64 frames per channel (CAF, AIFF-C).
    case appleIMA4 = 0x696D_6134          // 'ima4'
    /// Microsoft IMA ADPCM (WAV format tag 0x0011): self-contained blocks of `bytesPerPacket` bytes.
    case microsoftIMAADPCM = 0x6D73_0011  // 'ms\0\x11', Core Audio's code for WAV tag 0x11
    // Compressed with variable packet sizes, decoded and encoded by a codec library (Queue/Codecs); the codes
    // are Core Audio's (CoreAudioBaseTypes.h: kAudioFormatFLAC, kAudioFormatMPEGLayer3, kAudioFormatOpus,
    // kAudioFormatMPEG4AAC, kAudioFormatAppleLossless).
    /// FLAC (libFLAC): lossless, frames of 192 ... 65535 samples.
    case flac = 0x666C_6163               // 'flac'
    /// MPEG-1/2 Layer III (libmpg123): 1152 (or 576) frames per packet.
    case mpegLayer3 = 0x2E6D_7033         // '.mp3'
    /// Opus (libopus via libopusfile/libopusenc): always decoded at 48 kHz, 120 ... 5760 frames per packet.
    case opus = 0x6F70_7573               // 'opus'
    /// MPEG-4 AAC-LC (FFmpeg's libavcodec): 1024 frames per packet.
    case mpeg4AAC = 0x6161_6320           // 'aac '
    /// Apple Lossless (FFmpeg's libavcodec): 4096 frames per packet by default.
    case appleLossless = 0x616C_6163      // 'alac'

    /// The four-character code as text ("lpcm").
    public var fourCC: String { FourCC.string(rawValue) }

    public var description: String {
        switch self {
        case .linearPCM: "Linear PCM"
        case .muLaw: "mu-law"
        case .aLaw: "A-law"
        case .appleIMA4: "IMA4 (Apple)"
        case .microsoftIMAADPCM: "IMA ADPCM (Microsoft)"
        case .flac: "FLAC"
        case .mpegLayer3: "MP3"
        case .opus: "Opus"
        case .mpeg4AAC: "AAC"
        case .appleLossless: "Apple Lossless"
        }
    }

    /// Whether packets vary in size and a codec library (Queue/Codecs) decodes them, rather than PacketCodec.
    public var isLibraryCodec: Bool {
        switch self {
        case .flac, .mpegLayer3, .opus, .mpeg4AAC, .appleLossless: true
        case .linearPCM, .muLaw, .aLaw, .appleIMA4, .microsoftIMAADPCM: false
        }
    }
}

/// Four-character codes as they appear in RIFF, AIFF and CAF headers.
enum FourCC {
    static func string(_ code: UInt32) -> String {
        let bytes = [UInt8(code >> 24), UInt8((code >> 16) & 0xFF), UInt8((code >> 8) & 0xFF), UInt8(code & 0xFF)]
        if bytes.allSatisfy({ $0 >= 0x20 && $0 < 0x7F }) { return String(decoding: bytes, as: UTF8.self) }
        return "0x" + String(code, radix: 16)
    }

    static func code(_ text: StaticString) -> UInt32 {
        precondition(text.utf8CodeUnitCount == 4)
        let p = text.utf8Start
        return UInt32(p[0]) << 24 | UInt32(p[1]) << 16 | UInt32(p[2]) << 8 | UInt32(p[3])
    }
}
