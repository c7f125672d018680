/// Which codec library reads, writes and streams which compressed file: the one table `AudioFile` and
/// `AudioFileStream` consult for the library containers (and CAF holding Apple Lossless or AAC).
enum CodecLibrary {
    /// Bytes of the file's start that `sniff` needs.
    static let sniffBytes = 64

    /// The library container `head` starts with, judged by content (RFC 9639 "fLaC"; RFC 3533 "OggS";
    /// ID3v2 "ID3" or an MPEG audio frame sync with layer III; an ADTS sync (ISO/IEC 13818-7, layer 00);
    /// ISO/IEC 14496-12 "ftyp" box), or nil.
    static func sniff(_ head: [UInt8]) -> AudioFileType? {
        guard head.count >= 4 else { return nil }
        if head.starts(with: Array("fLaC".utf8)) { return .flac }
        if head.starts(with: Array("OggS".utf8)) { return .ogg }
        if head.starts(with: Array("ID3".utf8)) { return .mp3 }
        if head.count >= 8, head[4...7].elementsEqual("ftyp".utf8) { return .m4a }
        if head[0] == 0xFF && head[1] & 0xE0 == 0xE0 {
            let layer = (head[1] >> 1) & 0x3
            if head[1] & 0xF0 == 0xF0 && layer == 0 { return .adts }   // 12-bit sync, layer '00': ADTS
            if layer == 1 { return .mp3 }                               // '01': Layer III
        }
        return nil
    }

    /// `sniff`, looking past an ID3v2 tag in front (ID3v2.4.0 section 3.1), which taggers put on FLAC and ADTS
    /// files too (libFLAC and FFmpeg skip it): the bytes after the tag decide, MP3 when they say nothing else.
    /// `read(offset, count)` fetches bytes of the file beyond `head`.
    static func sniff(_ head: [UInt8], reading read: (Int64, Int) throws -> [UInt8]) rethrows -> AudioFileType? {
        guard let tag = ID3v2Header(head) else { return sniff(head) }
        let after = try read(Int64(tag.totalLength), 4)
        switch sniff(after) {
        case .flac: return .flac
        case .adts: return .adts
        default: return .mp3
        }
    }

    /// What an Ogg file's first packet says it carries (RFC 7845 "OpusHead"; the Ogg FLAC mapping's
    /// 0x7F "FLAC"), or nil.
    static func oggCodec(_ head: [UInt8]) -> AudioFormatID? {
        // RFC 3533: 27 bytes of page header, then the segment table; the first packet follows it.
        guard head.count > 27 else { return nil }
        let start = 27 + Int(head[26])
        guard head.count >= start + 8 else { return nil }
        let packet = head[start...]
        if packet.starts(with: Array("OpusHead".utf8)) { return .opus }
        if packet.starts(with: [0x7F] + Array("FLAC".utf8)) { return .flac }
        return nil
    }

    /// Opens the decoder for a library container (or a CAF whose data format is a library codec).
    static func reader(_ input: LibraryInput, type: AudioFileType, head: [UInt8]) throws -> any CompressedFileReader {
        switch type {
        case .flac: return try FLACFileReader(input, ogg: false)
        case .ogg:
            switch oggCodec(head) {
            case .opus: return try OpusFileReader(input)
            case .flac: return try FLACFileReader(input, ogg: true)
            default: throw AudioFileError(.unsupported, "this Ogg file holds neither Opus nor FLAC (the only Ogg codecs supported)", offset: 0)
            }
        case .mp3: return try MP3FileReader(input)
        case .adts, .m4a, .caf: return try FFmpegFileReader(input, type: type)
        case .wave, .rf64, .aiff, .aifc:
            throw AudioFileError(.unsupported, "\(type) holds no library codec", offset: 0)
        }
    }

    /// Creates the encoder for `format` in a `type` container (pairing already checked by `refusal(for:)`).
    static func writer(_ output: LibraryOutput, type: AudioFileType, format: StreamFormat,
                       options: AudioFileWriteOptions) throws -> any CompressedFileWriter {
        switch format.formatID {
        case .flac: return try FLACFileWriter(output, format: format, options: options, ogg: type == .ogg)
        case .opus: return try OpusFileWriter(output, format: format, options: options)
        case .appleLossless: return try FFmpegFileWriter(output, type: type, format: format, options: options)
        default:
            throw AudioFileError(.unsupported, "\(format.formatID) can be read but not written here (encoders: FLAC, Opus, Apple Lossless)")
        }
    }

    /// The push parser for a library container's stream (nil: the format cannot be parsed without seeking,
    /// as MP4 with its index at the end).
    static func streamParser(for type: AudioFileType) -> (any CompressedStreamParser)? {
        switch type {
        case .flac: FLACStreamParser()
        case .ogg: OggStreamParser()
        case .mp3: MP3StreamParser()
        case .adts: ADTSStreamParser()
        case .m4a, .caf, .wave, .rf64, .aiff, .aifc: nil
        }
    }

    /// The decoder for packets of `format` (with the stream's magic cookie, when it has one).
    static func packetDecoder(format: StreamFormat, magicCookie: [UInt8]) throws -> any CompressedPacketDecoder {
        switch format.formatID {
        case .flac: return try FLACPacketDecoder(format: format, magicCookie: magicCookie)
        case .mpegLayer3: return try MP3PacketDecoder(format: format)
        case .opus: return try OpusPacketDecoder(format: format, magicCookie: magicCookie)
        case .mpeg4AAC, .appleLossless: return try FFmpegPacketDecoder(format: format, magicCookie: magicCookie)
        default: throw AudioFileError(.unsupported, "\(format.formatID) is not a library codec")
        }
    }
}
