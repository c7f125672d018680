/// Finds whole FLAC frames in bytes as they come, without decoding them (RFC 9639 section 9): a frame starts
/// with a header whose CRC-8 holds, and ends where the CRC-16 of its bytes (its footer included) comes to 0
/// and the next frame's header follows in sequence (same coding, next number). Where nothing follows (the
/// end of a file) the caller confirms the last frame. Used by the stream parser, which joins a stream
/// mid-way at the first frame so verified, and by the repair, which walks a cut recording.
struct FLACFrameSplitter {
    /// Bytes not yet handed out; the current frame (or the search for one) starts at `frameStart`.
    private(set) var buffer: [UInt8] = []
    private(set) var frameStart = 0
    /// The current frame's header; nil while searching for a frame sync.
    private(set) var header: FLACFrameHeader?
    /// Where the current frame's CRC-16 came to 0, waiting for the next header's bytes.
    private var awaitingHeaderAt: Int?
    private var crc: UInt16 = 0
    /// Bytes of the current frame already in `crc`.
    private var scanned = 0
    /// Channels and depth to bound a frame's size when the header defers to STREAMINFO.
    let streamBits: Int?

    init(streamBits: Int? = nil) { self.streamBits = streamBits }

    mutating func append(_ bytes: UnsafeRawBufferPointer) { buffer.append(contentsOf: bytes) }

    /// Where the current frame's CRC-16 came to 0 with no bytes after it yet: its end, if nothing follows.
    var candidateEnd: Int? { awaitingHeaderAt }

    /// Drops the bytes before the current frame (those handed out as frames or skipped).
    mutating func compact() {
        guard frameStart > 0 else { return }
        buffer.removeFirst(frameStart)
        if let end = awaitingHeaderAt { awaitingHeaderAt = end - frameStart }
        frameStart = 0
    }

    /// The largest a frame with `header` can be: every sample verbatim at one bit more than its depth (a side
    /// channel), plus headers and padding (RFC 9639 sections 9.2.1 and 9.2.5).
    func maximumFrameBytes(_ header: FLACFrameHeader) -> Int {
        let bits = (header.bitsPerSample ?? streamBits ?? 32) + 1
        return header.blockSize * header.channels * bits / 8 + 32 * header.channels + 64
    }

    enum Next {
        /// A frame: `buffer[range]`, verified by the header that follows it.
        case frame(Range<Int>, FLACFrameHeader)
        /// The bytes up to the end form a frame whose CRC-16 holds; nothing follows to confirm it (the
        /// caller does, e.g. by decoding it, then calls `accept`).
        case lastFrame(Range<Int>, FLACFrameHeader)
        case needMore
    }

    /// The next frame in the buffer. `atEnd`: no more bytes will come.
    mutating func next(atEnd: Bool) -> Next {
        while true {
            guard let current = header else {
                if !findSync(atEnd: atEnd) { return .needMore }
                continue
            }
            if let end = awaitingHeaderAt {
                // The CRC-16 came to 0 here: a frame end if the next frame's header follows.
                let parsed = buffer.withUnsafeBytes { FLACFrameHeader.parse($0, at: end) }
                switch parsed {
                case .header(let next) where current.isFollowed(by: next):
                    let range = frameStart..<end
                    frameStart = end
                    header = next
                    crc = 0
                    scanned = 0
                    awaitingHeaderAt = nil
                    return .frame(range, current)
                case .needMore:
                    return atEnd ? .lastFrame(frameStart..<end, current) : .needMore
                default:
                    awaitingHeaderAt = nil
                }
            }
            let largest = frameStart + maximumFrameBytes(current)
            let limit = min(buffer.count, largest)
            let resumed = frameStart + scanned
            var position = resumed
            while position < limit {
                crc = FLACChecksum.crc16(crc, buffer[position])
                position += 1
                if crc == 0 && position - frameStart >= current.length + 3 { break }
            }
            scanned = position - frameStart
            // Only an end found by this pass: one just refused (no header followed it) is not offered again, or
            // a refused end at the largest size would be offered for ever (a hang libFuzzer found, 2026-11-29).
            if crc == 0 && scanned >= current.length + 3 && position > resumed {
                awaitingHeaderAt = position
                continue
            }
            if position >= largest {
                // No end within the largest possible frame: a false sync or damage; search again past it.
                lose(1)
                continue
            }
            return .needMore
        }
    }

    /// Takes the frame `lastFrame` offered (confirmed by the caller).
    mutating func accept(_ range: Range<Int>) {
        frameStart = range.upperBound
        header = nil
        awaitingHeaderAt = nil
        crc = 0
        scanned = 0
    }

    /// Gives up the current frame (damaged): the search resumes `bytes` after its start.
    mutating func lose(_ bytes: Int) {
        frameStart += bytes
        header = nil
        awaitingHeaderAt = nil
        crc = 0
        scanned = 0
    }

    /// Moves `frameStart` to the next valid frame header; false when more bytes are needed.
    private mutating func findSync(atEnd: Bool) -> Bool {
        while frameStart < buffer.count {
            let parsed = buffer.withUnsafeBytes { FLACFrameHeader.parse($0, at: frameStart) }
            switch parsed {
            case .header(let found):
                header = found
                crc = 0
                scanned = 0
                return true
            case .needMore where !atEnd:
                return false
            default:
                frameStart += 1
            }
        }
        return false
    }
}
