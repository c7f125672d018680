import COpus

/// Push parser for an Ogg stream (RFC 3533) holding Opus (RFC 7845) or FLAC (the FLAC-in-Ogg mapping), in any
/// chunking: pages are gathered whole (at most 65,307 bytes), checked by their CRC, and their packets, which
/// may span pages, handed on one by one with their frame counts.
///
/// Joining mid-stream: bytes before the first page whose CRC checks are skipped, and so are pages until a
/// beginning-of-stream page of a known codec (an Ogg radio stream repeats its headers at each chained track).
/// After that, a page with a bad CRC or a lost capture pattern is an error naming its byte offset; a gap in
/// page sequence numbers drops the packet that spanned it. Pages of other logical streams are ignored; a chained
/// link (a new beginning-of-stream page after the end of the current one) continues the packets if its format
/// is the same.
///
/// Opus: OpusHead gives `.dataFormat` (48 kHz) and `.magicCookie` (the OpusHead bytes, for
/// `OpusPacketDecoder`), OpusTags `.metadata`. FLAC: the mapping's first packet (0x7F "FLAC", version, header
/// count, "fLaC", STREAMINFO) gives `.dataFormat` and `.magicCookie` (the 34-byte STREAMINFO, for
/// `FLACPacketDecoder`), a VORBIS_COMMENT block `.metadata`; each FLAC frame is one packet.
final class OggStreamParser: CompressedStreamParser {
    private enum Codec: Equatable { case opus, flac }
    private enum Stage { case seekingStream, headers, audio }

    /// The page being gathered (from its capture pattern on).
    private var page: [UInt8] = []
    /// Stream bytes taken so far; the page starts at `taken - page.count`.
    private var taken: Int64 = 0
    private var stage = Stage.seekingStream
    private var codec: Codec?
    private var serial: UInt32?
    private var streamEnded = false
    private var expectedSequence: UInt32?
    /// Header packets of the current link seen so far.
    private var headerPackets = 0
    /// The beginning of a packet that continues on the next page; invalid after a lost page.
    private var carry: [UInt8] = []
    private var carryValid = false
    /// What the first link announced (a chained link must match it).
    private var announcedFormat: StreamFormat?
    private var format: StreamFormat?
    private var cookie: [UInt8] = []
    private var metadata = AudioFileMetadata()
    private let descriptions: UnsafeMutablePointer<AudioStreamPacketDescription>

    init() {
        page.reserveCapacity(OggPage.maximumBytes)
        carry.reserveCapacity(1 << 16)
        descriptions = .allocate(capacity: 256)
    }

    deinit { descriptions.deallocate() }

    func parse(_ bytes: UnsafeRawBufferPointer, onProperty: AudioFileStream.PropertyListener,
               onPackets: AudioFileStream.PacketsHandler) throws {
        var next = 0
        while true {
            let needed = try bytesNeeded()
            if page.count < needed {
                guard next < bytes.count else { return }
                let take = min(needed - page.count, bytes.count - next)
                page.append(contentsOf: UnsafeRawBufferPointer(rebasing: bytes[next..<(next + take)]))
                next += take
                taken += Int64(take)
                continue
            }
            let checked = try page.withUnsafeBytes { raw -> Bool in
                let header = OggPage(raw)!
                guard header.checksumMatches(raw) else { return false }
                try take(header, raw, onProperty: onProperty, onPackets: onPackets)
                return true
            }
            if checked {
                page.removeAll(keepingCapacity: true)
            } else if serial == nil {
                resynchronize(after: 1)
            } else {
                let sequence = page.withUnsafeBytes { OggPage($0)!.sequenceNumber }
                throw AudioFileError.malformed("Ogg page \(sequence) fails its CRC check (RFC 3533 section 6)", at: pageOffset)
            }
        }
    }

    private var pageOffset: Int64 { taken - Int64(page.count) }

    /// How many bytes the page buffer needs before the next step; drops bytes that cannot start a page while
    /// looking for the stream.
    private func bytesNeeded() throws -> Int {
        while true {
            if page.count < OggPage.fixedHeaderBytes { return OggPage.fixedHeaderBytes }
            let header = page.withUnsafeBytes { OggPage($0) }
            guard let header else {
                guard serial == nil else {
                    throw AudioFileError.malformed("lost Ogg page sync: no \"OggS\" version 0 page header where the next page should start (RFC 3533 section 6)", at: pageOffset)
                }
                resynchronize(after: 1)
                continue
            }
            if page.count < header.headerBytes { return header.headerBytes }
            return page.withUnsafeBytes { header.headerBytes + header.bodyBytes($0) }
        }
    }

    /// Drops the page buffer's first `count` bytes and whatever follows up to the next "OggS".
    private func resynchronize(after count: Int) {
        let pattern = OggPage.capturePattern
        var start = count
        while start < page.count {
            let end = min(page.count, start + 4)
            if page[start..<end].elementsEqual(pattern[0..<(end - start)]) { break }
            start += 1
        }
        page.removeFirst(start)
    }

    // MARK: Pages and packets

    private func take(_ header: OggPage, _ raw: UnsafeRawBufferPointer, onProperty: AudioFileStream.PropertyListener,
                      onPackets: AudioFileStream.PacketsHandler) throws {
        if serial == nil || (streamEnded && header.isBeginningOfStream && header.serialNumber != serial) {
            guard header.isBeginningOfStream, let found = Self.codec(ofFirstPacketIn: header, raw) else { return }
            if let codec, codec != found {
                throw AudioFileError.unsupported("a chained Ogg link changes the codec", at: pageOffset)
            }
            codec = found
            serial = header.serialNumber
            streamEnded = false
            stage = .headers
            headerPackets = 0
            carry.removeAll(keepingCapacity: true)
            carryValid = false
            expectedSequence = nil
        }
        guard header.serialNumber == serial else { return }
        if let expectedSequence, header.sequenceNumber != expectedSequence { carryValid = false }
        expectedSequence = header.sequenceNumber &+ 1
        if header.isEndOfStream { streamEnded = true }

        let table = OggPage.fixedHeaderBytes
        var packetStart = header.headerBytes
        var length = 0
        var continuing = header.isContinued
        if !continuing { carryValid = false; carry.removeAll(keepingCapacity: true) }
        var batch = 0
        var batchStart = -1
        for segment in 0..<header.segmentCount {
            let lacing = Int(raw[table + segment])
            length += lacing
            guard lacing < 255 else { continue }
            // A packet ends here: [packetStart, packetStart + length) of the page.
            let piece = UnsafeRawBufferPointer(rebasing: raw[packetStart..<(packetStart + length)])
            if continuing {
                continuing = false
                if carryValid {
                    try extendCarry(piece)
                    try carry.withUnsafeBytes { whole in
                        try packet(whole, header: header, onProperty: onProperty) { frames in
                            descriptions[0] = AudioStreamPacketDescription(startOffset: 0, variableFramesInPacket: frames,
                                                                           dataByteSize: whole.count)
                            onPackets(whole, UnsafeBufferPointer(start: descriptions, count: 1))
                        }
                    }
                }
                carry.removeAll(keepingCapacity: true)
                carryValid = false
            } else {
                try packet(piece, header: header, onProperty: onProperty) { frames in
                    if batchStart < 0 { batchStart = packetStart }
                    descriptions[batch] = AudioStreamPacketDescription(startOffset: packetStart - batchStart,
                                                                       variableFramesInPacket: frames, dataByteSize: length)
                    batch += 1
                }
            }
            packetStart += length
            length = 0
        }
        if batch > 0 {
            onPackets(UnsafeRawBufferPointer(rebasing: raw[batchStart..<packetStart]), UnsafeBufferPointer(start: descriptions, count: batch))
        }
        if length > 0 {
            // The page's last packet continues on the next page.
            if continuing {
                if carryValid { try extendCarry(UnsafeRawBufferPointer(rebasing: raw[packetStart..<(packetStart + length)])) }
            } else {
                carry.removeAll(keepingCapacity: true)
                try extendCarry(UnsafeRawBufferPointer(rebasing: raw[packetStart..<(packetStart + length)]))
                carryValid = true
            }
        }
    }

    /// The largest packet gathered across pages. Audio: an Opus packet is at most 48 frames of 1,275 bytes
    /// (RFC 6716 3.2.5 and 3.4: R5, at most 120 ms of 2.5 ms frames; 1275 bytes per frame) = 61,440 bytes;
    /// a FLAC frame at most 2^24 - 1 bytes (RFC 9639 8.2: STREAMINFO's 24-bit maximum frame size). Header
    /// packets (OpusTags or VORBIS_COMMENT with cover art) get the same generous 16 MiB as FLAC.
    static let largestOpusPacket = 48 * 1275
    static let largestOtherPacket = (1 << 24) - 1
    private var packetLimit: Int { stage == .audio && codec == .opus ? Self.largestOpusPacket : Self.largestOtherPacket }

    /// Adds a piece of a packet that continues on the next page; an endless run of 255-byte lacing values
    /// (RFC 3533 6) would otherwise grow `carry` without limit.
    private func extendCarry(_ piece: UnsafeRawBufferPointer) throws {
        guard carry.count + piece.count <= packetLimit else {
            throw AudioFileError.malformed("an Ogg packet continues past \(packetLimit) bytes (\(carry.count + piece.count) so far), larger than any \(stage == .audio && codec == .opus ? "Opus packet (RFC 6716)" : "FLAC frame or header (RFC 9639)")",
                                           at: pageOffset)
        }
        carry.append(contentsOf: piece)
    }

    /// One whole packet: a header packet updates what is known; an audio packet goes to `audio` with its frames.
    private func packet(_ bytes: UnsafeRawBufferPointer, header: OggPage, onProperty: AudioFileStream.PropertyListener,
                        audio: (Int) -> Void) throws {
        if stage == .headers {
            guard try takeHeader(Array(bytes), onProperty: onProperty) else { return }
        }
        guard bytes.count > 0 else { return }
        switch codec {
        case .opus:
            // RFC 6716 3.1: the TOC byte's configuration gives the frame duration, its code the frame count.
            let frames = opus_packet_get_nb_samples(bytes.baseAddress!.assumingMemoryBound(to: UInt8.self),
                                                    Int32(bytes.count), Int32(OpusHead.sampleRate))
            guard frames > 0 else {
                throw AudioFileError.malformed("an Opus packet of \(bytes.count) bytes has an invalid TOC (RFC 6716 3.1) in Ogg page \(header.sequenceNumber)", at: pageOffset)
            }
            audio(Int(frames))
        case .flac:
            // The frame header's block size (RFC 9639 9.1); 0 (the format's) when it does not parse.
            if case .header(let frame) = FLACFrameHeader.parse(bytes, at: 0) { audio(frame.blockSize) } else { audio(0) }
        case nil:
            break
        }
    }

    /// Takes one packet while in the header stage; true when it is in fact the first audio packet.
    private func takeHeader(_ packet: [UInt8], onProperty: AudioFileStream.PropertyListener) throws -> Bool {
        defer { headerPackets += 1 }
        switch codec {
        case .opus:
            if headerPackets == 0 {
                let head = try located { try OpusHead(packet) }
                format = head.format
                cookie = packet
            } else {
                // RFC 7845 5.2: the second packet is OpusTags; then the audio starts.
                guard packet.starts(with: Array("OpusTags".utf8)), let tags = VorbisComment(packet, from: 8) else {
                    throw AudioFileError.malformed("the second Ogg Opus packet is not a valid OpusTags header (RFC 7845 5.2)", at: pageOffset)
                }
                VorbisComment.apply(tags.fields, to: &metadata)
                try startAudio(onProperty: onProperty)
            }
            return false
        case .flac:
            if headerPackets == 0 {
                // FLAC-in-Ogg mapping: 0x7F "FLAC", major 1, minor, header count (BE16), "fLaC", then the
                // STREAMINFO metadata block (4-byte block header, 34 bytes; RFC 9639 8.2).
                guard packet.count >= 51, packet[9..<13].elementsEqual("fLaC".utf8), packet[13] & 0x7F == 0 else {
                    throw AudioFileError.malformed("the Ogg FLAC header packet does not hold \"fLaC\" and STREAMINFO", at: pageOffset)
                }
                let info = Array(packet[17..<51])
                guard let streamInfo = FLACStreamInfo(info) else {
                    throw AudioFileError.malformed("the Ogg FLAC STREAMINFO is out of range (RFC 9639 8.2: 0 Hz, or under 4 bits)", at: pageOffset)
                }
                format = .compressed(.flac, sampleRate: Double(streamInfo.sampleRate), channels: streamInfo.channels,
                                     bitsPerChannel: streamInfo.bitsPerSample)
                cookie = info
                if packet[13] & 0x80 != 0 { try startAudio(onProperty: onProperty) }
                return false
            }
            if packet.first == 0xFF {
                // A frame sync where another metadata block was expected: the headers are over.
                try startAudio(onProperty: onProperty)
                return true
            }
            if packet.first.map({ $0 & 0x7F }) == 4, let tags = VorbisComment(packet, from: 4) {
                VorbisComment.apply(tags.fields, to: &metadata)   // after the 4-byte metadata block header
            }
            if packet.first.map({ $0 & 0x80 != 0 }) ?? true { try startAudio(onProperty: onProperty) }
            return false
        case nil:
            return false
        }
    }

    /// The headers are complete: reports the properties once (a chained link only has to match them).
    private func startAudio(onProperty: AudioFileStream.PropertyListener) throws {
        stage = .audio
        guard let format else { return }
        if let announcedFormat {
            guard announcedFormat == format else {
                throw AudioFileError.unsupported("a chained Ogg link changes the format (\(announcedFormat.channelsPerFrame) -> \(format.channelsPerFrame) channels, \(Int(announcedFormat.sampleRate)) -> \(Int(format.sampleRate)) Hz)", at: pageOffset)
            }
            return
        }
        announcedFormat = format
        onProperty(.fileFormat(.ogg))
        onProperty(.dataFormat(format))
        if let layout = format.channelLayout { onProperty(.channelLayout(layout)) }
        onProperty(.magicCookie(cookie))
        if !metadata.isEmpty { onProperty(.metadata(metadata)) }
        onProperty(.readyToProducePackets)
    }

    /// Adds the page's offset to an error thrown without one.
    private func located<T>(_ body: () throws -> T) throws -> T {
        do { return try body() } catch let error as AudioFileError where error.offset == nil {
            throw AudioFileError(error.kind, error.message, offset: pageOffset)
        }
    }

    /// The codec whose header is the first packet of a beginning-of-stream page, or nil.
    private static func codec(ofFirstPacketIn header: OggPage, _ raw: UnsafeRawBufferPointer) -> Codec? {
        let start = header.headerBytes
        guard raw.count >= start + 8 else { return nil }
        let packet = UnsafeRawBufferPointer(rebasing: raw[start..<(start + 8)])
        if packet.starts(with: "OpusHead".utf8) { return .opus }
        if packet.starts(with: [0x7F] + Array("FLAC".utf8)) { return .flac }
        return nil
    }
}
