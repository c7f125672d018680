/// Recovers an Ogg Opus recording cut off while it was written (issue 16, power cuts): libopusenc flushes
/// whole pages, so what reached the disk is its pages up to the cut and maybe part of one more, and no
/// end-of-stream page. Players read such a file to its last complete page, but it is not a finished stream
/// (opusinfo: "EOS not set"; RFC 3533 section 4 ends every logical stream with an EOS page). The repair cuts
/// the partial page and flags the last complete page end-of-stream, its CRC computed again; its granule
/// position (RFC 7845 section 4) already counts every sample its packets complete, so nothing is trimmed.
/// A file cut before its first audio page (headers only) cannot be, and says so (`.truncated`).
enum OggOpusRepair {
    static func repair(_ file: FileDescriptor) throws -> AudioFileRepairReport {
        let length = try file.length
        let first = try file.read(count: OggPage.maximumBytes, at: 0)
        let head = try first.withUnsafeBytes { raw throws -> OpusHead in
            guard let page = OggPage(raw), raw.count >= page.headerBytes else {
                throw AudioFileError(.truncated, "cannot repair: the file was cut inside its first page, before any audio", offset: 0)
            }
            let body = min(raw.count, page.headerBytes + page.bodyBytes(raw))
            return try OpusHead(Array(raw[page.headerBytes..<body]))
        }
        let end = try OggOpusEnd.scan(file, length: length)
        // Pages of the headers (OpusHead, OpusTags) have granule position 0 (RFC 7845 section 5).
        guard let last = end.lastCompletePage, last.granulePosition > 0 else {
            throw AudioFileError(.truncated, "cannot repair: the file was cut before its first complete audio page", offset: end.lastCompletePageEnd)
        }
        let format = StreamFormat.compressed(.opus, sampleRate: Double(OpusHead.sampleRate), channels: head.channels)
        let frames = max(0, last.granulePosition - Int64(head.preSkip))
        if end.isComplete && end.lastCompletePageEnd == length {
            try file.close()
            return AudioFileRepairReport(fileType: .ogg, dataFormat: format, frameCount: frames, droppedBytes: 0, wasIntact: true)
        }
        if end.lastCompletePageEnd < length { try file.truncate(to: end.lastCompletePageEnd) }
        var page = try file.read(count: Int(end.lastCompletePageEnd - last.start), at: last.start)
        page[5] |= OggPage.endOfStreamFlag
        let crc = page.withUnsafeBytes { OggCRC.checksum($0, skippingField: 22) }
        for i in 0..<4 { page[22 + i] = UInt8(truncatingIfNeeded: crc >> (8 * i)) }
        try file.write(page, at: last.start)
        try file.synchronize()
        try file.close()
        return AudioFileRepairReport(fileType: .ogg, dataFormat: format, frameCount: frames,
                                     droppedBytes: length - end.lastCompletePageEnd, wasIntact: false)
    }
}
