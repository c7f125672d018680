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

    /// The exact conversion for this pair, or nil when the render needs its DSP chain.
    init?(input: AudioFile, output: AudioFile, settings: RenderSettings) {
        let from = input.dataFormat, to = output.dataFormat
        guard settings.preset == nil, settings.gainDB == 0, !settings.limit,
              from.channelsPerFrame == to.channelsPerFrame, from.sampleRate == to.sampleRate else { return nil }
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
}
