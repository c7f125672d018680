/// The container (Core Audio's `AudioFileTypeID`). The data format inside is a separate `StreamFormat`.
public enum AudioFileType: String, Sendable, CaseIterable, CustomStringConvertible {
    /// RIFF WAVE; becomes RF64 by itself if it outgrows 4 GiB while being written.
    case wave = "WAVE"
    /// RF64 (EBU Tech 3306) / BW64: WAV with 64-bit sizes.
    case rf64 = "RF64"
    case aiff = "AIFF"
    case aifc = "AIFC"
    case caf = "caff"
    // Containers a codec library parses (Queue/Codecs); the codes are Core Audio's AudioFileTypeIDs where it
    // has one (kAudioFileFLACType, kAudioFileMP3Type, kAudioFileAAC_ADTSType, kAudioFileM4AType).
    /// Native FLAC ("fLaC" stream, RFC 9639).
    case flac = "flac"
    /// Ogg (RFC 3533) holding Opus (RFC 7845) or FLAC (Ogg FLAC mapping).
    case ogg = "OggS"
    /// MPEG audio elementary stream, optionally with ID3v2 tags in front.
    case mp3 = "MPG3"
    /// AAC in ADTS frames (ISO/IEC 13818-7).
    case adts = "adts"
    /// MPEG-4 audio file (ISO/IEC 14496-12/-14): AAC or Apple Lossless.
    case m4a = "m4af"

    public var description: String {
        switch self {
        case .wave: "WAVE"
        case .rf64: "RF64"
        case .aiff: "AIFF"
        case .aifc: "AIFF-C"
        case .caf: "CAF"
        case .flac: "FLAC"
        case .ogg: "Ogg"
        case .mp3: "MP3"
        case .adts: "AAC (ADTS)"
        case .m4a: "MPEG-4 (M4A)"
        }
    }

    /// The type a file name's extension suggests (a hint only: the content decides when they disagree).
    public init?(pathExtension: String) {
        switch pathExtension.lowercased() {
        case "wav", "wave", "bwf": self = .wave
        case "rf64", "bw64": self = .rf64
        case "aif", "aiff": self = .aiff
        case "aifc": self = .aifc
        case "caf": self = .caf
        case "flac": self = .flac
        case "ogg", "oga", "opus": self = .ogg
        case "mp3": self = .mp3
        case "aac", "adts": self = .adts
        case "m4a", "mp4", "m4b", "alac": self = .m4a
        default: return nil
        }
    }

    /// The type named on a command line ("wav", "aiff", "aifc", "caf", "rf64").
    public init?(name: String) {
        if let type = AudioFileType(pathExtension: name) { self = type; return }
        switch name.lowercased() {
        case "aiff-c": self = .aifc
        case "caff": self = .caf
        default: return nil
        }
    }

    /// The container family (RIFF: WAV and RF64; AIFF: AIFF and AIFF-C; CAF).
    public var family: Family {
        switch self {
        case .wave, .rf64: .riff
        case .aiff, .aifc: .aiff
        case .caf: .caf
        case .flac, .ogg, .mp3, .adts, .m4a: .library
        }
    }

    /// `library`: a container whose parsing, like its codec, belongs to a codec library (Queue/Codecs).
    public enum Family: Sendable { case riff, aiff, caf, library }

    /// Why `format` cannot go in this container, or nil when it can.
    public func refusal(for format: StreamFormat) -> String? {
        let bits = format.bitsPerChannel
        if family == .library || format.formatID.isLibraryCodec { return libraryRefusal(for: format) }
        switch (family, format.formatID) {
        case (.riff, .linearPCM):
            if format.isBigEndian && bits > 8 { return "\(self) stores little-endian samples only" }
            if bits == 8 && format.isSignedInteger { return "\(self) stores 8-bit samples unsigned" }
            return nil
        case (.riff, .muLaw), (.riff, .aLaw), (.riff, .microsoftIMAADPCM): return nil
        case (.riff, .appleIMA4): return "\(self) cannot hold Apple IMA4; use IMA ADPCM (Microsoft) in WAV, or IMA4 in CAF or AIFF-C"
        case (.aiff, .linearPCM) where self == .aiff:
            if format.isFloat { return "AIFF holds integer samples only; use AIFF-C for float" }
            if !format.isBigEndian && bits > 8 { return "AIFF stores big-endian samples only; use AIFF-C ('sowt') for little-endian 16-bit" }
            if !format.isSignedInteger { return "AIFF stores signed samples only" }
            return nil
        case (.aiff, _) where self == .aiff:
            return "AIFF holds uncompressed samples only; use AIFF-C for \(format.formatID)"
        case (.aiff, .linearPCM):
            if !format.isFloat && !format.isSignedInteger { return "AIFF-C stores signed integer samples only" }
            if !format.isBigEndian && bits > 8 && !(bits == 16 && !format.isFloat) {
                return "AIFF-C stores little-endian samples only as 16-bit 'sowt'"
            }
            return nil
        case (.aiff, .muLaw), (.aiff, .aLaw), (.aiff, .appleIMA4): return nil
        case (.aiff, .microsoftIMAADPCM): return "AIFF-C cannot hold Microsoft IMA ADPCM; use IMA4"
        case (.caf, .microsoftIMAADPCM): return "CAF cannot hold Microsoft IMA ADPCM; use IMA4"
        case (.caf, .linearPCM):
            return !format.isFloat && !format.isSignedInteger && bits == 8 ? "CAF stores 8-bit samples signed" : nil
        case (.caf, _): return nil
        default: return libraryRefusal(for: format)   // a library codec, or a library container
        }
    }

    /// The pairings of container and library codec that exist (what each container's spec allows).
    private func libraryRefusal(for format: StreamFormat) -> String? {
        let allowed: [AudioFormatID] = switch self {
        case .flac: [.flac]
        case .ogg: [.opus, .flac]
        case .mp3: [.mpegLayer3]
        case .adts: [.mpeg4AAC]
        case .m4a: [.mpeg4AAC, .appleLossless]
        case .caf: [.appleLossless, .mpeg4AAC, .opus, .flac]
        case .wave, .rf64, .aiff, .aifc: []
        }
        if allowed.contains(format.formatID) { return nil }
        if allowed.isEmpty { return "\(self) cannot hold \(format.formatID); use \(Self.containers(for: format.formatID))" }
        return "\(self) holds \(allowed.map(\.description).joined(separator: " or ")), not \(format.formatID)"
    }

    /// Where a library codec's data goes (for messages).
    static func containers(for id: AudioFormatID) -> String {
        switch id {
        case .flac: "FLAC or Ogg"
        case .mpegLayer3: "MP3"
        case .opus: "Ogg"
        case .mpeg4AAC: "M4A or ADTS"
        case .appleLossless: "CAF or M4A"
        default: "WAV, AIFF-C or CAF"
        }
    }
}
