/// Reads RIFF WAVE and RF64/BW64 headers: `fmt ` (PCM, float, A-law, mu-law, IMA ADPCM, WAVE_FORMAT_EXTENSIBLE),
/// `fact`, `ds64`, `data`, `LIST`/`INFO` metadata, `cue `/`LIST`/`adtl` markers and regions, and `smpl` loops.
enum WaveParser {
    static func parse(_ source: ByteSource, type: AudioFileType, stopAtData: Bool) throws -> ContainerHeader {
        let isRF64 = type == .rf64
        var offset: Int64 = 12
        var format: StreamFormat?
        var ds64: (data: UInt64, samples: UInt64)?
        var factSamples: (value: UInt32, field: Int64)?
        var ds64Field: Int64?
        var result: ContainerHeader?
        var cuePositions: [UInt32: Int64] = [:]
        var cueOrder: [UInt32] = []
        var labels: [UInt32: String] = [:]
        var lengths: [UInt32: Int64] = [:]
        var loops: [(cueID: UInt32, start: Int64, length: Int64)] = []
        var metadata = AudioFileMetadata()

        while true {
            if let length = source.length, offset + 8 > length { break }
            let chunk = FieldReader(try source.require(8, at: offset, for: "chunk header"), at: offset, what: "chunk header")
            let id = try chunk.cString(0, 4)
            let size = Int64(try chunk.u32le(4))
            let body = offset + 8
            switch id {
            case "ds64":
                guard isRF64 else { break }
                guard size >= 24 else { throw AudioFileError.malformed("the ds64 chunk is \(size) bytes, needs 24", at: offset) }
                let f = FieldReader(try source.require(24, at: body, for: "ds64 chunk"), at: body, what: "ds64 chunk")
                ds64 = (try f.u64le(8), try f.u64le(16))
                ds64Field = body
            case "fmt ":
                // The first fmt chunk describes the audio; another (a writer's leftover after the data, or damage
                // there) is passed over, as FFmpeg's WAV demuxer does, rather than refusing audio that is whole.
                guard format == nil else { break }
                guard size >= 16 else { throw AudioFileError.malformed("the fmt chunk is \(size) bytes, needs at least 16", at: offset) }
                let f = FieldReader(try source.require(Int(min(size, 1024)), at: body, for: "fmt chunk"), at: body, what: "fmt chunk")
                format = try parseFormat(f)
            case "fact":
                if size >= 4 {
                    let f = FieldReader(try source.require(4, at: body, for: "fact chunk"), at: body, what: "fact chunk")
                    factSamples = (try f.u32le(0), body)
                }
            case "data":
                guard var found = format else { throw AudioFileError.malformed("the data chunk comes before any fmt chunk", at: offset) }
                var declared: Int64? = size
                if isRF64 && size == 0xFFFF_FFFF {
                    guard let ds64 else { throw AudioFileError.malformed("RF64 data size is in a ds64 chunk, and there is none", at: offset) }
                    guard ds64.data <= UInt64(Int64.max / 2) else { throw AudioFileError.malformed("the ds64 data size \(ds64.data) is impossible", at: ds64Field ?? offset) }
                    declared = Int64(ds64.data)
                } else if try size == 0xFFFF_FFFF || (size == 0 && !looksLikeChunk(source, at: body)) {
                    declared = nil   // a streaming writer's placeholder: the data runs to the end
                }
                if found.channelsPerFrame >= 3 && found.channelLayout == nil { found.channelLayout = .standard(channelCount: found.channelsPerFrame) }
                var header = ContainerHeader(fileType: type, format: found, dataOffset: body, declaredDataByteCount: declared)
                header.sizeFields.dataSizeField = offset + 4
                header.sizeFields.factSampleCountField = factSamples?.field
                header.sizeFields.ds64Field = ds64Field
                if isRF64, let ds64, size == 0xFFFF_FFFF { header.validFrameCount = ds64.samples > 0 && found.formatID == .microsoftIMAADPCM ? Int64(clamping: ds64.samples) : nil }
                else if let factSamples, found.formatID == .microsoftIMAADPCM { header.validFrameCount = Int64(factSamples.value) }
                result = header
                if stopAtData { return header }
            case "LIST" where size >= 4 && size <= ContainerProbe.maximumMetadataChunk:
                let f = FieldReader(try source.require(Int(size), at: body, for: "LIST chunk"), at: body, what: "LIST chunk")
                try parseList(f, metadata: &metadata, labels: &labels, lengths: &lengths)
            case "smpl" where size >= 36 && size <= ContainerProbe.maximumMetadataChunk:
                loops += try parseSamplerLoops(FieldReader(try source.require(Int(size), at: body, for: "smpl chunk"), at: body, what: "smpl chunk"))
            case "cue " where size >= 4 && size <= ContainerProbe.maximumMetadataChunk:
                let f = FieldReader(try source.require(Int(size), at: body, for: "cue chunk"), at: body, what: "cue chunk")
                let count = Int(try f.u32le(0))
                guard count <= (f.count - 4) / 24 else {
                    throw AudioFileError.malformed("the cue chunk claims \(count) cue points but holds room for \((f.count - 4) / 24)", at: body)
                }
                for i in 0..<count {
                    let at = 4 + 24 * i
                    let cueID = try f.u32le(at)
                    if cuePositions[cueID] == nil { cueOrder.append(cueID) }
                    cuePositions[cueID] = Int64(try f.u32le(at + 20))
                }
            default:
                break
            }
            var next = body + size + (size & 1)
            if id == "data" {
                guard let declared = result?.declaredDataByteCount else { break }
                next = body + declared + (declared & 1)
                if let length = source.length, body + declared > length { break }
            }
            offset = next
        }
        guard var header = result else {
            if format == nil { throw AudioFileError.truncated("no fmt chunk before the end of the file", at: offset) }
            throw AudioFileError.truncated("no data chunk before the end of the file", at: offset)
        }
        header.metadata = metadata
        // A loop names its cue point: that cue is the loop (its label the loop's name), not a marker of its own.
        var loopByCue: [UInt32: (start: Int64, length: Int64)] = [:]
        for loop in loops where loopByCue[loop.cueID] == nil && cuePositions[loop.cueID] != nil { loopByCue[loop.cueID] = (loop.start, loop.length) }
        header.markers = cueOrder.map { id in
            if let loop = loopByCue[id] { return AudioFileMarker(framePosition: loop.start, name: labels[id] ?? "", frameLength: loop.length, isLoop: true) }
            return AudioFileMarker(framePosition: cuePositions[id] ?? 0, name: labels[id] ?? "", frameLength: lengths[id])
        } + loops.filter { cuePositions[$0.cueID] == nil }.map {
            AudioFileMarker(framePosition: $0.start, name: "", frameLength: $0.length, isLoop: true)
        }
        return header
    }

    /// The loops of a `smpl` chunk (36-byte header, then 24-byte loops: cue point ID, type, start, end, fraction,
    /// play count; the end sample is played too, so a loop spans end - start + 1 frames).
    static func parseSamplerLoops(_ f: FieldReader) throws -> [(cueID: UInt32, start: Int64, length: Int64)] {
        let count = Int(try f.u32le(28))
        guard count <= (f.count - 36) / 24 else {
            throw AudioFileError.malformed("the smpl chunk claims \(count) loops but holds room for \((f.count - 36) / 24)", at: f.base + 28)
        }
        var loops: [(cueID: UInt32, start: Int64, length: Int64)] = []
        for i in 0..<count {
            let at = 36 + 24 * i
            let start = Int64(try f.u32le(at + 8)), end = Int64(try f.u32le(at + 12))
            if end >= start { loops.append((try f.u32le(at), start, end - start + 1)) }
        }
        return loops
    }

    /// Whether the 8 bytes at `offset` look like a chunk header (four printable characters) rather than audio.
    static func looksLikeChunk(_ source: ByteSource, at offset: Int64) throws -> Bool {
        guard let b = try source.bytes(at: offset, count: 4) else { return false }
        return b.count == 4 && b.allSatisfy { $0 >= 0x20 && $0 < 0x7F }
    }

    static func parseFormat(_ f: FieldReader) throws -> StreamFormat {
        let tag = try f.u16le(0)
        let channels = Int(try f.u16le(2))
        let rate = Double(try f.u32le(4))
        let blockAlign = Int(try f.u16le(12))
        let bits = Int(try f.u16le(14))
        guard channels >= 1 else { throw AudioFileError.malformed("the fmt chunk says 0 channels", at: f.base + 2) }
        var effectiveTag = tag
        var mask: UInt32 = 0
        if tag == 0xFFFE {
            guard f.count >= 40, try f.u16le(16) >= 22 else {
                throw AudioFileError.malformed("WAVE_FORMAT_EXTENSIBLE needs a 40-byte fmt chunk (this one is \(f.count))", at: f.base)
            }
            mask = try f.u32le(20)
            effectiveTag = try f.u16le(24)
            let guidTail: [UInt8] = [0x00, 0x00, 0x00, 0x00, 0x10, 0x00, 0x80, 0x00, 0x00, 0xAA, 0x00, 0x38, 0x9B, 0x71]
            guard Array(try f.slice(26, 14)) == guidTail else {
                throw AudioFileError.unsupported("WAVE_FORMAT_EXTENSIBLE with a sub-format GUID that is not a WAV format tag", at: f.base + 24)
            }
        }
        var format: StreamFormat
        switch effectiveTag {
        case 1:
            guard blockAlign > 0, blockAlign % channels == 0, [1, 2, 3, 4].contains(blockAlign / channels), bits <= blockAlign / channels * 8, bits > 0 else {
                throw AudioFileError.malformed("PCM with \(channels) channels of \(bits) bits cannot have \(blockAlign)-byte frames", at: f.base + 12)
            }
            let container = blockAlign / channels * 8
            format = .linearPCM(sampleRate: rate, channels: channels, bits: container, isSigned: container > 8)
        case 3:
            guard bits == 32 || bits == 64, blockAlign == channels * bits / 8 else {
                throw AudioFileError.malformed("float with \(bits) bits and \(blockAlign)-byte frames for \(channels) channels is inconsistent", at: f.base + 12)
            }
            format = .linearPCM(sampleRate: rate, channels: channels, bits: bits, isFloat: true)
        case 6, 7:
            guard blockAlign == channels else {
                throw AudioFileError.malformed("G.711 frames are one byte per channel, not \(blockAlign) bytes for \(channels) channels", at: f.base + 12)
            }
            format = effectiveTag == 6 ? .aLaw(sampleRate: rate, channels: channels) : .muLaw(sampleRate: rate, channels: channels)
        case 0x11:
            format = .microsoftIMAADPCM(sampleRate: rate, channels: channels, blockAlign: blockAlign)
            if f.count >= 20, try f.u16le(16) >= 2 {
                let perBlock = Int(try f.u16le(18))
                guard perBlock == format.framesPerPacket else {
                    throw AudioFileError.malformed("IMA ADPCM blocks of \(blockAlign) bytes hold \(format.framesPerPacket) frames, the header says \(perBlock)", at: f.base + 18)
                }
            }
        default:
            let names: [UInt16: String] = [2: "MS ADPCM", 0x55: "MP3", 0x50: "MPEG", 0x31: "GSM 6.10", 0x161: "WMA", 0xFF: "AAC"]
            let name = names[effectiveTag].map { " (\($0))" } ?? ""
            throw AudioFileError.unsupported("WAV format tag 0x\(String(effectiveTag, radix: 16))\(name) is not supported", at: f.base)
        }
        if channels >= 3 { format.channelLayout = mask != 0 ? ChannelLayout(waveChannelMask: mask, channelCount: channels) : .standard(channelCount: channels) }
        do { try format.validate() } catch { throw AudioFileError.malformed("fmt chunk: \(error.reason)", at: f.base) }
        return format
    }

    static func parseList(_ f: FieldReader, metadata: inout AudioFileMetadata, labels: inout [UInt32: String],
                          lengths: inout [UInt32: Int64]) throws {
        let kind = try f.cString(0, 4)
        guard kind == "INFO" || kind == "adtl" else { return }
        var at = 4
        while at + 8 <= f.count {
            let id = try f.cString(at, 4)
            let size = Int(try f.u32le(at + 4))
            let body = at + 8
            guard size <= f.count - body else {
                throw AudioFileError.malformed("LIST sub-chunk '\(id)' claims \(size) bytes, only \(f.count - body) remain", at: f.base + Int64(at))
            }
            if kind == "INFO" {
                let text = try f.cString(body, size)
                switch id {
                case "INAM": metadata.title = text
                case "IART": metadata.artist = text
                case "ICRD": metadata.date = text
                case "ICMT": metadata.comment = text
                case "ICOP": metadata.copyright = text
                case "ISFT": metadata.software = text
                default: break
                }
            } else if id == "labl" && size >= 4 {
                labels[try f.u32le(body)] = try f.cString(body + 4, size - 4)
            } else if id == "ltxt" && size >= 20 {
                let cue = try f.u32le(body)
                lengths[cue] = Int64(try f.u32le(body + 4))
                if labels[cue] == nil && size > 20 { labels[cue] = try f.cString(body + 20, size - 20) }
            }
            at = body + size + (size & 1)
        }
    }
}
