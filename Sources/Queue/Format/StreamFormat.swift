/// A stream description (Core Audio's `AudioStreamBasicDescription`, ASBD): everything needed to find frames
/// and samples in a run of bytes, plus the channel layout that 3+ channel streams must carry.
///
/// Linear PCM is always interleaved and packed here: one packet is one frame of `channelsPerFrame` samples of
/// `bitsPerChannel / 8` bytes. Compressed formats give `bytesPerFrame = 0` and whole packets of
/// `framesPerPacket` frames.
public struct StreamFormat: Hashable, Sendable, CustomStringConvertible {
    public var sampleRate: Double
    public var formatID: AudioFormatID
    public var flags: FormatFlags
    public var bytesPerPacket: Int
    public var framesPerPacket: Int
    public var bytesPerFrame: Int
    public var channelsPerFrame: Int
    public var bitsPerChannel: Int
    /// Required (and checked against `channelsPerFrame`) for 3 or more channels.
    public var channelLayout: ChannelLayout?

    /// The most channels a stream may have; the 8.24 engine itself handles up to 8.
    public static let maximumChannels = 64
    /// Sample rates outside 1 Hz ... 1.536 MHz are taken for corrupt headers.
    public static let sampleRateRange: ClosedRange<Double> = 1...1_536_000

    public init(sampleRate: Double, formatID: AudioFormatID, flags: FormatFlags, bytesPerPacket: Int,
                framesPerPacket: Int, bytesPerFrame: Int, channelsPerFrame: Int, bitsPerChannel: Int,
                channelLayout: ChannelLayout? = nil) {
        self.sampleRate = sampleRate
        self.formatID = formatID
        self.flags = flags
        self.bytesPerPacket = bytesPerPacket
        self.framesPerPacket = framesPerPacket
        self.bytesPerFrame = bytesPerFrame
        self.channelsPerFrame = channelsPerFrame
        self.bitsPerChannel = bitsPerChannel
        self.channelLayout = channelLayout
    }

    static func defaultLayout(_ channels: Int) -> ChannelLayout? {
        channels >= 3 ? .standard(channelCount: channels) : nil
    }

    /// Interleaved, packed linear PCM. 8-bit samples are unsigned when `isSigned` is false (as WAV stores them).
    public static func linearPCM(sampleRate: Double, channels: Int, bits: Int, isFloat: Bool = false,
                                 isBigEndian: Bool = false, isSigned: Bool = true) -> StreamFormat {
        var flags: FormatFlags = [.isPacked]
        if isFloat { flags.insert(.isFloat) } else if isSigned { flags.insert(.isSignedInteger) }
        if isBigEndian && bits > 8 { flags.insert(.isBigEndian) }
        let bytes = channels * (bits / 8)
        return StreamFormat(sampleRate: sampleRate, formatID: .linearPCM, flags: flags, bytesPerPacket: bytes,
                            framesPerPacket: 1, bytesPerFrame: bytes, channelsPerFrame: channels, bitsPerChannel: bits,
                            channelLayout: defaultLayout(channels))
    }

    public static func muLaw(sampleRate: Double, channels: Int) -> StreamFormat { g711(.muLaw, sampleRate, channels) }
    public static func aLaw(sampleRate: Double, channels: Int) -> StreamFormat { g711(.aLaw, sampleRate, channels) }

    static func g711(_ id: AudioFormatID, _ sampleRate: Double, _ channels: Int) -> StreamFormat {
        StreamFormat(sampleRate: sampleRate, formatID: id, flags: [], bytesPerPacket: channels, framesPerPacket: 1,
                     bytesPerFrame: channels, channelsPerFrame: channels, bitsPerChannel: 8,
                     channelLayout: defaultLayout(channels))
    }

    /// Apple IMA4: 64 frames in 34 bytes per channel.
    public static func appleIMA4(sampleRate: Double, channels: Int) -> StreamFormat {
        StreamFormat(sampleRate: sampleRate, formatID: .appleIMA4, flags: [], bytesPerPacket: 34 * channels,
                     framesPerPacket: 64, bytesPerFrame: 0, channelsPerFrame: channels, bitsPerChannel: 0,
                     channelLayout: defaultLayout(channels))
    }

    /// Microsoft IMA ADPCM with `blockAlign`-byte blocks (default: 256 bytes per channel, like most encoders).
    public static func microsoftIMAADPCM(sampleRate: Double, channels: Int, blockAlign: Int? = nil) -> StreamFormat {
        let align = blockAlign ?? 256 * max(1, channels)
        let headerBytes = 4 * max(1, channels)
        let frames = align >= headerBytes ? (align - headerBytes) * 8 / headerBytes + 1 : 0
        return StreamFormat(sampleRate: sampleRate, formatID: .microsoftIMAADPCM, flags: [], bytesPerPacket: align,
                            framesPerPacket: frames, bytesPerFrame: 0, channelsPerFrame: channels, bitsPerChannel: 4,
                            channelLayout: defaultLayout(channels))
    }

    /// A format a codec library decodes or encodes (FLAC, MP3, Opus, AAC, Apple Lossless): packets vary in
    /// size (`bytesPerPacket` 0); `framesPerPacket` is the usual packet length, 0 when it varies (FLAC, Opus);
    /// `bitsPerChannel` is the source's sample width for the lossless codecs, 0 for the lossy ones.
    public static func compressed(_ id: AudioFormatID, sampleRate: Double, channels: Int, framesPerPacket: Int = 0,
                                  bitsPerChannel: Int = 0) -> StreamFormat {
        StreamFormat(sampleRate: sampleRate, formatID: id, flags: [], bytesPerPacket: 0, framesPerPacket: framesPerPacket,
                     bytesPerFrame: 0, channelsPerFrame: channels, bitsPerChannel: bitsPerChannel,
                     channelLayout: defaultLayout(channels))
    }

    public var isLinearPCM: Bool { formatID == .linearPCM }
    public var isFloat: Bool { isLinearPCM && flags.contains(.isFloat) }
    public var isBigEndian: Bool { flags.contains(.isBigEndian) }
    public var isSignedInteger: Bool { flags.contains(.isSignedInteger) }

    /// Checks that the fields describe one consistent stream; the error says which field is wrong and why.
    public func validate() throws(StreamFormatError) {
        guard sampleRate.isFinite, Self.sampleRateRange.contains(sampleRate) else {
            throw StreamFormatError("sample rate \(sampleRate) Hz is outside 1 Hz ... 1536 kHz")
        }
        guard (1...Self.maximumChannels).contains(channelsPerFrame) else {
            throw StreamFormatError("\(channelsPerFrame) channels; 1 ... \(Self.maximumChannels) are supported")
        }
        if let layout = channelLayout, layout.channelCount != channelsPerFrame {
            throw StreamFormatError("the channel layout names \(layout.channelCount) channels, the stream has \(channelsPerFrame)")
        }
        if channelsPerFrame >= 3 && channelLayout == nil {
            throw StreamFormatError("\(channelsPerFrame) channels need a channel layout to say which is which")
        }
        guard !flags.contains(.isNonInterleaved) else { throw StreamFormatError("non-interleaved streams are not supported") }
        switch formatID {
        case .linearPCM:
            if flags.contains(.isFloat) {
                guard bitsPerChannel == 32 || bitsPerChannel == 64 else {
                    throw StreamFormatError("float samples are 32 or 64 bits, not \(bitsPerChannel)")
                }
                guard !flags.contains(.isSignedInteger) else { throw StreamFormatError("float and signed-integer flags both set") }
            } else {
                guard [8, 16, 24, 32].contains(bitsPerChannel) else {
                    throw StreamFormatError("integer samples are 8, 16, 24 or 32 bits, not \(bitsPerChannel)")
                }
                guard bitsPerChannel == 8 || flags.contains(.isSignedInteger) else {
                    throw StreamFormatError("\(bitsPerChannel)-bit unsigned samples are not supported (only 8-bit)")
                }
            }
            let frameBytes = channelsPerFrame * bitsPerChannel / 8
            guard bytesPerFrame == frameBytes else {
                throw StreamFormatError("bytes per frame is \(bytesPerFrame); \(channelsPerFrame) packed \(bitsPerChannel)-bit samples take \(frameBytes)")
            }
            guard framesPerPacket == 1 else { throw StreamFormatError("linear PCM has 1 frame per packet, not \(framesPerPacket)") }
            guard bytesPerPacket == bytesPerFrame else {
                throw StreamFormatError("bytes per packet (\(bytesPerPacket)) must equal bytes per frame (\(bytesPerFrame))")
            }
        case .muLaw, .aLaw:
            guard bitsPerChannel == 8, bytesPerFrame == channelsPerFrame, bytesPerPacket == channelsPerFrame, framesPerPacket == 1 else {
                throw StreamFormatError("\(formatID) takes one byte per sample: 8 bits, \(channelsPerFrame) bytes per frame and packet, 1 frame per packet")
            }
        case .appleIMA4:
            guard framesPerPacket == 64, bytesPerPacket == 34 * channelsPerFrame else {
                throw StreamFormatError("IMA4 packets are 64 frames in \(34 * channelsPerFrame) bytes for \(channelsPerFrame) channels, not \(framesPerPacket) in \(bytesPerPacket)")
            }
        case .microsoftIMAADPCM:
            let headerBytes = 4 * channelsPerFrame
            guard bytesPerPacket >= headerBytes, bytesPerPacket <= 0xFFFF, bytesPerPacket % headerBytes == 0 else {
                throw StreamFormatError("IMA ADPCM block size \(bytesPerPacket) must be a multiple of \(headerBytes) (4 bytes per channel), at most 65535")
            }
            let frames = (bytesPerPacket - headerBytes) * 8 / headerBytes + 1
            guard framesPerPacket == frames else {
                throw StreamFormatError("IMA ADPCM blocks of \(bytesPerPacket) bytes hold \(frames) frames, not \(framesPerPacket)")
            }
        case .flac, .mpegLayer3, .opus, .mpeg4AAC, .appleLossless:
            guard bytesPerPacket == 0, bytesPerFrame == 0, framesPerPacket >= 0 else {
                throw StreamFormatError("\(formatID) packets vary in size: bytes per packet and per frame are 0, not \(bytesPerPacket) and \(bytesPerFrame)")
            }
            guard bitsPerChannel == 0 || (4...32).contains(bitsPerChannel) else {
                throw StreamFormatError("\(formatID) sources are 4 ... 32 bits per sample, not \(bitsPerChannel)")
            }
        }
    }

    /// Bytes per sample of linear PCM (0 for compressed formats).
    var bytesPerSample: Int { isLinearPCM ? bitsPerChannel / 8 : (formatID == .muLaw || formatID == .aLaw ? 1 : 0) }

    public var description: String {
        let rate = sampleRate == sampleRate.rounded() ? "\(Int(sampleRate))" : "\(sampleRate)"
        let ch = "\(channelsPerFrame) ch"
        switch formatID {
        case .linearPCM:
            let kind = isFloat ? "Float\(bitsPerChannel)" : (isSignedInteger ? "Int\(bitsPerChannel)" : "UInt\(bitsPerChannel)")
            let order = bitsPerChannel > 8 ? (isBigEndian ? " big-endian" : " little-endian") : ""
            return "\(ch), \(rate) Hz, '\(formatID.fourCC)' \(kind)\(order)"
        case .flac, .mpegLayer3, .opus, .mpeg4AAC, .appleLossless:
            // Packets vary in size: the source depth (lossless) says more than a packet size.
            return "\(ch), \(rate) Hz, '\(formatID.fourCC)' \(formatID)" + (bitsPerChannel > 0 ? ", \(bitsPerChannel)-bit source" : "")
        default:
            return "\(ch), \(rate) Hz, '\(formatID.fourCC)' \(formatID), \(framesPerPacket) frames in \(bytesPerPacket) bytes per packet"
        }
    }
}
