/// What `AudioFile.repair` found and did.
public struct AudioFileRepairReport: Sendable, CustomStringConvertible {
    public let fileType: AudioFileType
    public let dataFormat: StreamFormat
    /// Frames the repaired file holds.
    public let frameCount: Int64
    /// Bytes cut from the end (a partial last packet, a partial trailing chunk).
    public let droppedBytes: Int64
    /// Whether the header already matched the content (nothing had to change).
    public let wasIntact: Bool

    public var description: String {
        wasIntact ? "intact: \(frameCount) frames" : "repaired: \(frameCount) frames recovered, \(droppedBytes) bytes dropped"
    }
}

extension AudioFile {
    /// Chunk IDs that may follow the audio data; anything else after the declared size is taken for audio
    /// written after the last commit.
    static let trailingChunkIDs: Set<String> = ["LIST", "cue ", "id3 ", "ID3 ", "JUNK", "PAD ", "bext", "iXML", "smpl",
        "inst", "acid", "fact", "_PMX", "MARK", "NAME", "AUTH", "(c) ", "ANNO", "COMT", "APPL", "pakt", "info", "mark",
        "strg", "regn", "free", "uuid", "chan", "INST", "SAXL", "FVER", "wave"]

    /// Recovers a file cut off by power loss while it was written: sizes are set from the real length, a
    /// partial last packet and any partial chunk after the audio are cut off. A file already consistent is left
    /// as it is. Fails (with the offset) if the cut came before the audio data began.
    public static func repair(path: String, typeHint: AudioFileType? = nil) throws -> AudioFileRepairReport {
        let file = try FileDescriptor.open(path, writable: true)
        do {
            let head = try file.read(count: CodecLibrary.sniffBytes, at: 0)
            if let type = try CodecLibrary.sniff(head, reading: { try file.read(count: $1, at: $0) }) {
                // FLAC and Ogg Opus recordings are repaired by their codec part (to the last complete frame or page).
                switch type {
                case .flac: return try FLACRepair.repair(file)
                case .ogg: return try OggOpusRepair.repair(file)
                default:
                    throw AudioFileError(.unsupported, "\(type) files are not repaired here (recordings are FLAC, Ogg Opus, WAV, AIFF or CAF)")
                }
            }
            return try repair(file, hint: typeHint ?? AudioFileType(pathExtension: extensionOf(path)))
        } catch var error as AudioFileError {
            error.path = path
            throw error
        } catch is NeedMoreBytes {
            throw AudioFileError(.truncated, "cannot repair: the file was cut inside its header, before any audio", path: path)
        }
    }

    static func repair(_ file: FileDescriptor, hint: AudioFileType?) throws -> AudioFileRepairReport {
        let source = try FileByteSource(file)
        let length = source.length ?? 0
        let header: ContainerHeader
        do {
            header = try ContainerProbe.parse(source, hint: hint, stopAtData: true)
        } catch let error as AudioFileError where error.kind == .truncated {
            throw AudioFileError(.truncated, "cannot repair: the file was cut inside its header, before any audio", offset: error.offset)
        }
        let format = header.format
        guard !format.formatID.isLibraryCodec else {
            throw AudioFileError(.unsupported, "\(header.fileType) files of \(format.formatID) are not repaired here (its packets vary in size)")
        }
        let family = header.fileType.family
        let bytesPerPacket = Int64(format.bytesPerPacket)
        let available = length - header.dataOffset
        guard available >= 0 else {
            throw AudioFileError(.truncated, "cannot repair: the file was cut inside its header, before any audio", offset: length)
        }
        var dataBytes = available
        var end = length
        var intact = false
        if let declared = header.declaredDataByteCount, declared <= available {
            let pad = family == .caf ? 0 : declared & 1
            let after = header.dataOffset + declared + pad
            if after >= length {
                intact = after == length
            } else if let id = try? FieldReader(source.require(4, at: after, for: "chunk"), at: after, what: "chunk").cString(0, 4),
                      trailingChunkIDs.contains(id) {
                intact = true
            }
            if intact {
                dataBytes = declared
                let chunks = try trailingChunks(source, from: min(after, length), family: family, length: length)
                end = try endOfReadableChunks(file, hint: header.fileType, chunkStarts: chunks.starts, end: chunks.end)
            }
        }
        let whole = dataBytes - dataBytes % bytesPerPacket
        if !intact { end = header.dataOffset + whole }
        let packets = whole / bytesPerPacket
        var frames = packets * Int64(format.framesPerPacket)
        if intact, let valid = header.validFrameCount, valid <= frames, valid > frames - Int64(format.framesPerPacket) { frames = valid }
        var reserved = header.sizeFields.ds64Field.map { $0 - 8 }
        // A JUNK placeholder at byte 12 (EBU Tech 3306) is where the ds64 goes; writeSizes renames it.
        if family == .riff && reserved == nil, let junk = try source.bytes(at: 12, count: 8), junk.count == 8,
           String(decoding: junk[0..<4], as: UTF8.self) == "JUNK", junk[4] == 28, junk[5] == 0, junk[6] == 0, junk[7] == 0 {
            reserved = 12
        }
        var layout = SizeLayout(fileType: header.fileType, format: format, dataOffset: header.dataOffset,
                                dataSizeField: header.sizeFields.dataSizeField, factField: header.sizeFields.factSampleCountField,
                                reservedDS64: reserved, isRF64: header.fileType == .rf64,
                                commFramesField: header.sizeFields.commFramesField, ssndOffset: header.sizeFields.ssndOffset,
                                reservedIsDS64: header.sizeFields.ds64Field != nil)
        // A whole file keeps its declared size even when a partial packet ends it (the reader drops that part
        // too): written down to the whole packets, the size could reach 0, which a WAV reader takes for a
        // streaming writer's placeholder and reads the partial packet and pad as audio (issue 16, fuzzing).
        let written = intact ? dataBytes : whole
        let unchanged = intact && end == length && headerMatches(header, dataBytes: written, frames: frames, fileEnd: end)
        if !unchanged {
            if end < length { try file.truncate(to: end) }
            let dataEnd = header.dataOffset + whole
            if !intact && family != .caf && whole % 2 == 1 {
                try file.write([0], at: dataEnd)
                end = dataEnd + 1
            }
            try ContainerWriter.writeSizes(file, &layout, dataBytes: written, frames: frames, packets: packets, fileEnd: end,
                                           final: true, rf64Threshold: Int64(UInt32.max))
            try file.synchronize()
        }
        try file.close()
        return AudioFileRepairReport(fileType: header.fileType, dataFormat: format, frameCount: frames,
                                     droppedBytes: length - end, wasIntact: unchanged)
    }

    /// The whole chunks after the audio: where each starts, and the end of the last (a chunk cut short, and all
    /// after it, is dropped).
    static func trailingChunks(_ source: ByteSource, from start: Int64, family: AudioFileType.Family,
                               length: Int64) throws -> (starts: [Int64], end: Int64) {
        var offset = start
        var starts: [Int64] = []
        let headerSize: Int64 = family == .caf ? 12 : 8
        while offset + headerSize <= length {
            let f = FieldReader(try source.require(Int(headerSize), at: offset, for: "chunk header"), at: offset, what: "chunk header")
            let size: Int64
            switch family {
            case .riff: size = Int64(try f.u32le(4))
            case .aiff: size = Int64(try f.u32be(4))
            case .caf: size = Int64(bitPattern: try f.u64be(4))
            case .library: return ([], length)   // repaired by their codec (Queue/Codecs), never walked as chunks
            }
            // Only the chunks a recording carries after its audio are kept: anything else there (a second `fmt `,
            // say) is damage the reader would refuse, so it and all after it go (issue 16, fuzzing).
            guard trailingChunkIDs.contains(try f.cString(0, 4)) else { return (starts, offset) }
            let pad = family == .caf ? 0 : size & 1
            // Compared against what is left, so that no size (CAF's are 64-bit) can overflow the sum.
            guard size >= 0, size <= CAFParser.maximumChunkSize, size <= length - offset - headerSize else { return (starts, offset) }
            starts.append(offset)
            offset = min(length, offset + headerSize + size + pad)
        }
        return (starts, offset)
    }

    /// `end` moved back to the start of the first chunk after the audio that the reader refuses, so that what
    /// repair keeps opens: a kept chunk can be whole yet damaged inside (a MARK chunk whose markers run past its
    /// end; issue 16, fuzzing). The reader itself is the judge, one pass per refused chunk.
    static func endOfReadableChunks(_ file: FileDescriptor, hint: AudioFileType, chunkStarts: [Int64], end: Int64) throws -> Int64 {
        var end = end
        var starts = chunkStarts
        while let first = starts.first, end > first {
            do {
                _ = try ContainerProbe.parse(FileByteSource(file, endingAt: end), hint: hint, stopAtData: false)
                return end
            } catch let error as AudioFileError where error.kind != .io {
                // A refusal before the chunks after the audio is not theirs to fix: repair reports it.
                guard let offset = error.offset, offset >= first, let chunk = starts.last(where: { $0 <= offset }) else { throw error }
                end = chunk
                starts.removeAll { $0 >= chunk }
            }
        }
        return end
    }

    /// Whether the header's sizes already say what the repair would write.
    static func headerMatches(_ header: ContainerHeader, dataBytes: Int64, frames: Int64, fileEnd: Int64) -> Bool {
        guard let declared = header.declaredDataByteCount, declared == dataBytes else { return false }
        return true
    }
}
