/// Push parsing of a native FLAC stream (RFC 9639) for `AudioFileStream`, in any chunking: "fLaC" and the
/// metadata blocks give the properties (the data format and STREAMINFO as the magic cookie, the Vorbis
/// comments as metadata), then each frame is one packet, its end verified by its CRC-16 and the next frame's
/// header (`FLACFrameSplitter`). A stream joined mid-way (no "fLaC") starts at the first frame so verified,
/// with a STREAMINFO made from its header. The last frame, which nothing follows, is delivered when
/// STREAMINFO's total says it is the last and libFLAC decodes it whole; with no total (a live stream) it
/// waits for bytes that never come.
final class FLACStreamParser: CompressedStreamParser {
    private enum Stage { case header, frames }
    private var stage = Stage.header
    private var header: [UInt8] = []
    /// The next metadata block header to read in `header` once "fLaC" was found: blocks before it were read
    /// as they arrived, so a header arriving in small chunks (cover art of a megabyte) is walked once.
    private var nextBlock: Int?
    /// The VORBIS_COMMENT block's body in `header`, when there is one.
    private var comment: Range<Int>?
    private var splitter = FLACFrameSplitter()
    private var info: FLACStreamInfo?
    /// Stream offset of `splitter.buffer[0]`.
    private var bufferBase: Int64 = 0
    private var ready = false
    private var lastFrameChecker: FLACDecoder?
    private var descriptions: [AudioStreamPacketDescription] = []

    func parse(_ bytes: UnsafeRawBufferPointer, onProperty: AudioFileStream.PropertyListener,
               onPackets: AudioFileStream.PacketsHandler) throws {
        switch stage {
        case .header:
            header.append(contentsOf: bytes)
            guard let audioStart = try metadataEnd() else { return }
            stage = .frames
            if let info {
                splitter = FLACFrameSplitter(streamBits: info.bitsPerSample)
                report(info, comment: comment.map { Array(header[$0]) }, dataOffset: Int64(audioStart), onProperty)
            }
            bufferBase = Int64(audioStart)
            header[audioStart...].withUnsafeBytes { splitter.append($0) }
            header = []
        case .frames:
            splitter.append(bytes)
        }
        try deliverFrames(onProperty: onProperty, onPackets: onPackets)
    }

    /// The end of the metadata blocks once all arrived (nil: more bytes needed). A stream that does not
    /// start with "fLaC" is joined mid-way: its first frame is looked for at once.
    private func metadataEnd() throws -> Int? {
        if nextBlock == nil {
            guard header.count >= 4 else { return nil }
            // An ID3v2 tag some taggers put in front, which libFLAC skips too.
            var start = 0
            if header.starts(with: Array("ID3".utf8)) {
                guard header.count >= ID3v2Header.length else { return nil }
                if let tag = ID3v2Header(header) {
                    start = tag.totalLength
                    guard header.count >= start + 4 else { return nil }
                }
            }
            guard header[start...].starts(with: Array("fLaC".utf8)) else { return start }
            nextBlock = start + 4
        }
        // RFC 9639 8.1: each block header is a last-block flag, a 7-bit type and a 24-bit body size.
        while let offset = nextBlock, offset + 4 <= header.count {
            let type = header[offset] & 0x7F
            let size = Int(header[offset + 1]) << 16 | Int(header[offset + 2]) << 8 | Int(header[offset + 3])
            guard offset + 4 + size <= header.count else { return nil }
            if info == nil {
                guard type == 0, size == FLACStreamInfo.length, let parsed = FLACStreamInfo(header[(offset + 4)..<(offset + 38)]) else {
                    throw AudioFileError(.malformed, "the FLAC stream's first metadata block is not a valid STREAMINFO", offset: Int64(offset))
                }
                info = parsed
            }
            if type == 4 { comment = (offset + 4)..<(offset + 4 + size) }
            nextBlock = offset + 4 + size
            if header[offset] & 0x80 != 0 { return offset + 4 + size }
        }
        return nil
    }

    private func report(_ info: FLACStreamInfo, comment: [UInt8]?, dataOffset: Int64, _ onProperty: AudioFileStream.PropertyListener) {
        onProperty(.fileFormat(.flac))
        onProperty(.dataFormat(info.format))
        onProperty(.magicCookie(info.bytes))
        if let comment, let parsed = VorbisComment(comment) {
            let metadata = VorbisComment.metadata(parsed.fields)
            if !metadata.isEmpty { onProperty(.metadata(metadata)) }
        }
        onProperty(.dataOffset(dataOffset))
        onProperty(.readyToProducePackets)
        ready = true
    }

    private func deliverFrames(onProperty: AudioFileStream.PropertyListener, onPackets: AudioFileStream.PacketsHandler) throws {
        descriptions.removeAll(keepingCapacity: true)
        loop: while true {
            switch splitter.next(atEnd: false) {
            case .frame(let range, let frame):
                if !ready { try join(at: range.lowerBound, frame, onProperty) }
                add(range, frame)
            case .lastFrame:
                break loop     // not offered while more bytes may come
            case .needMore:
                if let range = lastFrameRange() {
                    add(range, splitter.header!)
                    splitter.accept(range)
                    continue
                }
                break loop
            }
        }
        if !descriptions.isEmpty {
            splitter.buffer.withUnsafeBytes { raw in
                descriptions.withUnsafeBufferPointer { onPackets(raw, $0) }
            }
        }
        descriptions.removeAll(keepingCapacity: true)
        let dropped = splitter.frameStart
        splitter.compact()
        bufferBase += Int64(dropped)
    }

    private func add(_ range: Range<Int>, _ frame: FLACFrameHeader) {
        descriptions.append(AudioStreamPacketDescription(startOffset: range.lowerBound, variableFramesInPacket: frame.blockSize,
                                                         dataByteSize: range.count))
    }

    /// The current frame's bytes when it is STREAMINFO's last, its CRC-16 holds to the end of what arrived,
    /// and libFLAC decodes it whole.
    private func lastFrameRange() -> Range<Int>? {
        guard ready, let info, info.totalSamples > 0, let frame = splitter.header, let end = splitter.candidateEnd else { return nil }
        let first = frame.firstSample(fixedBlockSize: info.maximumBlockSize)
        guard first + UInt64(frame.blockSize) == info.totalSamples else { return nil }
        if lastFrameChecker == nil { lastFrameChecker = try? FLACDecoder(.packets(header: info.streamHeader)) }
        guard let checker = lastFrameChecker else { return nil }
        let range = splitter.frameStart..<end
        let whole = splitter.buffer.withUnsafeBytes { checker.decode(UnsafeRawBufferPointer(rebasing: $0[range])) }
        return whole && checker.frames == frame.blockSize ? range : nil
    }

    /// Joining mid-stream: the first verified frame's header stands in for STREAMINFO.
    private func join(at start: Int, _ frame: FLACFrameHeader, _ onProperty: AudioFileStream.PropertyListener) throws {
        guard let rate = frame.sampleRate, let bits = frame.bitsPerSample else {
            throw AudioFileError(.unsupported, "cannot join this FLAC stream mid-way: its frames leave the sample rate or depth to a STREAMINFO that was not received",
                                 offset: bufferBase + Int64(start))
        }
        let made = FLACStreamInfo(minimumBlockSize: 16, maximumBlockSize: 65535, sampleRate: rate, channels: frame.channels, bitsPerSample: bits)
        info = made
        report(made, comment: nil, dataOffset: bufferBase + Int64(start), onProperty)
    }
}
