/// Cuts an MP3 byte stream into frames as it arrives, in any chunking: an ID3v2 tag in front is skipped by its
/// synchsafe size (its text frames become `.metadata`), then every Layer III frame is one packet, its length
/// read from its header (`MPEGAudioFrameHeader`). A frame is first accepted only when the next frame's header
/// follows where its length says, so a stream joined in the middle (or resumed after garbage) locks on to real
/// frames, not to a stray 0xFFE sync in the audio data. The LAME/Xing tag's frame is not audio and is not passed on.
final class MP3StreamParser: CompressedStreamParser {
    private enum State {
        /// Waiting for enough bytes to tell whether an ID3v2 tag comes first.
        case start
        /// Inside an ID3v2 tag: bytes still to skip.
        case tag(remaining: Int)
        /// Looking for two frame headers in a row.
        case searching
        /// In step with the frames of `format`.
        case locked(MPEGAudioFrameHeader)
    }

    /// The longest ID3v2 tag kept for its text (longer ones, with pictures, are skipped unread).
    static let maximumTagBytes = 1 << 20

    private var state = State.start
    /// Bytes received and not yet consumed; `pendingOffset` is the stream offset of the first.
    private var pending: [UInt8] = []
    private var pendingOffset: Int64 = 0
    private var tag: [UInt8] = []
    private var metadata = AudioFileMetadata()
    private var isReady = false
    private var isFirstFrame = true
    private var descriptions: [AudioStreamPacketDescription] = []

    func parse(_ bytes: UnsafeRawBufferPointer, onProperty: AudioFileStream.PropertyListener,
               onPackets: AudioFileStream.PacketsHandler) throws {
        pending.append(contentsOf: bytes)
        descriptions.removeAll(keepingCapacity: true)
        var packetsStart = 0
        let consumed = pending.withUnsafeBytes { raw -> Int in
            var p = 0
            scanning: while true {
                switch state {
                case .start:
                    let available = raw.count - p
                    let prefix = raw[p..<min(raw.count, p + 3)]
                    guard prefix.elementsEqual("ID3".utf8.prefix(prefix.count)) else { state = .searching; continue }
                    guard available >= ID3v2Header.length else { break scanning }
                    if let header = ID3v2Header(raw[p..<(p + ID3v2Header.length)]) {
                        state = .tag(remaining: header.totalLength)
                    } else {
                        state = .searching
                    }
                case .tag(let remaining):
                    let take = min(remaining, raw.count - p)
                    if tag.count + take <= Self.maximumTagBytes { tag += raw[p..<(p + take)] }
                    p += take
                    guard take == remaining else { state = .tag(remaining: remaining - take); break scanning }
                    if tag.count >= ID3v2Header.length, let header = ID3v2Header(tag), header.totalLength == tag.count {
                        metadata = ID3v2Text.metadata(tag, majorVersion: header.majorVersion)
                    }
                    tag = []
                    state = .start   // another tag may follow
                case .searching:
                    // Two headers of one stream in a row, or wait for the bytes to check.
                    while p + 4 <= raw.count {
                        if let header = MPEGAudioFrameHeader(raw, at: p) {
                            let next = p + header.frameLength
                            guard next + 4 <= raw.count else { break scanning }
                            if let following = MPEGAudioFrameHeader(raw, at: next), header.continues(following) {
                                state = .locked(header)
                                continue scanning
                            }
                        }
                        p += 1
                    }
                    break scanning
                case .locked(let format):
                    guard p + 4 <= raw.count else { break scanning }
                    guard let header = MPEGAudioFrameHeader(raw, at: p), format.continues(header) else {
                        state = .searching   // lost step: garbage or a cut; find the frames again
                        continue
                    }
                    guard p + header.frameLength <= raw.count else { break scanning }
                    let frame = UnsafeRawBufferPointer(rebasing: raw[p..<(p + header.frameLength)])
                    let lame = isFirstFrame ? LAMETag(frame: frame, header: header) : nil
                    if !isReady { announce(header, lame, at: pendingOffset + Int64(p), onProperty) }
                    if lame != nil {
                        // The tag's frame: not audio.
                    } else {
                        if descriptions.isEmpty { packetsStart = p }
                        descriptions.append(AudioStreamPacketDescription(startOffset: p - packetsStart, variableFramesInPacket: 0,
                                                                         dataByteSize: header.frameLength))
                    }
                    isFirstFrame = false
                    p += header.frameLength
                }
            }
            if !descriptions.isEmpty {
                descriptions.withUnsafeBufferPointer { list in
                    onPackets(UnsafeRawBufferPointer(rebasing: raw[packetsStart..<p]), list)
                }
            }
            return p
        }
        pending.removeFirst(consumed)
        pendingOffset += Int64(consumed)
    }

    /// The properties, once, at the first frame.
    private func announce(_ header: MPEGAudioFrameHeader, _ lame: LAMETag?, at offset: Int64, _ onProperty: AudioFileStream.PropertyListener) {
        isReady = true
        onProperty(.fileFormat(.mp3))
        onProperty(.dataFormat(.compressed(.mpegLayer3, sampleRate: Double(header.sampleRate), channels: header.channels,
                                           framesPerPacket: header.samplesPerFrame)))
        onProperty(.dataOffset(offset))
        // The Xing/Info tag's counts: its bytes include its own frame, its frames do not.
        if let lame, let bytes = lame.byteCount, let frames = lame.frameCount {
            onProperty(.audioDataByteCount(Int64(bytes - header.frameLength)))
            onProperty(.audioDataPacketCount(Int64(frames)))
        }
        if !metadata.isEmpty { onProperty(.metadata(metadata)) }
        onProperty(.readyToProducePackets)
    }
}
