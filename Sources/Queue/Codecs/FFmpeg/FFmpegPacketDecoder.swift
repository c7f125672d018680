import CFFmpeg
import Codec8_24

/// AAC or Apple Lossless packets, as `AudioFileStream` delivers them, decoded by libavcodec to interleaved 8.24.
/// The magic cookie becomes the decoder's extradata: AAC's AudioSpecificConfig (ISO/IEC 14496-3 1.6.2.1, from
/// an ADTS header or an MP4 'esds'), Apple Lossless's ALACSpecificConfig (24 bytes, or inside an 'alac' atom).
/// AAC packets are raw (the ADTS header stripped, as ADTSStreamParser delivers them).
final class FFmpegPacketDecoder: CompressedPacketDecoder {
    let maximumFramesPerPacket: Int
    private let session: FFmpegSession
    private let channels: Int
    private let formatID: AudioFormatID
    /// A padded copy of each packet (FFmpeg reads up to 64 bytes past a packet's end); grows only for a
    /// packet larger than any before it.
    private var buffer: UnsafeMutablePointer<UInt8>
    private var capacity: Int

    init(format: StreamFormat, magicCookie: [UInt8]) throws {
        formatID = format.formatID
        let library = try FFmpegLibrary.loaded(for: "\(format.formatID) decoding")
        session = try FFmpegSession(library)
        let api = library.api
        channels = format.channelsPerFrame
        guard let id = FFmpegCodecs.codecID(format.formatID) else {
            throw AudioFileError(.unsupported, "FFmpeg decodes AAC and Apple Lossless here, not \(format.formatID)")
        }
        let cookie = format.formatID == .appleLossless ? try Self.alacExtradata(magicCookie) : magicCookie
        var frames = format.formatID == .appleLossless ? 4096 : 2048   // AAC: 1024, twice that with SBR
        if format.formatID == .appleLossless, cookie.count >= 16 {
            // ALACSpecificConfig's first field (after the atom's 12 bytes): frameLength, big-endian.
            frames = Int(cookie[12]) << 24 | Int(cookie[13]) << 16 | Int(cookie[14]) << 8 | Int(cookie[15])
        }
        maximumFramesPerPacket = max(frames, format.framesPerPacket, 1)
        _ = try session.openDecoder(id, name: format.formatID.description,
                                    setup: "this stream's setup (magic cookie of \(cookie.count) bytes)") { context in
            context.pointee.sample_rate = Int32(format.sampleRate)
            api.av_channel_layout_default(&context.pointee.ch_layout, Int32(format.channelsPerFrame))
            guard !cookie.isEmpty else { return }
            guard let extradata = api.av_malloc(cookie.count + FFmpegLibrary.inputPadding) else {
                throw AudioFileError(.io, "FFmpeg could not allocate the magic cookie")
            }
            extradata.initializeMemory(as: UInt8.self, repeating: 0, count: cookie.count + FFmpegLibrary.inputPadding)
            cookie.withUnsafeBytes { extradata.copyMemory(from: $0.baseAddress!, byteCount: cookie.count) }
            context.pointee.extradata = extradata.assumingMemoryBound(to: UInt8.self)
            context.pointee.extradata_size = Int32(cookie.count)
        }
        capacity = 8192
        buffer = .allocate(capacity: capacity + FFmpegLibrary.inputPadding)
        buffer.initialize(repeating: 0, count: capacity + FFmpegLibrary.inputPadding)
    }

    deinit { buffer.deallocate() }

    /// FFmpeg's alac decoder wants the 36-byte 'alac' atom (size, 'alac', version, then the 24-byte
    /// ALACSpecificConfig); a cookie may be the bare config, or atoms ('frma', 'alac', ...) as CAF's 'kuki' has.
    static func alacExtradata(_ cookie: [UInt8]) throws -> [UInt8] {
        if cookie.count == 24 { return [0, 0, 0, 36] + Array("alac".utf8) + [0, 0, 0, 0] + cookie }
        var i = 0
        while i + 8 <= cookie.count {
            let size = Int(cookie[i]) << 24 | Int(cookie[i + 1]) << 16 | Int(cookie[i + 2]) << 8 | Int(cookie[i + 3])
            if cookie[(i + 4)..<(i + 8)].elementsEqual("alac".utf8), size >= 36, i + size <= cookie.count {
                return Array(cookie[i..<(i + size)])
            }
            guard size >= 8 else { break }
            i += size
        }
        throw AudioFileError(.malformed, "the Apple Lossless magic cookie (\(cookie.count) bytes) holds no ALACSpecificConfig")
    }

    func decode(_ packet: UnsafeRawBufferPointer, into output: UnsafeMutableBufferPointer<Fixed824>) throws -> Int {
        guard let decoder = session.decoder, let avPacket = session.packet, let frame = session.frame,
              let source = packet.baseAddress, let base = output.baseAddress, packet.count > 0 else { return 0 }
        let api = session.api
        if packet.count > capacity {
            buffer.deallocate()
            capacity = packet.count
            buffer = .allocate(capacity: capacity + FFmpegLibrary.inputPadding)
            buffer.initialize(repeating: 0, count: capacity + FFmpegLibrary.inputPadding)
        }
        UnsafeMutableRawPointer(buffer).copyMemory(from: source, byteCount: packet.count)
        (buffer + packet.count).initialize(repeating: 0, count: FFmpegLibrary.inputPadding)
        avPacket.pointee.data = buffer
        avPacket.pointee.size = Int32(packet.count)
        let sent = api.avcodec_send_packet(decoder, avPacket)   // not reference-counted: FFmpeg copies it
        avPacket.pointee.data = nil
        avPacket.pointee.size = 0
        guard sent >= 0 else {
            throw AudioFileError(.malformed, "corrupt \(formatID) packet (\(packet.count) bytes): \(session.library.message(sent))")
        }
        let room = output.count / channels
        var written = 0
        while api.avcodec_receive_frame(decoder, frame) == 0 {
            let n = Int(frame.pointee.nb_samples)
            guard Int(frame.pointee.ch_layout.nb_channels) == channels else {
                throw AudioFileError(.malformed, "the \(formatID) packet decodes to \(frame.pointee.ch_layout.nb_channels) channels, the stream has \(channels)")
            }
            // Never drop decoded audio silently: the caller sizes `output` by maximumFramesPerPacket.
            guard n <= room - written else {
                throw AudioFileError.misuse("the \(formatID) packet decodes to \(written + n) frames, more than the \(room) the output holds (maximumFramesPerPacket is \(maximumFramesPerPacket))")
            }
            FFmpegSampleConversion.interleave(frame, channels: channels, first: 0, count: n, into: base + written * channels)
            written += n
        }
        return written
    }

    func reset() {
        if let decoder = session.decoder { session.api.avcodec_flush_buffers(decoder) }
    }
}
