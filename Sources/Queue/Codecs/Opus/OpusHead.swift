/// The Ogg Opus identification header (RFC 7845 section 5.1), the stream's magic cookie: what a packet decoder
/// needs (channels, output gain, channel mapping) and what the caller trims (pre-skip).
struct OpusHead: Equatable {
    /// Opus always decodes at 48 kHz (RFC 7845 section 4).
    static let sampleRate = 48000
    /// The longest Opus packet: 120 ms (RFC 6716 section 3.2.5), in 48 kHz frames.
    static let maximumPacketFrames = 5760

    var channels: Int
    /// Frames to discard at the stream's start (the encoder's delay, at 48 kHz).
    var preSkip: Int
    /// Q7.8 dB to apply to the decoded output (RFC 7845 5.1: "Output Gain").
    var outputGain: Int16
    var mappingFamily: Int
    var streamCount: Int
    var coupledCount: Int
    /// Decoded channel -> stream channel (255: silent), as the multistream decoder takes it.
    var mapping: [UInt8]

    /// Parses `packet`; the error names what is wrong.
    init(_ packet: [UInt8]) throws {
        // RFC 7845 5.1: "OpusHead", version (major 0 in the top nibble), channel count, pre-skip (LE16),
        // input sample rate (LE32), output gain (LE16, signed Q7.8), mapping family, then the mapping table.
        guard packet.count >= 19, packet.starts(with: Array("OpusHead".utf8)) else {
            throw AudioFileError(.malformed, "not an OpusHead packet (RFC 7845 5.1: 19 bytes at least, starting \"OpusHead\")")
        }
        guard packet[8] >> 4 == 0 else {
            throw AudioFileError(.unsupported, "OpusHead version \(packet[8]): only major version 0 is defined (RFC 7845 5.1)")
        }
        channels = Int(packet[9])
        preSkip = Int(packet[10]) | Int(packet[11]) << 8
        outputGain = Int16(bitPattern: UInt16(packet[16]) | UInt16(packet[17]) << 8)
        mappingFamily = Int(packet[18])
        guard channels >= 1 else { throw AudioFileError(.malformed, "OpusHead says 0 channels") }
        if mappingFamily == 0 {
            guard channels <= 2 else {
                throw AudioFileError(.malformed, "OpusHead mapping family 0 with \(channels) channels (at most 2, RFC 7845 5.1.1.1)")
            }
            streamCount = 1
            coupledCount = channels - 1
            mapping = channels == 1 ? [0] : [0, 1]
        } else {
            guard packet.count >= 21 + channels else {
                throw AudioFileError(.malformed, "OpusHead ends inside its channel mapping table (RFC 7845 5.1.1)")
            }
            streamCount = Int(packet[19])
            coupledCount = Int(packet[20])
            mapping = Array(packet[21..<(21 + channels)])
            guard streamCount >= 1, coupledCount <= streamCount, streamCount + coupledCount <= 255,
                  mapping.allSatisfy({ $0 == 255 || Int($0) < streamCount + coupledCount }) else {
                throw AudioFileError(.malformed, "OpusHead channel mapping is inconsistent (\(streamCount) streams, \(coupledCount) coupled)")
            }
        }
    }
}

extension OpusHead {
    /// The speaker layout of mapping family 1 (RFC 7845 5.1.1.2, the Vorbis channel order) for 3 ... 8
    /// channels, as WAV speaker positions; nil for mono and stereo; discrete channels for other families.
    static func layout(channels: Int, family: Int) -> ChannelLayout? {
        guard channels >= 3 else { return nil }
        let (l, r, c, lfe, bl, br, bc, sl, sr): (UInt32, UInt32, UInt32, UInt32, UInt32, UInt32, UInt32, UInt32, UInt32) =
            (1, 2, 3, 4, 5, 6, 9, 10, 11)
        let order: [UInt32]? = switch (family, channels) {
        case (1, 3): [l, c, r]
        case (1, 4): [l, r, bl, br]
        case (1, 5): [l, c, r, bl, br]
        case (1, 6): [l, c, r, bl, br, lfe]
        case (1, 7): [l, c, r, sl, sr, bc, lfe]
        case (1, 8): [l, c, r, sl, sr, bl, br, lfe]
        default: nil
        }
        guard let order else { return ChannelLayout(labels: (0..<channels).map { ChannelLabel.discrete($0) }) }
        return ChannelLayout(labels: order.map { ChannelLabel(rawValue: $0) })
    }

    /// The decoded stream's format: 48 kHz, the head's channels in their speaker layout.
    var format: StreamFormat {
        var format = StreamFormat.compressed(.opus, sampleRate: Double(Self.sampleRate), channels: channels)
        format.channelLayout = Self.layout(channels: channels, family: mappingFamily)
        return format
    }
}
