import Codec8_24

/// Placeholder until this codec's part lands: refuses to decode.
final class FLACPacketDecoder: CompressedPacketDecoder {
    init(format: StreamFormat, magicCookie: [UInt8]) throws { throw AudioFileError(.unsupported, "FLAC packets are not decoded yet") }
    var maximumFramesPerPacket: Int { 0 }
    func decode(_ packet: UnsafeRawBufferPointer, into output: UnsafeMutableBufferPointer<Fixed824>) throws -> Int { 0 }
    func reset() {}
}
