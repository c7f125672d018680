/// Push parsing of AAC in ADTS frames (ISO/IEC 13818-7 6.2.1 / ISO/IEC 14496-3 1.A.2.2), in any chunking down
/// to one byte: each frame becomes one packet of raw AAC (header stripped, as FFmpegPacketDecoder takes it with
/// the AudioSpecificConfig as magic cookie). At the stream's first byte a valid header is taken at its word;
/// anywhere else (joining mid-stream, or after damage) a header counts only when the next frame's header also
/// parses with the same sampling rate, channels and profile.
final class ADTSStreamParser: CompressedStreamParser {
    /// The fixed part of an ADTS header, as parsed.
    struct Header: Equatable {
        /// The AAC profile (0 Main, 1 LC, 2 SSR, 3 LTP); the audio object type is profile + 1.
        var profile: Int
        var samplingIndex: Int
        var channelConfiguration: Int
        /// Header bytes: 7, or 9 with the CRC (protection_absent = 0).
        var headerLength: Int
        /// The whole frame, header included (frame_length, 13 bits).
        var frameLength: Int
        /// AAC frames of 1024 samples in this ADTS frame (number_of_raw_data_blocks_in_frame + 1).
        var blocks: Int

        /// ISO/IEC 14496-3 table 1.18, sampling_frequency_index 0 ... 12.
        static let sampleRates = [96000, 88200, 64000, 48000, 44100, 32000, 24000, 22050, 16000, 12000, 11025, 8000, 7350]

        /// Parses 7 bytes at `p`, or nil when they are not an ADTS header.
        init?(_ p: UnsafePointer<UInt8>) {
            // syncword 0xFFF, ID (any), layer '00'.
            guard p[0] == 0xFF, p[1] & 0xF6 == 0xF0 else { return nil }
            profile = Int(p[2] >> 6)
            samplingIndex = Int((p[2] >> 2) & 0x0F)
            channelConfiguration = Int((p[2] & 0x01) << 2 | p[3] >> 6)
            headerLength = p[1] & 0x01 == 1 ? 7 : 9
            frameLength = Int(p[3] & 0x03) << 11 | Int(p[4]) << 3 | Int(p[5] >> 5)
            blocks = Int(p[6] & 0x03) + 1
            guard samplingIndex < Self.sampleRates.count, frameLength > headerLength else { return nil }
        }

        var sampleRate: Int { Self.sampleRates[samplingIndex] }
        /// Channel configurations 1 ... 6 are that many channels, 7 is 7.1 (8); 0 means a program config
        /// element in the stream, which this parser does not read.
        var channels: Int { channelConfiguration == 7 ? 8 : channelConfiguration }

        /// AudioSpecificConfig (ISO/IEC 14496-3 1.6.2.1): audioObjectType (5 bits), samplingFrequencyIndex
        /// (4), channelConfiguration (4), then GASpecificConfig's frameLengthFlag, dependsOnCoreCoder and
        /// extensionFlag, all 0.
        var audioSpecificConfig: [UInt8] {
            let objectType = profile + 1
            return [UInt8(objectType << 3 | samplingIndex >> 1), UInt8((samplingIndex & 1) << 7 | channelConfiguration << 3)]
        }

        func sameStream(as other: Header) -> Bool {
            profile == other.profile && samplingIndex == other.samplingIndex && channelConfiguration == other.channelConfiguration
        }
    }

    /// Bytes not yet parsed: at most a header hunt's window plus one frame (frame_length is 13 bits).
    private var pending: [UInt8] = []
    /// Stream offset of `pending[0]`.
    private var offset: Int64 = 0
    private var stream: Header?
    /// Whether the parser follows frames (each header where the previous frame ended).
    private var locked = false
    /// Bytes searched without finding a frame, to give up on a stream that is not ADTS.
    private var hunted = 0
    static let huntLimit = 1 << 16

    init() { pending.reserveCapacity(2 * 8192) }

    func parse(_ bytes: UnsafeRawBufferPointer, onProperty: AudioFileStream.PropertyListener,
               onPackets: AudioFileStream.PacketsHandler) throws {
        pending.append(contentsOf: bytes)
        var consumed = 0
        defer {
            if consumed > 0 {
                pending.removeFirst(consumed)
                offset += Int64(consumed)
            }
        }
        try pending.withUnsafeBufferPointer { all in
            guard let base = all.baseAddress else { return }
            let count = all.count
            while count - consumed >= 7 {
                let p = base + consumed
                guard let header = Header(p) else {
                    if locked { locked = false }   // damage: hunt again, with confirmation
                    consumed += 1
                    try countHunt()
                    continue
                }
                if let stream, !header.sameStream(as: stream) {
                    locked = false
                }
                if !locked {
                    let atStart = offset + Int64(consumed) == 0
                    if !atStart {
                        // Confirm by the next header.
                        guard count - consumed >= header.frameLength + 7 else { return }
                        guard let next = Header(p + header.frameLength), next.sameStream(as: header) else {
                            consumed += 1
                            try countHunt()
                            continue
                        }
                    }
                    if stream == nil { try announce(header, onProperty) }
                    else if let stream, !header.sameStream(as: stream) {
                        throw AudioFileError(.unsupported, "the ADTS stream changes format mid-stream (\(stream.sampleRate) Hz, \(stream.channels) ch to \(header.sampleRate) Hz, \(header.channels) ch)",
                                             offset: offset + Int64(consumed))
                    }
                    locked = true
                    hunted = 0
                }
                guard count - consumed >= header.frameLength else { return }
                // ISO/IEC 13818-7 6.2.1: number_of_raw_data_blocks_in_frame > 0 packs several raw data blocks
                // (1024 frames each) in one ADTS frame; FFmpeg's decoder, given the payload as one packet,
                // decodes only the first. Refused rather than played with gaps.
                guard header.blocks == 1 else {
                    throw AudioFileError(.unsupported, "an ADTS frame holds \(header.blocks) raw data blocks (number_of_raw_data_blocks_in_frame \(header.blocks - 1), ISO/IEC 13818-7 6.2.1); only one per frame is supported",
                                         offset: offset + Int64(consumed))
                }
                let payload = UnsafeRawBufferPointer(start: p + header.headerLength, count: header.frameLength - header.headerLength)
                var description = AudioStreamPacketDescription(startOffset: 0, variableFramesInPacket: 0,
                                                               dataByteSize: payload.count)
                withUnsafePointer(to: &description) { onPackets(payload, UnsafeBufferPointer(start: $0, count: 1)) }
                consumed += header.frameLength
            }
        }
    }

    private func countHunt() throws {
        hunted += 1
        if stream == nil && hunted > Self.huntLimit {
            throw AudioFileError(.notAudioFile, "no ADTS frame in the first \(Self.huntLimit) bytes (an AAC stream starts with the sync word 0xFFF)",
                                 offset: offset)
        }
    }

    private func announce(_ header: Header, _ onProperty: AudioFileStream.PropertyListener) throws {
        guard header.channels > 0 else {
            throw AudioFileError(.unsupported, "the ADTS stream gives its channels in a program config element (channel configuration 0), not supported",
                                 offset: offset)
        }
        stream = header
        onProperty(.fileFormat(.adts))
        onProperty(.dataFormat(.compressed(.mpeg4AAC, sampleRate: Double(header.sampleRate), channels: header.channels, framesPerPacket: 1024)))
        onProperty(.magicCookie(header.audioSpecificConfig))
        onProperty(.readyToProducePackets)
    }
}
