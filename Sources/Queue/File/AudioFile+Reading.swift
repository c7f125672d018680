import Codec8_24

extension AudioFile {
    /// Moves the read position to `frame` (0 ... frameCount); the next `readFrames` starts there.
    public func seek(toFrame frame: Int64) throws {
        guard frame >= 0, frame <= frameCount else {
            throw AudioFileError(.misuse, "cannot seek to frame \(frame): the file has \(frameCount) frames", path: path)
        }
        if case .libraryReader(let reader) = coding {
            try withPath { try reader.seek(toFrame: frame) }
        }
        deferredDamage = nil
        framePosition = frame
    }

    /// Reads interleaved 8.24 frames from the read position into `buffer` (whole frames of `channelCount`);
    /// returns the frames read, 0 at the end. Never allocates.
    public func readFrames(into buffer: UnsafeMutableBufferPointer<Fixed824>) throws -> Int {
        guard !isClosed else { throw AudioFileError(.misuse, "the file is closed", path: path) }
        switch coding {
        case .packets(let codec): return try readPacketFrames(into: buffer, codec: codec)
        case .libraryReader(let reader): return try readLibraryFrames(into: buffer, reader: reader)
        case .libraryWriter: throw AudioFileError(.misuse, "the file is open for writing only", path: path)
        }
    }

    /// Frames from the codec library, as many as `buffer` holds (the library may hand them over a frame
    /// block at a time). A file that ends before its promised length is `.truncated`, after the frames before.
    /// Damage the library reports after some frames of this read were decoded is kept for the next call, so
    /// those frames are returned (they are audio, up to the damage) and the error comes next.
    func readLibraryFrames(into buffer: UnsafeMutableBufferPointer<Fixed824>, reader: any CompressedFileReader) throws -> Int {
        if let damage = deferredDamage {
            deferredDamage = nil
            throw damage
        }
        let channels = channelCount
        let wanted = Int(min(Int64(buffer.count / channels), frameCount - framePosition))
        guard wanted > 0, let output = buffer.baseAddress else { return 0 }
        var done = 0
        while done < wanted {
            let n: Int
            do {
                n = try withPath {
                    try reader.read(into: UnsafeMutableBufferPointer(start: output + done * channels, count: (wanted - done) * channels))
                }
            } catch {
                guard done > 0 else { throw error }
                deferredDamage = error
                break
            }
            if n <= 0 { break }
            done += min(n, wanted - done)
        }
        framePosition += Int64(done)
        if done == 0 {
            throw AudioFileError(.truncated, "the audio ends at frame \(framePosition) of the \(frameCount) the file promises", path: path)
        }
        return done
    }

    /// Runs a library call, naming this file in the error it throws.
    func withPath<T>(_ body: () throws -> T) throws -> T {
        do { return try body() } catch var error as AudioFileError {
            if error.path == nil { error.path = path }
            throw error
        }
    }

    func readPacketFrames(into buffer: UnsafeMutableBufferPointer<Fixed824>, codec: PacketCodec) throws -> Int {
        let channels = channelCount
        let framesPerPacket = Int64(dataFormat.framesPerPacket)
        let wanted = Int(min(Int64(buffer.count / channels), frameCount - framePosition))
        guard wanted > 0, let output = buffer.baseAddress else { return 0 }
        var done = 0
        while done < wanted {
            let packet = framePosition / framesPerPacket
            let within = Int(framePosition - packet * framesPerPacket)
            let validInPacket = Int(min(framesPerPacket, frameCount - packet * framesPerPacket))
            let remaining = wanted - done
            if within != 0 || remaining < Int(framesPerPacket) || validInPacket < Int(framesPerPacket) {
                try decodeSinglePacket(packet, codec: codec)
                let n = min(validInPacket - within, remaining)
                (output + done * channels).update(from: packetFrames + within * channels, count: n * channels)
                done += n
                framePosition += Int64(n)
            } else {
                let wholeValid = Int((frameCount - packet * framesPerPacket) / framesPerPacket)
                let packets = min(remaining / Int(framesPerPacket), chunkPackets, wholeValid)
                try readAndDecode(packet: packet, count: packets, into: output + done * channels, codec: codec)
                let frames = packets * Int(framesPerPacket)
                done += frames
                framePosition += Int64(frames)
            }
        }
        return done
    }

    func decodeSinglePacket(_ packet: Int64, codec: PacketCodec) throws {
        if cachedPacket == packet { return }
        cachedPacket = -1
        try readAndDecode(packet: packet, count: 1, into: packetFrames, codec: codec)
        cachedPacket = packet
    }

    func readAndDecode(packet: Int64, count: Int, into output: UnsafeMutablePointer<Fixed824>, codec: PacketCodec) throws {
        let bytesPerPacket = dataFormat.bytesPerPacket
        let offset = layout.dataOffset + packet * Int64(bytesPerPacket)
        let wanted = count * bytesPerPacket
        let got = try file.read(into: byteBuffer, count: wanted, at: offset)
        guard got == wanted else {
            throw AudioFileError(.truncated, "the audio data ends early (file shortened while open?)", offset: offset + Int64(got), path: path)
        }
        if packet != nextDecodedPacket { codec.reset() }
        do {
            _ = try codec.decode(byteBuffer, packets: count, into: output)
        } catch let error as AudioFileError {
            throw AudioFileError(error.kind, error.message, offset: offset, path: path)
        }
        nextDecodedPacket = packet + Int64(count)
    }
}
