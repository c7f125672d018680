import Codec8_24

extension AudioFile {
    /// Creates `path` (replacing any file there) as a `type` container holding `format`. A pairing the
    /// container cannot hold, or an inconsistent format, is refused here with the reason.
    ///
    /// The header is valid from the first byte on: sizes are committed every `options.commitInterval` seconds
    /// of audio (CAF's data chunk keeps the "unknown size" that runs to the end of the file), so a file cut off
    /// by power loss opens, and `AudioFile.repair` recovers everything up to the cut.
    public static func create(path: String, type: AudioFileType, format: StreamFormat,
                              options: AudioFileWriteOptions = AudioFileWriteOptions()) throws -> AudioFile {
        do { try format.validate() } catch {
            throw AudioFileError(.incompatibleFormat, "cannot create: \(error)", path: path)
        }
        if let refusal = type.refusal(for: format) {
            throw AudioFileError(.incompatibleFormat, "cannot create a \(type) file of \(format.formatID): \(refusal)", path: path)
        }
        if format.formatID.isLibraryCodec {
            return try createLibrary(path: path, type: type, format: format, options: options, libraryWriter: CodecLibrary.writer)
        }
        let file = try options.replaceAtomically ? FileDescriptor.createTemporary(for: path) : FileDescriptor.create(path)
        let target = file.path
        let temporary: String? = options.replaceAtomically ? target : nil
        let (bytes, layout) = ContainerWriter.header(type: type, format: format)
        let audioFile: AudioFile
        do {
            try file.write(bytes, at: 0)
            audioFile = try AudioFile(path: path, file: file, layout: layout, writable: true)
        } catch {
            unlinkQuietly(target)
            throw error
        }
        audioFile.temporaryPath = temporary
        audioFile.options = options
        audioFile.markers = options.markers
        audioFile.metadata = options.metadata
        audioFile.commitFrames = Int64(max(0, options.commitInterval) * format.sampleRate)
        try audioFile.commit()
        if options.synchronizeOnCommit && temporary == nil {
            // The file's syncs keep its data; its new name in the directory needs the directory's (fsync(2)).
            try FileDescriptor.synchronizeDirectory(of: path)
        }
        return audioFile
    }

    /// Makes the encoder of a library container: `CodecLibrary.writer`, or a test's double.
    typealias LibraryWriterFactory = (LibraryOutput, AudioFileType, StreamFormat, AudioFileWriteOptions) throws -> any CompressedFileWriter

    /// The containers and codecs the libraries encode (the recorder's formats); others are read only.
    static let libraryEncodings: [(AudioFileType, AudioFormatID)] = [(.flac, .flac), (.ogg, .flac), (.ogg, .opus),
                                                                       (.caf, .appleLossless), (.m4a, .appleLossless)]

    /// A file its codec library writes (FLAC, Ogg FLAC, Ogg Opus, Apple Lossless in CAF or M4A): the
    /// library writes the header itself; `options.metadata` becomes its tags; markers are not kept.
    static func createLibrary(path: String, type: AudioFileType, format: StreamFormat, options: AudioFileWriteOptions,
                              libraryWriter makeWriter: LibraryWriterFactory) throws -> AudioFile {
        guard libraryEncodings.contains(where: { $0 == (type, format.formatID) }) else {
            let encoders = libraryEncodings.map { "\($0.1) in \($0.0)" }.joined(separator: ", ")
            throw AudioFileError(.unsupported, "cannot create a \(type) file of \(format.formatID): it is read here, not written (encoders: \(encoders))", path: path)
        }
        let file = try options.replaceAtomically ? FileDescriptor.createTemporary(for: path) : FileDescriptor.create(path)
        let writer: any CompressedFileWriter
        do {
            writer = try makeWriter(LibraryOutput(file), type, format, options)
        } catch var error as AudioFileError {
            try? file.close()
            unlinkQuietly(file.path)
            error.path = path
            throw error
        }
        let audioFile = AudioFile(path: path, file: file, layout: .library(type, format: format), coding: .libraryWriter(writer), writable: true)
        audioFile.temporaryPath = options.replaceAtomically ? file.path : nil
        audioFile.options = options
        audioFile.metadata = options.metadata
        audioFile.commitFrames = Int64(max(0, options.commitInterval) * format.sampleRate)
        if options.synchronizeOnCommit && !options.replaceAtomically {
            do { try FileDescriptor.synchronizeDirectory(of: path) } catch {
                audioFile.discard()
                throw error
            }
        }
        return audioFile
    }

    func checkWritable() throws {
        guard isWritable else { throw AudioFileError(.misuse, "the file is open for reading only", path: path) }
        guard !isClosed else { throw AudioFileError(.misuse, "the file is closed", path: path) }
    }

    /// Appends interleaved 8.24 frames (whole frames of `channelCount`), encoding them to the data format.
    /// IMA formats keep a partial packet until it fills (or until `close()` pads it). Never allocates.
    public func writeFrames(_ frames: UnsafeBufferPointer<Fixed824>) throws {
        try checkWritable()
        let channels = channelCount
        guard frames.count % channels == 0 else {
            throw AudioFileError(.misuse, "\(frames.count) samples are not whole frames of \(channels) channels", path: path)
        }
        guard let source = frames.baseAddress else { return }
        let total = frames.count / channels
        let codec: PacketCodec
        switch coding {
        case .packets(let packetCodec): codec = packetCodec
        case .libraryWriter(let writer):
            try withPath { try writer.write(frames) }
            frameCount = writer.framesWritten
            framesSinceCommit += Int64(total)
            if commitFrames > 0 && framesSinceCommit >= commitFrames { try commit() }
            return
        case .libraryReader: throw AudioFileError(.misuse, "the file is open for reading only", path: path)
        }
        let framesPerPacket = dataFormat.framesPerPacket
        var i = 0
        while i < total {
            if framesPerPacket > 1 && (stagedFrames > 0 || total - i < framesPerPacket) {
                let n = min(framesPerPacket - stagedFrames, total - i)
                (packetFrames + stagedFrames * channels).update(from: source + i * channels, count: n * channels)
                stagedFrames += n
                i += n
                if stagedFrames == framesPerPacket {
                    try encodeAndAppend(packetFrames, packets: 1, validFrames: framesPerPacket, codec: codec)
                    stagedFrames = 0
                }
            } else {
                let packets = min((total - i) / framesPerPacket, chunkPackets)
                try encodeAndAppend(source + i * channels, packets: packets, validFrames: packets * framesPerPacket, codec: codec)
                i += packets * framesPerPacket
            }
        }
        framesSinceCommit += Int64(total)
        if commitFrames > 0 && framesSinceCommit >= commitFrames { try commit() }
    }

    func encodeAndAppend(_ source: UnsafePointer<Fixed824>, packets: Int, validFrames: Int, codec: PacketCodec) throws {
        let bytes = codec.encode(source, frames: packets * dataFormat.framesPerPacket, into: byteBuffer)
        try file.write(byteBuffer, count: bytes, at: layout.dataOffset + audioDataByteCount)
        packetCount += Int64(packets)
        frameCount += Int64(validFrames)
    }

    /// Appends whole packets already in the data format (e.g. copied from another file).
    public func writePackets(_ bytes: UnsafeRawBufferPointer, packetCount count: Int) throws {
        try checkWritable()
        try checkPacketAccess()
        guard stagedFrames == 0 else { throw AudioFileError(.misuse, "cannot write packets while a partial packet of frames is pending", path: path) }
        guard count >= 0, count * dataFormat.bytesPerPacket <= bytes.count, let base = bytes.baseAddress else {
            throw AudioFileError(.misuse, "\(bytes.count) bytes do not hold \(count) packets of \(dataFormat.bytesPerPacket)", path: path)
        }
        try file.write(base, count: count * dataFormat.bytesPerPacket, at: layout.dataOffset + audioDataByteCount)
        packetCount += Int64(count)
        frameCount += Int64(count * dataFormat.framesPerPacket)
        framesSinceCommit += Int64(count * dataFormat.framesPerPacket)
        if commitFrames > 0 && framesSinceCommit >= commitFrames { try commit() }
    }

    /// Writes the current sizes into the header now (what a power cut would then keep).
    public func commit() throws {
        try checkWritable()
        if case .libraryWriter(let writer) = coding {
            try withPath { try writer.commit() }
            framesSinceCommit = 0
            return
        }
        let end = layout.dataOffset + audioDataByteCount
        try ContainerWriter.writeSizes(file, &layout, dataBytes: audioDataByteCount, frames: frameCount, packets: packetCount,
                                       fileEnd: end, final: false, rf64Threshold: options.rf64Threshold)
        if options.synchronizeOnCommit { try file.synchronize() }
        framesSinceCommit = 0
    }

    /// Finishes the file: pads a partial IMA packet, writes markers and metadata after the audio, commits the
    /// final sizes, and (for atomic writes) renames the file into place. Reading files: just closes.
    public func close() throws {
        guard !isClosed else { return }
        guard isWritable else {
            isClosed = true
            if case .libraryReader(let reader) = coding { reader.close() }
            try file.close()
            return
        }
        do {
            try finish()
        } catch {
            if let temporaryPath { unlinkQuietly(temporaryPath) }
            isClosed = true
            throw error
        }
        isClosed = true
    }

    func finish() throws {
        if case .libraryWriter(let writer) = coding { return try finishLibrary(writer) }
        guard case .packets(let codec) = coding else { return }
        let channels = channelCount
        if stagedFrames > 0 {
            let framesPerPacket = dataFormat.framesPerPacket
            (packetFrames + stagedFrames * channels).update(repeating: .zero, count: (framesPerPacket - stagedFrames) * channels)
            try encodeAndAppend(packetFrames, packets: 1, validFrames: stagedFrames, codec: codec)
            stagedFrames = 0
        }
        var end = layout.dataOffset + audioDataByteCount
        if layout.fileType.family != .caf && audioDataByteCount % 2 == 1 {
            try file.write([0], at: end)
            end += 1
        }
        let trailer = ContainerWriter.trailer(layout, markers: markers, metadata: metadata, frames: frameCount, packets: packetCount)
        if !trailer.isEmpty {
            try file.write(trailer, at: end)
            end += Int64(trailer.count)
        }
        try ContainerWriter.writeSizes(file, &layout, dataBytes: audioDataByteCount, frames: frameCount, packets: packetCount,
                                       fileEnd: end, final: true, rf64Threshold: options.rf64Threshold)
        // A write that failed part way (ENOSPC on a full disk) leaves the bytes it got out after the last
        // whole packet: cut them, so the file is exactly what its header describes.
        if try file.length > end { try file.truncate(to: end) }
        if temporaryPath != nil {
            try file.commit(to: path)
            self.temporaryPath = nil
        } else {
            if options.synchronizeOnCommit { try file.synchronize() }
            try file.close()
        }
    }

    /// The library finishes its file (final header fields, then closes it, or leaves it open); an atomic
    /// write is then synced and renamed into place.
    func finishLibrary(_ writer: any CompressedFileWriter) throws {
        try withPath { try writer.finish() }
        frameCount = writer.framesWritten
        if let temporaryPath {
            // AtomicFile.commit syncs through a descriptor: the writer's own, or the file opened again.
            let open = file.isOpen ? file : try FileDescriptor.open(temporaryPath, writable: false)
            try open.commit(to: path)
            self.temporaryPath = nil
        } else {
            if options.synchronizeOnCommit && file.isOpen { try file.synchronize() }
            try file.close()
        }
    }

    /// Abandons a file being written: an atomic write's temporary file is removed; an in-place file is
    /// closed as it stands (its last commit is what readers see).
    public func discard() {
        guard !isClosed else { return }
        isClosed = true
        if case .libraryWriter(let writer) = coding { writer.abandon() }
        try? file.close()
        if let temporaryPath { unlinkQuietly(temporaryPath) }
    }
}
