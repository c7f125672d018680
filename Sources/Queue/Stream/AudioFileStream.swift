/// A push parser for audio arriving in pieces (a download, a serial link, a file still being written): feed it
/// any chunks, down to one byte at a time, and it reports properties as it learns them, then
/// `readyToProducePackets`, then whole packets with their descriptions (Core Audio's AudioFileStream).
///
/// The header is buffered (up to `maximumHeaderBytes`, never a size a header field claims); audio is handed
/// on straight from the caller's bytes where packets are whole, through a one-packet carry where a packet
/// straddles two chunks. Callbacks run synchronously inside `parse`. Not for the render thread.
///
/// FLAC, Ogg (Opus, FLAC), MP3 and ADTS streams, recognised by their first bytes, are split into packets by
/// their codec's parser (`CodecLibrary.streamParser`); `AudioPacketDecoder` decodes those packets. MP4 is
/// refused: its packet index may come after the audio.
public final class AudioFileStream {
    public typealias PropertyListener = (AudioFileStreamProperty) -> Void
    public typealias PacketsHandler = (UnsafeRawBufferPointer, UnsafeBufferPointer<AudioStreamPacketDescription>) -> Void

    public let typeHint: AudioFileType?
    public let maximumHeaderBytes: Int
    public private(set) var dataFormat: StreamFormat?
    public private(set) var isReadyToProducePackets = false
    /// Bytes taken in so far.
    public private(set) var bytesParsed: Int64 = 0
    /// Packets delivered so far.
    public private(set) var packetsProduced: Int64 = 0
    /// The codec setup a compressed stream's packet decoder needs (FLAC STREAMINFO, OpusHead, ...); empty
    /// until the stream reports it, and for formats without one.
    public private(set) var magicCookie: [UInt8] = []

    private let onProperty: PropertyListener
    private let onPackets: PacketsHandler
    private var header: [UInt8] = []
    private var needed: Int64 = 12
    private var remainingAudio: Int64?
    private var carry: UnsafeMutableRawPointer?
    private var carried = 0
    private var bytesPerPacket = 0
    private var descriptions: UnsafeMutablePointer<AudioStreamPacketDescription>?
    private var failure: AudioFileError?
    /// The codec's parser, once the first bytes named a library container.
    private var libraryParser: (any CompressedStreamParser)?
    /// Header bytes still to come before the audio (when the header parsed before all of it arrived).
    private var skip = 0
    /// Packets per callback at most.
    static let batchPackets = 1024

    public init(typeHint: AudioFileType? = nil, maximumHeaderBytes: Int = 16 << 20,
                onProperty: @escaping PropertyListener, onPackets: @escaping PacketsHandler) {
        self.typeHint = typeHint
        self.maximumHeaderBytes = maximumHeaderBytes
        self.onProperty = onProperty
        self.onPackets = onPackets
    }

    deinit {
        carry?.deallocate()
        descriptions?.deallocate()
    }

    public func parse(_ bytes: [UInt8]) throws {
        try bytes.withUnsafeBytes { try parse($0) }
    }

    /// Takes the next chunk of the stream. Errors (what is wrong, at which stream offset) are final: the same
    /// error is thrown by every later call.
    public func parse(_ bytes: UnsafeRawBufferPointer) throws {
        if let failure { throw failure }
        guard let base = bytes.baseAddress, bytes.count > 0 else { return }
        do {
            if let libraryParser {
                bytesParsed += Int64(bytes.count)
                try parseLibrary(bytes, libraryParser)
            } else if isReadyToProducePackets {
                bytesParsed += Int64(bytes.count)
                deliver(base, count: bytes.count)
            } else {
                try takeHeaderBytes(bytes)
            }
        } catch let error as AudioFileError {
            failure = error
            throw error
        }
    }

    private func takeHeaderBytes(_ bytes: UnsafeRawBufferPointer) throws {
        header.append(contentsOf: bytes)
        bytesParsed += Int64(bytes.count)
        guard Int64(header.count) >= needed else { return }
        if let type = CodecLibrary.sniff(header) {
            guard let parser = CodecLibrary.streamParser(for: type) else {
                throw AudioFileError(.unsupported, "\(type) cannot be streamed: its index may be at the end; open it as a file", offset: 0)
            }
            libraryParser = parser
            let bytes = header
            header = []
            try bytes.withUnsafeBytes { try parseLibrary($0, parser) }
            return
        }
        let parsed: ContainerHeader
        do {
            parsed = try ContainerProbe.parse(StreamByteSource(bytes: header), hint: typeHint, stopAtData: true)
        } catch let more as NeedMoreBytes {
            needed = more.needed
            guard needed <= Int64(maximumHeaderBytes) else {
                throw AudioFileError(.unsupported, "the header runs past \(maximumHeaderBytes) bytes before the audio data", offset: Int64(header.count))
            }
            return
        }
        try start(parsed)
        let audioStart = Int(parsed.dataOffset)
        if header.count > audioStart {
            header.withUnsafeBytes { raw in deliver(raw.baseAddress! + audioStart, count: raw.count - audioStart) }
        } else {
            skip = audioStart - header.count
        }
        header = []
    }

    /// Hands bytes to the codec's parser, noting the properties this stream keeps as they pass.
    private func parseLibrary(_ bytes: UnsafeRawBufferPointer, _ parser: any CompressedStreamParser) throws {
        try parser.parse(bytes, onProperty: { property in
            switch property {
            case .dataFormat(let format): dataFormat = format
            case .magicCookie(let cookie): magicCookie = cookie
            case .readyToProducePackets: isReadyToProducePackets = true
            default: break
            }
            onProperty(property)
        }, onPackets: { bytes, descriptions in
            packetsProduced += Int64(descriptions.count)
            onPackets(bytes, descriptions)
        })
    }

    private func start(_ parsed: ContainerHeader) throws {
        let format = parsed.format
        guard !format.formatID.isLibraryCodec else {
            throw AudioFileError(.unsupported, "\(parsed.fileType) holding \(format.formatID) cannot be streamed here: open it as a file", offset: parsed.dataOffset)
        }
        dataFormat = format
        bytesPerPacket = format.bytesPerPacket
        carry = .allocate(byteCount: bytesPerPacket, alignment: 16)
        descriptions = .allocate(capacity: Self.batchPackets)
        remainingAudio = parsed.declaredDataByteCount
        onProperty(.fileFormat(parsed.fileType))
        onProperty(.dataFormat(format))
        if let layout = format.channelLayout { onProperty(.channelLayout(layout)) }
        onProperty(.dataOffset(parsed.dataOffset))
        if let bytes = parsed.declaredDataByteCount {
            onProperty(.audioDataByteCount(bytes))
            onProperty(.audioDataPacketCount(bytes / Int64(bytesPerPacket)))
        }
        if !parsed.markers.isEmpty { onProperty(.markers(parsed.markers)) }
        if !parsed.metadata.isEmpty { onProperty(.metadata(parsed.metadata)) }
        isReadyToProducePackets = true
        onProperty(.readyToProducePackets)
    }

    /// Hands on the audio in `count` bytes: completes a carried packet, passes whole packets in place, keeps
    /// the tail. Bytes past the declared audio size (trailing chunks) are ignored.
    private func deliver(_ start: UnsafeRawPointer, count: Int) {
        var p = start
        var n = count
        if skip > 0 {
            let skipped = min(skip, n)
            skip -= skipped
            p += skipped
            n -= skipped
        }
        if let remaining = remainingAudio {
            n = Int(min(Int64(n), remaining))
            remainingAudio = remaining - Int64(n)
        }
        guard let carry, n > 0 else { return }
        if carried > 0 {
            let take = min(bytesPerPacket - carried, n)
            (carry + carried).copyMemory(from: p, byteCount: take)
            carried += take
            p += take
            n -= take
            if carried == bytesPerPacket {
                emit(UnsafeRawPointer(carry), packets: 1)
                carried = 0
            }
        }
        while n >= bytesPerPacket {
            let packets = min(n / bytesPerPacket, Self.batchPackets)
            emit(p, packets: packets)
            p += packets * bytesPerPacket
            n -= packets * bytesPerPacket
        }
        if n > 0 {
            carry.copyMemory(from: p, byteCount: n)
            carried = n
        }
    }

    private func emit(_ bytes: UnsafeRawPointer, packets: Int) {
        guard let descriptions else { return }
        for i in 0..<packets {
            descriptions[i] = AudioStreamPacketDescription(startOffset: i * bytesPerPacket, variableFramesInPacket: 0,
                                                           dataByteSize: bytesPerPacket)
        }
        packetsProduced += Int64(packets)
        onPackets(UnsafeRawBufferPointer(start: bytes, count: packets * bytesPerPacket),
                  UnsafeBufferPointer(start: descriptions, count: packets))
    }
}

/// The bytes a stream has delivered so far; anything beyond is "not yet", never an error.
struct StreamByteSource: ByteSource {
    let bytes: [UInt8]
    var length: Int64? { nil }

    func bytes(at offset: Int64, count: Int) throws -> [UInt8]? {
        guard offset >= 0, offset + Int64(count) <= Int64(bytes.count) else { return nil }
        return Array(bytes[Int(offset)..<(Int(offset) + count)])
    }
}
