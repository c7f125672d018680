import CMPG123
import Codec8_24

/// Decodes MP3 frames as `MP3StreamParser` cuts them, with libmpg123 in feed mode, to interleaved 8.24.
/// No gapless trimming: a stream has no end to trim, and its LAME tag frame never reaches the decoder. The
/// first frames of a stream joined in the middle decode with an empty bit reservoir (libmpg123 fills the gap).
final class MP3PacketDecoder: CompressedPacketDecoder {
    private let handle: MPG123Handle
    private let channels: Int
    let maximumFramesPerPacket: Int

    init(format: StreamFormat) throws {
        guard format.formatID == .mpegLayer3, (1...2).contains(format.channelsPerFrame),
              MPG123Handle.allRates.contains(Int(format.sampleRate)) else {
            throw AudioFileError(.unsupported, "not an MP3 stream format libmpg123 decodes: \(format)")
        }
        channels = format.channelsPerFrame
        // ISO/IEC 11172-3: 1152 samples per Layer III frame (MPEG-2 and 2.5: 576, ISO/IEC 13818-3).
        maximumFramesPerPacket = format.framesPerPacket == 576 ? 576 : 1152
        handle = try MPG123Handle(gapless: false, rates: [Int(format.sampleRate)], channels: [channels])
        // Packets are whole frames: decode each as it comes, without waiting for the next frame's header.
        try handle.check(mpg123_param2(handle.raw, Int32(MPG123_ADD_FLAGS.rawValue), Int(MPG123_NO_READAHEAD.rawValue), 0),
                         "decode whole frames without read-ahead")
        try handle.check(mpg123_open_feed(handle.raw), "open a feed")
    }

    func decode(_ packet: UnsafeRawBufferPointer, into output: UnsafeMutableBufferPointer<Fixed824>) throws -> Int {
        guard let base = output.baseAddress, output.count >= maximumFramesPerPacket * channels else {
            throw AudioFileError(.misuse, "the output holds \(output.count) samples; an MP3 packet needs room for \(maximumFramesPerPacket * channels)")
        }
        let capacity = output.count * 4
        var total = 0
        var done = 0
        // The packet in; then its samples out, past any format message, until the decoder wants more.
        var result = mpg123_decode(handle.raw, packet.baseAddress?.assumingMemoryBound(to: UInt8.self), packet.count,
                                   UnsafeMutableRawPointer(base), capacity, &done)
        total += done
        while result == MPG123_NEW_FORMAT.rawValue || (result == MPG123_OK.rawValue && total < capacity) {
            result = mpg123_decode(handle.raw, nil, 0, UnsafeMutableRawPointer(base) + total, capacity - total, &done)
            total += done
            if result == MPG123_OK.rawValue && done == 0 { break }
        }
        guard result == MPG123_NEED_MORE.rawValue || result == MPG123_OK.rawValue else {
            throw AudioFileError(.malformed, "libmpg123 cannot decode this MP3 packet of \(packet.count) bytes: \(handle.lastError)")
        }
        let samples = total / 4
        LibrarySamples.int32ToFixed824(base, count: samples)
        return samples / channels
    }

    func reset() {
        mpg123_close(handle.raw)
        _ = mpg123_open_feed(handle.raw)
    }
}
