import Codec8_24

/// A conversion that changes nothing but the data format (no EQ, gain, limiter, rate or channel change), done
/// without the 8.24 chain so that it is exact whenever the target can hold the source: s32 to s32, f32 to f32
/// or f64, s16 to s24, µ-law to s16 come out sample for sample; float to s24 or s32 rounds once (8.24 would round
/// twice and drop the bits below 2^-24). Identical formats are copied packet for packet (IMA stays as coded).
///
/// Narrowing to 8 or 16 bits is left to the 8.24 chain, which dithers; so is encoding to G.711 or IMA.
final class ExactConversion {
    let input: AudioFile
    let output: AudioFile
    /// Packets per block.
    let blockPackets: Int
    let packetBytes: UnsafeMutableRawPointer
    let samples: UnsafeMutablePointer<Double>
    let scratch: UnsafeMutablePointer<Fixed824>
    let encoded: UnsafeMutableRawPointer
    /// Whether the packets are copied as they are.
    let copiesPackets: Bool
    /// Whether 8.24 frames are copied from a codec library's decoder or to its encoder (through `scratch`).
    let copiesFrames: Bool


    /// Whether `format` keeps every `bits`-bit sample as it is (lossy encoders take the frames as they come).
    static func holds(_ format: StreamFormat, bits: Int) -> Bool {
        switch format.formatID {
        case .flac, .appleLossless: return format.bitsPerChannel >= bits
        case .mpegLayer3, .opus, .mpeg4AAC: return true
        default:
            guard let codec = try? PacketCodec(format: format), codec.encodesExactly else { return false }
            return (codec.exactIntegerBits ?? (format.bitsPerChannel == 32 ? 24 : 53)) >= bits
        }
    }

    /// The exact conversion for this pair, or nil when the render needs its DSP chain.
    init?(input: AudioFile, output: AudioFile, settings: RenderSettings) {
        let from = input.dataFormat, to = output.dataFormat
        guard settings.preset == nil, settings.gainDB == 0, !settings.limit,
              from.channelsPerFrame == to.channelsPerFrame, from.sampleRate == to.sampleRate else { return nil }
        if from.formatID.isLibraryCodec || to.formatID.isLibraryCodec {
            // A codec library decodes and encodes 8.24 frames: exact for sources of up to 24 bits, when the
            // target holds as many (FLAC 16 bits to WAV s16 and back are bit for bit; no dither is added).
            guard let bits = from.exactSampleBits, bits <= 24, Self.holds(to, bits: bits) else { return nil }
            self.input = input
            self.output = output
            copiesPackets = false
            copiesFrames = true
            blockPackets = FileRenderer.blockFrames
            packetBytes = .allocate(byteCount: 0, alignment: 8)
            samples = .allocate(capacity: 0)
            scratch = .allocate(capacity: FileRenderer.blockFrames * from.channelsPerFrame)
            encoded = .allocate(byteCount: 0, alignment: 8)
            return
        }
        copiesFrames = false
        var sameCoding = from
        sameCoding.sampleRate = to.sampleRate
        sameCoding.channelLayout = to.channelLayout
        let copies = sameCoding == to
        if !copies {
            guard to.isLinearPCM, let source = try? PacketCodec(format: from), let target = try? PacketCodec(format: to),
                  target.encodesExactly else { return nil }
            let holdsExactly: Bool = switch (source.exactIntegerBits, target.exactIntegerBits) {
            case let (fromBits?, toBits?): toBits >= fromBits
            case let (fromBits?, nil): fromBits <= (to.bitsPerChannel == 32 ? 24 : 53)
            case (nil, nil): to.bitsPerChannel >= from.bitsPerChannel
            case (nil, _?): false
            }
            // Rounding once is right for 24 bits and wider or float; narrower integer targets get dither.
            let roundsOnce = target.isFloatCoding || (target.exactIntegerBits ?? 0) >= 24
            guard holdsExactly || (roundsOnce && !settings.dither) else { return nil }
        }
        self.input = input
        self.output = output
        copiesPackets = copies
        let framesPerPacket = from.framesPerPacket
        blockPackets = max(1, FileRenderer.blockFrames / framesPerPacket)
        let sampleCount = blockPackets * framesPerPacket * from.channelsPerFrame
        packetBytes = .allocate(byteCount: blockPackets * from.bytesPerPacket, alignment: 8)
        samples = .allocate(capacity: copies ? 0 : sampleCount)
        scratch = .allocate(capacity: copies ? 0 : sampleCount)
        encoded = .allocate(byteCount: copies ? 0 : sampleCount * 8, alignment: 8)
    }

    deinit {
        packetBytes.deallocate()
        samples.deallocate()
        scratch.deallocate()
        encoded.deallocate()
    }

    /// Converts the whole input; returns the output frames written.
    func run(progress: (Int64) -> Void) throws -> Int64 {
        if copiesFrames { return try copyFrames(progress: progress) }
        let from = input.dataFormat
        let source = copiesPackets ? nil : try PacketCodec(format: from)
        let target = copiesPackets ? nil : try PacketCodec(format: output.dataFormat)
        var packet: Int64 = 0
        var written: Int64 = 0
        while true {
            let count = try input.readPackets(start: packet, count: blockPackets,
                                              into: UnsafeMutableRawBufferPointer(start: packetBytes, count: blockPackets * from.bytesPerPacket))
            if count == 0 { break }
            if let source, let target {
                // An IMA file's last packet may hold fewer valid frames than it codes.
                let decoded = try source.decodeExact(packetBytes, packets: count, into: samples, scratch: scratch)
                let frames = Int(min(Int64(decoded), input.frameCount - written))
                let bytes = target.encodeExact(samples, frames: frames, into: encoded)
                try output.writePackets(UnsafeRawBufferPointer(start: encoded, count: bytes), packetCount: frames)
                written += Int64(frames)
            } else {
                try output.writePackets(UnsafeRawBufferPointer(start: packetBytes, count: count * from.bytesPerPacket), packetCount: count)
                written = min(input.frameCount, output.frameCount)
                output.frameCount = written   // the valid frames of a last partial packet, as the input says
            }
            packet += Int64(count)
            progress(written)
        }
        return written
    }

    func copyFrames(progress: (Int64) -> Void) throws -> Int64 {
        let channels = input.channelCount
        var written: Int64 = 0
        while true {
            let frames = try input.readFrames(into: UnsafeMutableBufferPointer(start: scratch, count: blockPackets * channels))
            if frames == 0 { break }
            try output.writeFrames(UnsafeBufferPointer(start: scratch, count: frames * channels))
            written += Int64(frames)
            progress(written)
        }
        return written
    }
}

extension StreamFormat {
    /// The integer width every decoded sample fits in exactly (16 for s16, µ-law and IMA; a lossless codec's
    /// source depth), or nil for float samples and lossy codecs.
    public var exactSampleBits: Int? {
        switch formatID {
        case .flac, .appleLossless: bitsPerChannel > 0 ? bitsPerChannel : nil
        case .mpegLayer3, .opus, .mpeg4AAC: nil
        default: (try? PacketCodec(format: self))?.exactIntegerBits
        }
    }
}
