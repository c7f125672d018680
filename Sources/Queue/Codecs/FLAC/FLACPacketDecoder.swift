import Codec8_24

/// Decodes FLAC frames, one per packet as `FLACStreamParser` delivers them, with libFLAC: its stream decoder
/// reads a synthetic "fLaC" + STREAMINFO header made from the magic cookie, then each packet's bytes.
final class FLACPacketDecoder: CompressedPacketDecoder {
    private let decoder: FLACDecoder
    let maximumFramesPerPacket: Int

    /// `magicCookie`: the 34-byte STREAMINFO (also accepted with its 4-byte block header, or after "fLaC").
    init(format: StreamFormat, magicCookie: [UInt8]) throws {
        var cookie = magicCookie[...]
        if cookie.starts(with: Array("fLaC".utf8)) { cookie = cookie.dropFirst(4) }
        if cookie.count == FLACStreamInfo.length + 4 { cookie = cookie.dropFirst(4) }
        guard cookie.count == FLACStreamInfo.length, let info = FLACStreamInfo(cookie) else {
            throw AudioFileError(.malformed, "the FLAC magic cookie is not a STREAMINFO block (\(magicCookie.count) bytes, 34 expected)")
        }
        guard info.channels == format.channelsPerFrame else {
            throw AudioFileError(.malformed, "the FLAC magic cookie says \(info.channels) channels, the data format \(format.channelsPerFrame)")
        }
        decoder = try FLACDecoder(.packets(header: info.streamHeader))
        maximumFramesPerPacket = decoder.capacity
    }

    func decode(_ packet: UnsafeRawBufferPointer, into output: UnsafeMutableBufferPointer<Fixed824>) throws -> Int {
        guard decoder.decode(packet), let samples = decoder.samples, let out = output.baseAddress else {
            throw decoder.damage ?? AudioFileError(.malformed, "a FLAC packet of \(packet.count) bytes is not one whole frame")
        }
        let count = decoder.frames * decoder.channels
        guard output.count >= count else {
            throw AudioFileError(.misuse, "the output has room for \(output.count / decoder.channels) frames; the packet holds \(decoder.frames)")
        }
        out.update(from: samples, count: count)
        return decoder.frames
    }

    func reset() { decoder.flush() }
}
