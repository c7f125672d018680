import Codec8_24
import HAL

/// An audio file on local storage, for reading or for writing (Core Audio's AudioFile): random access by
/// packet or by frame, the data format and container kept apart, properties read from the header.
///
/// Reading and writing frames goes through 8.24 (`Fixed824`), the engine's format; packets are the raw bytes.
/// Call from a file or control thread, never the render thread. Buffers are allocated at open/create, so
/// per-buffer reads and writes do not allocate.
public final class AudioFile {
    public let path: String
    public let fileType: AudioFileType
    public let dataFormat: StreamFormat
    /// Markers and regions: read from the file, or to be written at `close()`.
    public var markers: [AudioFileMarker]
    /// Title, artist, date...: read from the file, or to be written at `close()`.
    public var metadata: AudioFileMetadata
    public let isWritable: Bool
    /// For FLAC, MP3, Opus, AAC and Apple Lossless: what the codec library reports (encoder delay, padding,
    /// bit rate, encoder); nil for the formats PacketCodec handles.
    public internal(set) var compressedInfo: CompressedFileInfo?

    public var channelLayout: ChannelLayout? { dataFormat.channelLayout }
    public var channelCount: Int { dataFormat.channelsPerFrame }
    public var sampleRate: Double { dataFormat.sampleRate }
    /// Whole packets of audio data.
    public internal(set) var packetCount: Int64
    /// Valid frames (a compressed file's last packet may be partly padding).
    public internal(set) var frameCount: Int64
    /// Bytes of audio data (whole packets).
    public var audioDataByteCount: Int64 { packetCount * Int64(dataFormat.bytesPerPacket) }
    public var dataOffset: Int64 { layout.dataOffset }
    public var duration: Double { Double(frameCount) / dataFormat.sampleRate }
    /// The next frame `readFrames` returns.
    public internal(set) var framePosition: Int64 = 0

    let file: FileDescriptor
    var layout: SizeLayout
    /// Who codes the audio: this file packet by packet, or a codec library.
    let coding: Coding
    /// Packets per bulk read or write.
    let chunkPackets: Int
    /// Raw bytes of `chunkPackets` packets.
    let byteBuffer: UnsafeMutableRawPointer
    /// One decoded packet, for reads that start or end inside a packet, and the writer's partial packet.
    let packetFrames: UnsafeMutablePointer<Fixed824>
    var cachedPacket: Int64 = -1
    /// Damage a codec library reported after part of a read was decoded: thrown by the next read.
    var deferredDamage: (any Error)?
    /// The packet a sequential IMA4 decode expects next (other packets reset the decoder).
    var nextDecodedPacket: Int64 = 0

    // Writing state.
    var options = AudioFileWriteOptions()
    var stagedFrames = 0
    var framesSinceCommit: Int64 = 0
    var commitFrames: Int64 = 0
    /// The temporary name an atomic write goes to until `close()` renames it to `path`.
    var temporaryPath: String?
    var isClosed = false

    /// How a file's audio is coded: packet by packet here (linear PCM, G.711, IMA), or by a codec library
    /// that reads or writes the whole file (FLAC, MP3, Opus, AAC, Apple Lossless).
    enum Coding {
        case packets(PacketCodec)
        case libraryReader(any CompressedFileReader)
        case libraryWriter(any CompressedFileWriter)
    }

    convenience init(path: String, file: FileDescriptor, layout: SizeLayout, writable: Bool) throws {
        let codec = try PacketCodec(format: layout.format)
        self.init(path: path, file: file, layout: layout, coding: .packets(codec), writable: writable)
    }

    init(path: String, file: FileDescriptor, layout: SizeLayout, coding: Coding, writable: Bool) {
        self.path = path
        self.file = file
        self.layout = layout
        fileType = layout.fileType
        dataFormat = layout.format
        isWritable = writable
        markers = []
        metadata = AudioFileMetadata()
        packetCount = 0
        frameCount = 0
        self.coding = coding
        let bytesPerPacket = max(1, layout.format.bytesPerPacket)
        chunkPackets = max(1, min(4096, 65536 / bytesPerPacket))
        byteBuffer = .allocate(byteCount: chunkPackets * bytesPerPacket, alignment: 16)
        let packetSamples = layout.format.framesPerPacket * layout.format.channelsPerFrame
        packetFrames = .allocate(capacity: max(1, packetSamples))
        packetFrames.initialize(repeating: .zero, count: max(1, packetSamples))
    }

    deinit {
        byteBuffer.deallocate()
        packetFrames.deallocate()
        // Never finished: an atomic write leaves no trace (an in-place recording stays, crash-safe).
        if isWritable && !isClosed {
            if case .libraryWriter(let writer) = coding { writer.abandon() }
            if let temporaryPath { unlinkQuietly(temporaryPath) }
        }
    }

    // MARK: Opening

    /// Opens an existing file for reading. The container is recognised from its content; `typeHint` only
    /// shapes the message when the content is not recognised (extensions lie; content decides). FLAC, Ogg,
    /// MP3, ADTS and MP4 files, and CAF files holding Apple Lossless or AAC, are opened by their codec library.
    public static func open(path: String, typeHint: AudioFileType? = nil) throws -> AudioFile {
        try open(path: path, typeHint: typeHint, libraryReader: CodecLibrary.reader)
    }

    /// Makes the decoder of a library container: `CodecLibrary.reader`, or a test's double.
    typealias LibraryReaderFactory = (LibraryInput, AudioFileType, [UInt8]) throws -> any CompressedFileReader

    static func open(path: String, typeHint: AudioFileType?, libraryReader: LibraryReaderFactory) throws -> AudioFile {
        let file = try FileDescriptor.open(path, writable: false)
        do {
            let source = try FileByteSource(file)
            let head = try file.read(count: CodecLibrary.sniffBytes, at: 0)
            if let type = try CodecLibrary.sniff(head, reading: { try file.read(count: $1, at: $0) }) {
                return try AudioFile(library: type, head: head, file: file, path: path, libraryReader)
            }
            let header = try ContainerProbe.parse(source, hint: typeHint ?? AudioFileType(pathExtension: extensionOf(path)), stopAtData: false)
            if header.format.formatID.isLibraryCodec {
                return try AudioFile(library: header.fileType, head: head, file: file, path: path, libraryReader)
            }
            return try AudioFile(reading: header, file: file, length: source.length ?? 0, path: path)
        } catch var error as AudioFileError {
            try? file.close()
            error.path = path
            throw error
        } catch is NeedMoreBytes {
            try? file.close()
            throw AudioFileError(.truncated, "the file ends inside its header", path: path)
        }
    }

    /// A file its codec library decodes: format, exact length and tags as the library reports them.
    convenience init(library type: AudioFileType, head: [UInt8], file: FileDescriptor, path: String,
                     _ makeReader: LibraryReaderFactory) throws {
        let reader = try makeReader(try LibraryInput(file), type, head)
        let info = reader.info
        self.init(path: path, file: file, layout: .library(type, format: info.format), coding: .libraryReader(reader), writable: false)
        frameCount = info.frameCount
        metadata = info.metadata
        compressedInfo = info
    }

    convenience init(reading header: ContainerHeader, file: FileDescriptor, length: Int64, path: String) throws {
        let layout = SizeLayout(fileType: header.fileType, format: header.format, dataOffset: header.dataOffset,
                                dataSizeField: header.sizeFields.dataSizeField, factField: header.sizeFields.factSampleCountField,
                                reservedDS64: header.sizeFields.ds64Field.map { $0 - 8 }, isRF64: header.fileType == .rf64,
                                commFramesField: header.sizeFields.commFramesField, ssndOffset: header.sizeFields.ssndOffset)
        try self.init(path: path, file: file, layout: layout, writable: false)
        markers = header.markers
        metadata = header.metadata
        // Audio runs to the declared size, or to the end of the file if the header says less or nothing.
        let available = max(0, length - header.dataOffset)
        let bytes = min(header.declaredDataByteCount ?? available, available)
        let format = header.format
        packetCount = bytes / Int64(format.bytesPerPacket)
        let packetFrames = packetCount * Int64(format.framesPerPacket)
        if let valid = header.validFrameCount, format.framesPerPacket > 1, valid <= packetFrames, valid > packetFrames - Int64(format.framesPerPacket) {
            frameCount = valid
        } else {
            frameCount = packetFrames
        }
    }

    static func extensionOf(_ path: String) -> String {
        guard let dot = path.lastIndex(of: "."), !path[dot...].contains("/") else { return "" }
        return String(path[path.index(after: dot)...])
    }

    // MARK: Packets

    /// Reads up to `count` packets from packet `start` into `buffer` (room for whole packets only); returns the
    /// packets read, fewer at the end of the data.
    public func readPackets(start: Int64, count: Int, into buffer: UnsafeMutableRawBufferPointer) throws -> Int {
        try checkPacketAccess()
        guard start >= 0 else { throw AudioFileError(.misuse, "packet \(start) is before the start", path: path) }
        let bytesPerPacket = dataFormat.bytesPerPacket
        let packets = Int(max(0, min(Int64(min(count, buffer.count / bytesPerPacket)), packetCount - start)))
        guard packets > 0, let base = buffer.baseAddress else { return 0 }
        let wanted = packets * bytesPerPacket
        let got = try file.read(into: base, count: wanted, at: layout.dataOffset + start * Int64(bytesPerPacket))
        return got / bytesPerPacket
    }
}

extension AudioFile {
    /// Packets of a library codec vary in size and are the library's business: reading or writing them here
    /// is refused (`readFrames` / `writeFrames` decode and encode).
    func checkPacketAccess() throws {
        guard case .packets = coding else {
            throw AudioFileError(.unsupported, "\(dataFormat.formatID) packets are coded by its library: read or write frames instead", path: path)
        }
    }
}

extension SizeLayout {
    /// The layout of a file its codec library writes and reads: no size fields of ours.
    static func library(_ type: AudioFileType, format: StreamFormat) -> SizeLayout {
        SizeLayout(fileType: type, format: format, dataOffset: 0, dataSizeField: 0, factField: nil, reservedDS64: nil,
                   isRF64: false, commFramesField: nil)
    }
}

func unlinkQuietly(_ path: String) { AtomicFile.abandon(path) }
