/// Recovers a native FLAC file cut off while it was written (a recording at a power cut): libFLAC writes
/// STREAMINFO with 0 total samples and an unset MD5 at the start and fills them in only when the encoder
/// finishes. The repair walks the frames (`FLACFrameSplitter`: header CRC-8, frame CRC-16, numbers in
/// sequence; the last frame also decoded by libFLAC), cuts the file after the last whole frame, and writes
/// the real total samples and frame sizes into STREAMINFO (the MD5 stays unset, which RFC 9639 section 8.2
/// allows: it would take a full decode). A file that already matches is left untouched.
enum FLACRepair {
    static func repair(_ file: FileDescriptor) throws -> AudioFileRepairReport {
        let length = try file.length
        let head = try file.read(count: 42, at: 0)
        guard head.count >= 4 else {
            throw AudioFileError(.truncated, "cannot repair: the file was cut inside its header, before any audio", offset: Int64(head.count))
        }
        if head.starts(with: Array("OggS".utf8)) {
            throw AudioFileError(.unsupported, "Ogg FLAC files are not repaired here (record native FLAC for crash safety)", offset: 0)
        }
        guard head.starts(with: Array("fLaC".utf8)) else { throw AudioFileError(.notAudioFile, "not a FLAC file: no \"fLaC\" marker", offset: 0) }
        guard head.count == 42, head[4] & 0x7F == 0, let info = FLACStreamInfo(head[8..<42]) else {
            throw AudioFileError(.truncated, "cannot repair: the file was cut inside its header, before any audio", offset: Int64(head.count))
        }
        // Metadata blocks (section 8.1): a last-block flag, a 7-bit type, a 24-bit length.
        var offset: Int64 = 4
        while true {
            let block = try file.read(count: 4, at: offset)
            guard block.count == 4 else {
                throw AudioFileError(.truncated, "cannot repair: the file was cut inside its metadata blocks, before any audio", offset: offset)
            }
            let size = Int64(block[1]) << 16 | Int64(block[2]) << 8 | Int64(block[3])
            if let refusal = Self.metadataRefusal(type: block[0] & 0x7F, size: size, first: offset == 4) {
                // libFLAC would refuse the repaired file's metadata: it is damage, not a cut (issue 16, fuzzing).
                throw AudioFileError(.malformed, "cannot repair: \(refusal)", offset: offset)
            }
            let blockStart = offset
            offset += 4 + size
            guard offset <= length else {
                throw AudioFileError(.truncated, "cannot repair: the file was cut inside its metadata blocks, before any audio", offset: length)
            }
            // libFLAC parses the tags when the file is opened: lengths that run past their block fail it there.
            if block[0] & 0x7F == 4, VorbisComment(try file.read(count: Int(size), at: blockStart + 4)) == nil {
                throw AudioFileError(.malformed, "cannot repair: a VORBIS_COMMENT block whose lengths run past it",
                                     offset: blockStart)
            }
            if block[0] & 0x80 != 0 { break }
        }
        let audioStart = offset
        // The net under the checks above: libFLAC itself reads the metadata the repaired file would keep.
        do {
            _ = try FLACDecoder(.file(LibraryInput(file, length: audioStart)))
        } catch let error as AudioFileError where error.kind != .io {
            throw AudioFileError(.malformed, "cannot repair: \(error.message)", offset: 4)
        }

        // Walk the frames.
        var splitter = FLACFrameSplitter(streamBits: info.bitsPerSample)
        var chunk = [UInt8](repeating: 0, count: 1 << 16)
        var read = audioStart
        var bufferBase = audioStart      // file offset of splitter.buffer[0]
        var end = audioStart             // after the last whole frame
        var samples: UInt64 = 0
        var smallest = Int.max, largest = 0
        var decoder: FLACDecoder?
        walk: while true {
            let atEnd = read >= length
            switch splitter.next(atEnd: atEnd) {
            case .frame(let range, let header):
                guard Int64(range.lowerBound) + bufferBase == end, header.channels == info.channels else { break walk }
                end = bufferBase + Int64(range.upperBound)
                samples += UInt64(header.blockSize)
                smallest = min(smallest, range.count)
                largest = max(largest, range.count)
            case .lastFrame(let range, let header):
                guard Int64(range.lowerBound) + bufferBase == end, header.channels == info.channels else { break walk }
                // Nothing follows to confirm it: libFLAC decodes it.
                if decoder == nil { decoder = try FLACDecoder(.packets(header: info.streamHeader)) }
                let whole = splitter.buffer.withUnsafeBytes { decoder!.decode(UnsafeRawBufferPointer(rebasing: $0[range])) }
                if whole && decoder!.frames == header.blockSize {
                    end = bufferBase + Int64(range.upperBound)
                    samples += UInt64(header.blockSize)
                    smallest = min(smallest, range.count)
                    largest = max(largest, range.count)
                }
                break walk
            case .needMore:
                if atEnd { break walk }
                let before = splitter.frameStart
                splitter.compact()
                bufferBase += Int64(before)
                let n = try chunk.withUnsafeMutableBytes { try file.read(into: $0.baseAddress!, count: $0.count, at: read) }
                if n == 0 { break walk }
                read += Int64(n)
                chunk.withUnsafeBytes { splitter.append(UnsafeRawBufferPointer(rebasing: $0[0..<n])) }
            }
        }

        var repaired = info
        repaired.totalSamples = samples
        if samples > 0 {
            repaired.minimumFrameSize = smallest
            repaired.maximumFrameSize = largest
        }
        let format = info.format
        // Already right: the length matches and STREAMINFO's total agrees (frame sizes may be left unknown).
        if end == length && info.totalSamples == samples {
            try file.close()
            return AudioFileRepairReport(fileType: .flac, dataFormat: format, frameCount: Int64(samples), droppedBytes: 0, wasIntact: true)
        }
        if info.totalSamples != 0 && info.totalSamples == samples { repaired = info }   // finished, junk appended: keep its header
        if end < length { try file.truncate(to: end) }
        try file.write(repaired.bytes, at: 8)
        try file.synchronize()
        try file.close()
        return AudioFileRepairReport(fileType: .flac, dataFormat: format, frameCount: Int64(samples),
                                     droppedBytes: length - end, wasIntact: false)
    }

    /// Why a metadata block header cannot be a FLAC file's (RFC 9639 section 8.1: STREAMINFO, 34 bytes, comes
    /// first and only once; type 127 is forbidden; section 8.4: an APPLICATION block starts with a 32-bit
    /// application id, which libFLAC reads even from a shorter block and then fails the stream), or nil.
    static func metadataRefusal(type: UInt8, size: Int64, first: Bool) -> String? {
        if first { return type == 0 && size == 34 ? nil : "the first metadata block is not a 34-byte STREAMINFO" }
        if type == 0 { return "a second STREAMINFO metadata block" }
        if type == 127 { return "a metadata block of the forbidden type 127" }
        if type == 2 && size < 4 { return "an APPLICATION metadata block of \(size) bytes, too short for its 4-byte id" }
        return nil
    }
}
