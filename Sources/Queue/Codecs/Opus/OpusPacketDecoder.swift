import COpus
import Codec8_24

/// Decodes Opus packets as `AudioFileStream` delivers them from Ogg (libopus's multistream decoder, which also
/// covers mono and stereo), at 48 kHz, with the OpusHead's output gain applied (RFC 7845 5.1: decoders MUST
/// apply it) through OPUS_SET_GAIN, as libopusfile does.
///
/// Pre-skip and end trimming are the caller's business: every packet decodes whole, so the first
/// `OpusHead.preSkip` frames of a stream (the encoder's delay, in the cookie at bytes 10-11) are to be
/// dropped by whoever plays it, and the last page's granule position says where the audio ends (RFC 7845 4.2,
/// 4.4). A packet stream alone does not carry granule positions.
final class OpusPacketDecoder: CompressedPacketDecoder {
    let head: OpusHead
    private let decoder: OpaquePointer
    private let pcm: UnsafeMutablePointer<Float>

    /// `magicCookie` is the OpusHead packet (`AudioFileStreamProperty.magicCookie` from `OggStreamParser`).
    init(format: StreamFormat, magicCookie: [UInt8]) throws {
        head = try OpusHead(magicCookie)
        guard head.channels == format.channelsPerFrame else {
            throw AudioFileError(.malformed, "the OpusHead says \(head.channels) channels, the data format \(format.channelsPerFrame)")
        }
        var error: Int32 = 0
        guard let decoder = opus_multistream_decoder_create(Int32(OpusHead.sampleRate), Int32(head.channels),
                                                            Int32(head.streamCount), Int32(head.coupledCount),
                                                            head.mapping, &error) else {
            throw AudioFileError(.unsupported, "libopus refuses the OpusHead's channel mapping: \(String(cString: opus_strerror(error)))")
        }
        self.decoder = decoder
        if head.outputGain != 0 {
            let status = copus_ms_decoder_set_gain(decoder, Int32(head.outputGain))
            guard status == OPUS_OK else {
                opus_multistream_decoder_destroy(decoder)
                throw AudioFileError(.unsupported, "libopus refuses the output gain \(head.outputGain) (Q7.8 dB)")
            }
        }
        pcm = .allocate(capacity: OpusHead.maximumPacketFrames * head.channels)
    }

    deinit {
        opus_multistream_decoder_destroy(decoder)
        pcm.deallocate()
    }

    var maximumFramesPerPacket: Int { OpusHead.maximumPacketFrames }

    func decode(_ packet: UnsafeRawBufferPointer, into output: UnsafeMutableBufferPointer<Fixed824>) throws -> Int {
        guard let bytes = packet.baseAddress?.assumingMemoryBound(to: UInt8.self), packet.count > 0 else { return 0 }
        let capacity = min(OpusHead.maximumPacketFrames, output.count / head.channels)
        let frames = opus_multistream_decode_float(decoder, bytes, Int32(packet.count), pcm, Int32(capacity), 0)
        if frames == OPUS_BUFFER_TOO_SMALL {
            throw AudioFileError(.misuse, "the output has room for \(capacity) frames, fewer than the packet holds (maximumFramesPerPacket: \(OpusHead.maximumPacketFrames))")
        }
        guard frames >= 0 else {
            throw AudioFileError(.malformed, "corrupt Opus packet of \(packet.count) bytes: \(String(cString: opus_strerror(frames)))")
        }
        let count = Int(frames) * head.channels
        LibrarySamples.floatToFixed824(pcm, count: count, into: output)
        return Int(frames)
    }

    func reset() {
        _ = copus_ms_decoder_reset(decoder)
    }
}
