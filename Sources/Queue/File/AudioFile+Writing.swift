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
        let framesPerPacket = dataFormat.framesPerPacket
        var i = 0
        while i < total {
            if framesPerPacket > 1 && (stagedFrames > 0 || total - i < framesPerPacket) {
                let n = min(framesPerPacket - stagedFrames, total - i)
                (packetFrames + stagedFrames * channels).update(from: source + i * channels, count: n * channels)
                stagedFrames += n
                i += n
                if stagedFrames == framesPerPacket {
                    try encodeAndAppend(packetFrames, packets: 1, validFrames: framesPerPacket)
                    stagedFrames = 0
                }
            } else {
                let packets = min((total - i) / framesPerPacket, chunkPackets)
                try encodeAndAppend(source + i * channels, packets: packets, validFrames: packets * framesPerPacket)
                i += packets * framesPerPacket
            }
        }
        framesSinceCommit += Int64(total)
        if commitFrames > 0 && framesSinceCommit >= commitFrames { try commit() }
    }

    func encodeAndAppend(_ source: UnsafePointer<Fixed824>, packets: Int, validFrames: Int) throws {
        let bytes = codec.encode(source, frames: packets * dataFormat.framesPerPacket, into: byteBuffer)
        try file.write(byteBuffer, count: bytes, at: layout.dataOffset + audioDataByteCount)
        packetCount += Int64(packets)
        frameCount += Int64(validFrames)
    }

    /// Appends whole packets already in the data format (e.g. copied from another file).
    public func writePackets(_ bytes: UnsafeRawBufferPointer, packetCount count: Int) throws {
        try checkWritable()
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
        let channels = channelCount
        if stagedFrames > 0 {
            let framesPerPacket = dataFormat.framesPerPacket
            (packetFrames + stagedFrames * channels).update(repeating: .zero, count: (framesPerPacket - stagedFrames) * channels)
            try encodeAndAppend(packetFrames, packets: 1, validFrames: stagedFrames)
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
        if temporaryPath != nil {
            try file.commit(to: path)
            self.temporaryPath = nil
        } else {
            if options.synchronizeOnCommit { try file.synchronize() }
            try file.close()
        }
    }

    /// Abandons a file being written: an atomic write's temporary file is removed; an in-place file is
    /// closed as it stands (its last commit is what readers see).
    public func discard() {
        guard !isClosed else { return }
        isClosed = true
        try? file.close()
        if let temporaryPath { unlinkQuietly(temporaryPath) }
    }
}
