/// Reads AIFF and AIFF-C headers: `COMM` (with the 80-bit sample rate and AIFF-C compression type), `SSND`,
/// `MARK` markers, `INST` loops and the `NAME`/`AUTH`/`(c) `/`ANNO` text chunks.
enum AIFFParser {
    static func parse(_ source: ByteSource, type: AudioFileType, stopAtData: Bool) throws -> ContainerHeader {
        var offset: Int64 = 12
        var format: StreamFormat?
        var frames: (count: Int64, field: Int64)?
        var result: ContainerHeader?
        var markerPositions: [(id: UInt16, position: Int64, name: String)] = []
        var instrumentLoops: [(begin: UInt16, end: UInt16)] = []
        var metadata = AudioFileMetadata()
        while true {
            if let length = source.length, offset + 8 > length { break }
            let chunk = FieldReader(try source.require(8, at: offset, for: "chunk header"), at: offset, what: "chunk header")
            let id = try chunk.cString(0, 4)
            let size = Int64(try chunk.u32be(4))
            let body = offset + 8
            switch id {
            case "COMM":
                guard size >= 18 else { throw AudioFileError.malformed("the COMM chunk is \(size) bytes, needs at least 18", at: offset) }
                let f = FieldReader(try source.require(Int(min(size, 512)), at: body, for: "COMM chunk"), at: body, what: "COMM chunk")
                let parsed = try parseCommon(f, type: type)
                format = parsed.format
                frames = (parsed.frames, body + 2)
            case "SSND":
                guard let found = format, let frames else { throw AudioFileError.malformed("the SSND chunk comes before any COMM chunk", at: offset) }
                guard size >= 8 else { throw AudioFileError.malformed("the SSND chunk is \(size) bytes, needs at least 8", at: offset) }
                let f = FieldReader(try source.require(8, at: body, for: "SSND chunk"), at: body, what: "SSND chunk")
                let dataOffset = Int64(try f.u32be(0))
                guard dataOffset <= size - 8 else {
                    throw AudioFileError.malformed("the SSND data offset \(dataOffset) lies beyond its \(size)-byte chunk", at: body)
                }
                var header = ContainerHeader(fileType: type, format: found, dataOffset: body + 8 + dataOffset,
                                             declaredDataByteCount: size - 8 - dataOffset)
                let perFrame = found.formatID == .appleIMA4 ? Int64(64) : 1
                header.validFrameCount = frames.count * perFrame
                header.sizeFields.dataSizeField = offset + 4
                header.sizeFields.commFramesField = frames.field
                header.sizeFields.ssndOffset = UInt32(dataOffset)
                result = header
                if stopAtData { return header }
            case "MARK" where size >= 2 && size <= ContainerProbe.maximumMetadataChunk:
                let f = FieldReader(try source.require(Int(size), at: body, for: "MARK chunk"), at: body, what: "MARK chunk")
                let count = Int(try f.u16be(0))
                var at = 2
                for _ in 0..<count {
                    let markID = try f.u16be(at)
                    let position = Int64(try f.u32be(at + 2))
                    let length = Int(try f.u8(at + 6))
                    let name = try f.cString(at + 7, length)
                    markerPositions.append((markID, position, name))
                    at += 7 + length + ((length + 1) & 1)
                }
            case "INST" where size >= 20:
                // AIFF 1.3, Instrument Chunk: sustainLoop at byte 8, releaseLoop at 14; each playMode (0: none),
                // beginLoop and endLoop marker IDs.
                let f = FieldReader(try source.require(20, at: body, for: "INST chunk"), at: body, what: "INST chunk")
                for at in [8, 14] {
                    if try f.u16be(at) != 0 { instrumentLoops.append((try f.u16be(at + 2), try f.u16be(at + 4))) }
                }
            case "NAME", "AUTH", "(c) ", "ANNO":
                guard size <= ContainerProbe.maximumMetadataChunk else { break }
                let f = FieldReader(try source.require(Int(size), at: body, for: "\(id) chunk"), at: body, what: "\(id) chunk")
                let text = try f.cString(0, Int(size))
                switch id {
                case "NAME": metadata.title = text
                case "AUTH": metadata.artist = text
                case "(c) ": metadata.copyright = text
                default: metadata.comment = text
                }
            default:
                break
            }
            if id == "SSND", let result, let declared = result.declaredDataByteCount,
               let length = source.length, result.dataOffset + declared > length { break }
            offset = body + size + (size & 1)
        }
        guard var header = result else {
            if format == nil { throw AudioFileError.truncated("no COMM chunk before the end of the file", at: offset) }
            throw AudioFileError.truncated("no SSND chunk before the end of the file", at: offset)
        }
        header.metadata = metadata
        // A loop's two markers become the loop (named after its begin marker), not markers of their own.
        var loops: [UInt16: AudioFileMarker] = [:]
        var consumed = Set<UInt16>()
        for loop in instrumentLoops {
            guard let begin = markerPositions.first(where: { $0.id == loop.begin }),
                  let end = markerPositions.first(where: { $0.id == loop.end }), end.position > begin.position else { continue }
            loops[loop.begin] = AudioFileMarker(framePosition: begin.position, name: begin.name,
                                                frameLength: end.position - begin.position, isLoop: true)
            consumed.formUnion([loop.begin, loop.end])
        }
        header.markers = markerPositions.compactMap { mark in
            if let loop = loops[mark.id] { return loop }
            return consumed.contains(mark.id) ? nil : AudioFileMarker(framePosition: mark.position, name: mark.name)
        }
        return header
    }

    static func parseCommon(_ f: FieldReader, type: AudioFileType) throws -> (format: StreamFormat, frames: Int64) {
        let channels = Int(try f.u16be(0))
        let frames = Int64(try f.u32be(2))
        let bits = Int(try f.u16be(6))
        let rate = try extended80(f, at: 8)
        guard channels >= 1 else { throw AudioFileError.malformed("the COMM chunk says 0 channels", at: f.base) }
        guard rate.isFinite, StreamFormat.sampleRateRange.contains(rate) else {
            throw AudioFileError.malformed("the sample rate \(rate) Hz is outside 1 Hz ... 1536 kHz", at: f.base + 8)
        }
        let compression = type == .aifc ? try f.cString(18, 4) : "NONE"
        let container = (bits + 7) / 8 * 8
        var format: StreamFormat
        switch compression {
        case "NONE", "twos", "in24", "in32":
            guard (1...32).contains(bits) else { throw AudioFileError.malformed("\(bits)-bit samples are not 1 ... 32 bits", at: f.base + 6) }
            let width = compression == "in24" ? 24 : compression == "in32" ? 32 : container
            format = .linearPCM(sampleRate: rate, channels: channels, bits: width, isBigEndian: true)
        case "sowt":
            guard (1...32).contains(bits) else { throw AudioFileError.malformed("\(bits)-bit samples are not 1 ... 32 bits", at: f.base + 6) }
            format = .linearPCM(sampleRate: rate, channels: channels, bits: container, isBigEndian: false)
        case "raw ":
            format = .linearPCM(sampleRate: rate, channels: channels, bits: 8, isSigned: false)
        case "fl32", "FL32":
            format = .linearPCM(sampleRate: rate, channels: channels, bits: 32, isFloat: true, isBigEndian: true)
        case "fl64", "FL64":
            format = .linearPCM(sampleRate: rate, channels: channels, bits: 64, isFloat: true, isBigEndian: true)
        case "ulaw", "ULAW": format = .muLaw(sampleRate: rate, channels: channels)
        case "alaw", "ALAW": format = .aLaw(sampleRate: rate, channels: channels)
        case "ima4": format = .appleIMA4(sampleRate: rate, channels: channels)
        default:
            throw AudioFileError.unsupported("AIFF-C compression type '\(compression)' is not supported", at: f.base + 18)
        }
        do { try format.validate() } catch { throw AudioFileError.malformed("COMM chunk: \(error.reason)", at: f.base) }
        return (format, frames)
    }

    /// The IEEE 754 80-bit extended value AIFF uses for the sample rate.
    static func extended80(_ f: FieldReader, at: Int) throws -> Double {
        let signExponent = try f.u16be(at)
        let mantissa = try f.u64be(at + 2)
        let exponent = Int(signExponent & 0x7FFF)
        if exponent == 0 && mantissa == 0 { return 0 }
        guard exponent != 0x7FFF else { return .nan }
        let value = Double(mantissa) * Double.pow2(exponent - 16383 - 63)
        return signExponent & 0x8000 != 0 ? -value : value
    }

    static func extended80Bytes(_ value: Double) -> [UInt8] {
        var w = FieldWriter()
        guard value > 0, value.isFinite else { return [UInt8](repeating: 0, count: 10) }
        let exponent = value.exponent    // value = significand * 2^exponent, significand in [1, 2)
        let mantissa = UInt64(value.significand * Double.pow2(63))
        w.u16be(UInt16(exponent + 16383))
        w.u64be(mantissa)
        return w.bytes
    }
}

extension Double {
    /// 2^n for the exponents headers use, without a math library.
    static func pow2(_ n: Int) -> Double {
        if n < -1074 { return 0 }
        if n > 1023 { return .infinity }
        if n < -1022 { return Double(sign: .plus, exponent: n, significand: 1) }
        return Double(sign: .plus, exponent: n, significand: 1)
    }
}
