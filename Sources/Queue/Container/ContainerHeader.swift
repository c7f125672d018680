/// What a container parser found: the data format and where the audio bytes are, plus markers and metadata.
struct ContainerHeader {
    var fileType: AudioFileType
    var format: StreamFormat
    /// Offset of the first audio byte.
    var dataOffset: Int64
    /// Audio bytes as the header declares them; nil when unknown (CAF size -1, streaming WAV placeholders).
    var declaredDataByteCount: Int64?
    /// Frames the header says are valid (WAV `fact`, AIFF `COMM`, CAF `pakt`), when it says.
    var validFrameCount: Int64?
    var markers: [AudioFileMarker] = []
    var metadata = AudioFileMetadata()
    /// Where the chunk after the audio data would start by the declared size (nil: data runs to the end).
    var dataChunkEnd: Int64? { declaredDataByteCount.map { dataOffset + $0 } }
    /// Field offsets a writer or repair updates.
    var sizeFields = SizeFields()

    struct SizeFields {
        var dataSizeField: Int64 = 0
        var factSampleCountField: Int64?
        var ds64Field: Int64?
        var commFramesField: Int64?
        var ssndOffset: UInt32 = 0
    }
}

/// Sniffs the container from the first 12 bytes.
enum ContainerProbe {
    static func fileType(of head: [UInt8]) -> AudioFileType? {
        guard head.count >= 12 else { return nil }
        let magic = String(decoding: head[0..<4], as: UTF8.self)
        let form = String(decoding: head[8..<12], as: UTF8.self)
        switch (magic, form) {
        case ("RIFF", "WAVE"): return .wave
        case ("RF64", "WAVE"), ("BW64", "WAVE"): return .rf64
        case ("FORM", "AIFF"): return .aiff
        case ("FORM", "AIFC"): return .aifc
        default: return magic == "caff" ? .caf : nil
        }
    }

    /// Parses whichever container `source` holds (the hint is only used when the content says nothing).
    static func parse(_ source: ByteSource, hint: AudioFileType?, stopAtData: Bool) throws -> ContainerHeader {
        let head = try source.require(12, at: 0, for: "file header")
        guard let type = fileType(of: head) else {
            let what = hint.map { "not a \($0) file" } ?? "not a WAV, RF64, AIFF, AIFF-C or CAF file"
            throw AudioFileError(.notAudioFile, "\(what): it starts with \(printable(head[0..<4]))", offset: 0)
        }
        switch type.family {
        case .riff: return try WaveParser.parse(source, type: type, stopAtData: stopAtData)
        case .aiff: return try AIFFParser.parse(source, type: type, stopAtData: stopAtData)
        case .caf: return try CAFParser.parse(source, stopAtData: stopAtData)
        case .library: throw AudioFileError(.unsupported, "\(type) files are parsed by their codec library", offset: 0)
        }
    }

    static func printable(_ bytes: ArraySlice<UInt8>) -> String {
        if bytes.allSatisfy({ $0 >= 0x20 && $0 < 0x7F }) { return "'" + String(decoding: bytes, as: UTF8.self) + "'" }
        return bytes.map { String($0, radix: 16).count == 1 ? "0" + String($0, radix: 16) : String($0, radix: 16) }.joined(separator: " ")
    }

    /// The largest metadata chunk read into memory; bigger ones are skipped, never allocated for.
    static let maximumMetadataChunk: Int64 = 1 << 20
}
