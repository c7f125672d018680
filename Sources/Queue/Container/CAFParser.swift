/// Reads Core Audio Format headers: `desc`, `chan`, `pakt`, `data` (including the unknown size -1 a crash-safe
/// writer leaves), `info`, `mark` markers and `regn` regions and loops with their `strg` names.
enum CAFParser {
    static let unknownSize: Int64 = -1
    /// kCAFMarkerType_RegionStart 'rbeg' and kCAFMarkerType_RegionEnd 'rend': a region's bounds in 'regn'.
    static let regionStart: UInt32 = 0x7262_6567
    static let regionEnd: UInt32 = 0x7265_6E64
    /// kCAFRegionFlag_LoopEnable and kCAFRegionFlag_PlayForward.
    static let regionLoopEnable: UInt32 = 1
    static let regionPlayForward: UInt32 = 2
    /// The largest chunk size believed (an exabyte): offsets computed from it cannot overflow. Applies to every
    /// chunk, the ones after the audio included (repair computed past Int64.max from a trailing chunk's size).
    static let maximumChunkSize: Int64 = Int64.max / 4

    static func parse(_ source: ByteSource, stopAtData: Bool) throws -> ContainerHeader {
        let head = FieldReader(try source.require(8, at: 0, for: "CAF file header"), at: 0, what: "CAF file header")
        let version = try head.u16be(4)
        guard version == 1 else { throw AudioFileError.unsupported("CAF version \(version) is not supported (only 1)", at: 4) }
        var offset: Int64 = 8
        var format: StreamFormat?
        var result: ContainerHeader?
        var validFrames: Int64?
        var metadata = AudioFileMetadata()
        var layout: ChannelLayout?
        var markerIDs: [(position: Int64, stringID: UInt32)] = []
        var regionIDs: [(start: Int64, length: Int64, stringID: UInt32, isLoop: Bool)] = []
        var strings: [UInt32: String] = [:]
        while true {
            if let length = source.length, offset + 12 > length { break }
            let chunk = FieldReader(try source.require(12, at: offset, for: "chunk header"), at: offset, what: "chunk header")
            let id = try chunk.cString(0, 4)
            let size = Int64(bitPattern: try chunk.u64be(4))
            let body = offset + 12
            // After the audio, a chunk header that cannot be one (damage, or bytes a writer left) ends the walk:
            // what follows the audio is metadata, and the audio is whole (FFmpeg plays such files too).
            if result != nil, size < 0 || size > maximumChunkSize { break }
            guard size >= 0 || (id == "data" && size == unknownSize) else {
                throw AudioFileError.malformed("chunk '\(id)' has a negative size \(size)", at: offset + 4)
            }
            guard size <= maximumChunkSize else { throw AudioFileError.malformed("chunk '\(id)' claims an impossible \(size) bytes", at: offset + 4) }
            if offset == 8 && id != "desc" { throw AudioFileError.malformed("the first chunk is '\(id)', CAF requires 'desc'", at: offset) }
            let small = size >= 0 && size <= ContainerProbe.maximumMetadataChunk
            switch id {
            case "desc":
                guard size >= 32 else { throw AudioFileError.malformed("the desc chunk is \(size) bytes, needs 32", at: offset) }
                format = try parseDescription(FieldReader(try source.require(32, at: body, for: "desc chunk"), at: body, what: "desc chunk"))
            case "chan" where small && size >= 12:
                // Channel labels only: a chan chunk that names no channels, or not the desc chunk's count, is
                // passed over (the standard layout for the count stands), as FFmpeg does, rather than refusing
                // the audio.
                layout = try? parseLayout(FieldReader(try source.require(Int(size), at: body, for: "chan chunk"), at: body, what: "chan chunk"))
            case "pakt" where size >= 24:
                let f = FieldReader(try source.require(24, at: body, for: "pakt chunk"), at: body, what: "pakt chunk")
                let valid = Int64(bitPattern: try f.u64be(8))
                if valid >= 0 { validFrames = valid }
            case "data":
                guard var found = format else { throw AudioFileError.malformed("the data chunk comes before the desc chunk", at: offset) }
                guard size == unknownSize || size >= 4 else { throw AudioFileError.malformed("the data chunk is \(size) bytes, needs its 4-byte edit count", at: offset) }
                if let layout, layout.channelCount == found.channelsPerFrame {
                    if found.channelsPerFrame >= 3 || layout != ChannelLayout.standard(channelCount: found.channelsPerFrame) { found.channelLayout = layout }
                }
                var header = ContainerHeader(fileType: .caf, format: found, dataOffset: body + 4,
                                             declaredDataByteCount: size == unknownSize ? nil : size - 4)
                header.sizeFields.dataSizeField = offset + 4
                result = header
                if stopAtData { header.validFrameCount = validFrames; return header }
            case "info" where small && size >= 4:
                let f = FieldReader(try source.require(Int(size), at: body, for: "info chunk"), at: body, what: "info chunk")
                let texts = splitStrings(f.bytes[4...])
                let count = min(Int(try f.u32be(0)), texts.count / 2)
                for i in 0..<count {
                    let value = texts[2 * i + 1]
                    switch texts[2 * i] {
                    case "title": metadata.title = value
                    case "artist": metadata.artist = value
                    case "recorded date": metadata.date = value
                    case "comments": metadata.comment = value
                    case "copyright": metadata.copyright = value
                    case "encoding application": metadata.software = value
                    default: break
                    }
                }
            case "mark" where small && size >= 8:
                let f = FieldReader(try source.require(Int(size), at: body, for: "mark chunk"), at: body, what: "mark chunk")
                let count = Int(try f.u32be(4))
                guard count <= (f.count - 8) / 28 else {
                    throw AudioFileError.malformed("the mark chunk claims \(count) markers but holds room for \((f.count - 8) / 28)", at: body + 4)
                }
                for i in 0..<count {
                    let at = 8 + 28 * i
                    let position = try f.f64be(at + 4)
                    guard position.isFinite, position >= 0, position < 9e18 else {
                        throw AudioFileError.malformed("marker \(i) is at frame \(position)", at: body + Int64(at) + 4)
                    }
                    markerIDs.append((Int64(position), try f.u32be(at + 12)))
                }
            case "regn" where small && size >= 8:
                let f = FieldReader(try source.require(Int(size), at: body, for: "regn chunk"), at: body, what: "regn chunk")
                regionIDs += try parseRegions(f)
            case "strg" where small && size >= 4:
                let f = FieldReader(try source.require(Int(size), at: body, for: "strg chunk"), at: body, what: "strg chunk")
                let count = Int(try f.u32be(0))
                guard count <= (f.count - 4) / 12 else {
                    throw AudioFileError.malformed("the strg chunk claims \(count) strings but holds room for \((f.count - 4) / 12)", at: body)
                }
                let textStart = 4 + 12 * count
                for i in 0..<count {
                    let stringID = try f.u32be(4 + 12 * i)
                    let start = Int64(bitPattern: try f.u64be(8 + 12 * i))
                    guard start >= 0, start < Int64(f.count - textStart) else {
                        throw AudioFileError.malformed("string \(stringID) starts outside the strg chunk", at: body + Int64(8 + 12 * i))
                    }
                    strings[stringID] = try f.cString(textStart + Int(start), f.count - textStart - Int(start))
                }
            default:
                break
            }
            if id == "data" {
                guard let declared = result?.declaredDataByteCount else { break }
                if let length = source.length, body + 4 + declared > length { break }
            }
            offset = body + size
        }
        guard var header = result else {
            if format == nil { throw AudioFileError.truncated("no desc chunk before the end of the file", at: offset) }
            throw AudioFileError.truncated("no data chunk before the end of the file", at: offset)
        }
        header.validFrameCount = validFrames
        header.metadata = metadata
        let markers = markerIDs.map { AudioFileMarker(framePosition: $0.position, name: strings[$0.stringID] ?? "") }
            + regionIDs.map { AudioFileMarker(framePosition: $0.start, name: strings[$0.stringID] ?? "", frameLength: $0.length, isLoop: $0.isLoop) }
        header.markers = markers.enumerated().sorted { ($0.element.framePosition, $0.offset) < ($1.element.framePosition, $1.offset) }.map(\.element)
        return header
    }

    /// The regions of a 'regn' chunk: each a header (ID, flags, marker count) and 28-byte markers, of which the
    /// RegionStart and RegionEnd give its bounds (a region without both is skipped); flag LoopEnable (1) a loop.
    static func parseRegions(_ f: FieldReader) throws -> [(start: Int64, length: Int64, stringID: UInt32, isLoop: Bool)] {
        let count = Int(try f.u32be(4))
        guard count <= (f.count - 8) / 12 else {
            throw AudioFileError.malformed("the regn chunk claims \(count) regions but holds room for \((f.count - 8) / 12)", at: f.base + 4)
        }
        var regions: [(start: Int64, length: Int64, stringID: UInt32, isLoop: Bool)] = []
        var at = 8
        for i in 0..<count {
            let id = try f.u32be(at)
            let isLoop = try f.u32be(at + 4) & regionLoopEnable != 0
            let markers = Int(try f.u32be(at + 8))
            guard markers <= (f.count - at - 12) / 28 else {
                throw AudioFileError.malformed("region \(i) claims \(markers) markers, more than the regn chunk holds", at: f.base + Int64(at + 8))
            }
            var start: Int64?, end: Int64?
            for m in 0..<markers {
                let offset = at + 12 + 28 * m
                let position = try f.f64be(offset + 4)
                guard position.isFinite, position >= 0, position < 9e18 else {
                    throw AudioFileError.malformed("region \(i) has a marker at frame \(position)", at: f.base + Int64(offset + 4))
                }
                switch try f.u32be(offset) {
                case regionStart: start = Int64(position)
                case regionEnd: end = Int64(position)
                default: break
                }
            }
            if let start, let end, end >= start { regions.append((start, end - start, id, isLoop)) }
            at += 12 + 28 * markers
        }
        return regions
    }

    static func splitStrings(_ bytes: ArraySlice<UInt8>) -> [String] {
        bytes.split(separator: 0, omittingEmptySubsequences: false).map { String(decoding: $0, as: UTF8.self) }
    }

    static func parseDescription(_ f: FieldReader) throws -> StreamFormat {
        let rate = try f.f64be(0)
        let formatID = try f.u32be(8)
        let flags = try f.u32be(12)
        let bytesPerPacket = Int(try f.u32be(16))
        let framesPerPacket = Int(try f.u32be(20))
        let channels = Int(try f.u32be(24))
        let bits = Int(try f.u32be(28))
        guard rate.isFinite, StreamFormat.sampleRateRange.contains(rate) else {
            throw AudioFileError.malformed("the sample rate \(rate) Hz is outside 1 Hz ... 1536 kHz", at: f.base)
        }
        guard (1...StreamFormat.maximumChannels).contains(channels) else {
            throw AudioFileError.malformed("\(channels) channels; 1 ... \(StreamFormat.maximumChannels) are supported", at: f.base + 24)
        }
        var format: StreamFormat
        switch AudioFormatID(rawValue: formatID) {
        case .linearPCM:
            let isFloat = flags & 1 != 0
            format = .linearPCM(sampleRate: rate, channels: channels, bits: bits, isFloat: isFloat,
                                isBigEndian: flags & 2 == 0, isSigned: true)
            if bytesPerPacket != format.bytesPerPacket || framesPerPacket != 1 {
                throw AudioFileError.malformed("lpcm with \(channels) channels of \(bits) bits cannot have \(bytesPerPacket)-byte packets of \(framesPerPacket) frames", at: f.base + 16)
            }
        case .muLaw: format = .muLaw(sampleRate: rate, channels: channels)
        case .aLaw: format = .aLaw(sampleRate: rate, channels: channels)
        case .appleIMA4: format = .appleIMA4(sampleRate: rate, channels: channels)
        case .appleLossless:
            // Apple's CAF spec: ALAC's mFormatFlags give the source depth (1: 16, 2: 20, 3: 24, 4: 32 bits).
            let depths = [1: 16, 2: 20, 3: 24, 4: 32]
            return .compressed(.appleLossless, sampleRate: rate, channels: channels, framesPerPacket: framesPerPacket,
                               bitsPerChannel: depths[Int(flags)] ?? 0)
        case .mpeg4AAC:
            return .compressed(.mpeg4AAC, sampleRate: rate, channels: channels, framesPerPacket: framesPerPacket)
        default:
            throw AudioFileError.unsupported("CAF data format '\(FourCC.string(formatID))' is not supported", at: f.base + 8)
        }
        if format.formatID != .linearPCM && (bytesPerPacket != format.bytesPerPacket || framesPerPacket != format.framesPerPacket) {
            throw AudioFileError.malformed("'\(format.formatID.fourCC)' for \(channels) channels has \(format.framesPerPacket) frames in \(format.bytesPerPacket) bytes per packet, desc says \(framesPerPacket) in \(bytesPerPacket)", at: f.base + 16)
        }
        do { try format.validate() } catch { throw AudioFileError.malformed("desc chunk: \(error.reason)", at: f.base) }
        return format
    }

    static let useChannelDescriptions: UInt32 = 0
    static let useChannelBitmap: UInt32 = 1 << 16

    static func parseLayout(_ f: FieldReader) throws -> ChannelLayout {
        let tag = try f.u32be(0)
        let bitmap = try f.u32be(4)
        let count = Int(try f.u32be(8))
        switch tag {
        case useChannelDescriptions:
            guard count <= (f.count - 12) / 20, count >= 1 else {
                throw AudioFileError.malformed("the chan chunk claims \(count) channel descriptions in \(f.count) bytes", at: f.base + 8)
            }
            return ChannelLayout(labels: try (0..<count).map { ChannelLabel(rawValue: try f.u32be(12 + 20 * $0)) })
        case useChannelBitmap:
            return ChannelLayout(waveChannelMask: bitmap, channelCount: bitmap.nonzeroBitCount)
        default:
            // A predefined layout tag: its low 16 bits are the channel count.
            let channels = Int(tag & 0xFFFF)
            guard channels >= 1 else { throw AudioFileError.malformed("channel layout tag 0x\(String(tag, radix: 16)) names 0 channels", at: f.base) }
            return .standard(channelCount: channels)
        }
    }
}
