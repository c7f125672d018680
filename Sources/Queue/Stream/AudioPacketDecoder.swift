import Codec8_24

/// Decodes the packets an `AudioFileStream` delivers to interleaved 8.24 frames (Core Audio's AudioConverter
/// from a stream's format): made from the stream's `dataFormat` and `magicCookie`. Library codecs (FLAC, MP3,
/// Opus, AAC, Apple Lossless) decode through their library, the others through `PacketCodec`. State is
/// allocated here; `decode` does not allocate. Not for the render thread.
public final class AudioPacketDecoder {
    public let format: StreamFormat
    private let coding: Coding

    private enum Coding {
        case library(any CompressedPacketDecoder)
        case packets(PacketCodec)
    }

    public init(format: StreamFormat, magicCookie: [UInt8] = []) throws {
        self.format = format
        coding = format.formatID.isLibraryCodec
            ? .library(try CodecLibrary.packetDecoder(format: format, magicCookie: magicCookie))
            : .packets(try PacketCodec(format: format))
    }

    /// The most frames one packet decodes to: the room (times the channel count) `decode` needs.
    public var maximumFramesPerPacket: Int {
        switch coding {
        case .library(let decoder): decoder.maximumFramesPerPacket
        case .packets: format.framesPerPacket
        }
    }

    /// Decodes one whole packet into `output` (room for `maximumFramesPerPacket` frames); returns the frames
    /// written. A corrupt packet throws `.malformed`; a too small `output` is a misuse.
    public func decode(_ packet: UnsafeRawBufferPointer, into output: UnsafeMutableBufferPointer<Fixed824>) throws -> Int {
        guard output.count >= maximumFramesPerPacket * format.channelsPerFrame else {
            throw AudioFileError(.misuse, "room for \(output.count) samples; a \(format.formatID) packet may need \(maximumFramesPerPacket * format.channelsPerFrame)")
        }
        switch coding {
        case .library(let decoder):
            return try decoder.decode(packet, into: output)
        case .packets(let codec):
            guard packet.count == format.bytesPerPacket, let input = packet.baseAddress, let base = output.baseAddress else {
                throw AudioFileError(.misuse, "a \(format.formatID) packet is \(format.bytesPerPacket) bytes, not \(packet.count)")
            }
            return try codec.decode(input, packets: 1, into: base)
        }
    }

    /// Forgets history (after a gap or a seek in the stream).
    public func reset() {
        switch coding {
        case .library(let decoder): decoder.reset()
        case .packets(let codec): codec.reset()
        }
    }
}
