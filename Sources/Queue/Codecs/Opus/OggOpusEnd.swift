import COpus

/// What the end of an Ogg Opus file says, read from its last pages: whether it ends properly (a complete
/// end-of-stream page), and how many decoded frames the encoder padded past the end (end trimming, RFC 7845
/// 4.4: the last page's granule position is smaller than its packets' total duration). libopusfile trims
/// those frames but does not report them, nor a file cut short after a complete page.
struct OggOpusEnd {
    /// The file ends with a complete end-of-stream page.
    var isComplete: Bool
    /// Byte offset just past the last complete page.
    var lastCompletePageEnd: Int64
    /// Where that page begins, and its granule position (nil when the window holds no complete page).
    var lastCompletePage: (start: Int64, granulePosition: Int64)? = nil
    /// A complete page in the window carries audio: its granule position is above 0 (headers' pages have 0,
    /// RFC 7845 4), in any link. A file cut short with none was cut before its first audio page.
    var holdsAudio = false
    /// Frames trimmed from the last packets (0 when the file does not end properly).
    var padding: Int

    /// Bytes of the file's end read: a page is at most 65,307 bytes, so this holds the last page and the one
    /// before it.
    static let window = 1 << 17

    static func scan(_ file: FileDescriptor, length: Int64) throws -> OggOpusEnd {
        let start = max(0, length - Int64(window))
        let bytes = try file.read(count: Int(length - start), at: start)
        return bytes.withUnsafeBytes { raw in
            var pages: [(offset: Int, header: OggPage)] = []
            var at = 0
            while at + OggPage.fixedHeaderBytes <= raw.count {
                if let header = OggPage(UnsafeRawBufferPointer(rebasing: raw[at...])), at + header.headerBytes <= raw.count {
                    let size = header.headerBytes + header.bodyBytes(UnsafeRawBufferPointer(rebasing: raw[at...]))
                    if at + size <= raw.count, header.checksumMatches(UnsafeRawBufferPointer(rebasing: raw[at..<(at + size)])) {
                        pages.append((at, header))
                        at += size
                        continue
                    }
                }
                at += 1
            }
            guard let last = pages.last else {
                return OggOpusEnd(isComplete: false, lastCompletePageEnd: start, padding: 0)
            }
            let lastEnd = start + Int64(last.offset + last.header.headerBytes)
                + Int64(last.header.bodyBytes(UnsafeRawBufferPointer(rebasing: raw[last.offset...])))
            let page = (start: start + Int64(last.offset), granulePosition: last.header.granulePosition)
            let holdsAudio = pages.contains { $0.header.granulePosition > 0 }
            guard last.header.isEndOfStream else {
                return OggOpusEnd(isComplete: false, lastCompletePageEnd: lastEnd, lastCompletePage: page,
                                  holdsAudio: holdsAudio, padding: 0)
            }
            return OggOpusEnd(isComplete: true, lastCompletePageEnd: lastEnd, lastCompletePage: page, holdsAudio: holdsAudio,
                              padding: padding(raw, pages.filter { $0.header.serialNumber == last.header.serialNumber }))
        }
    }

    /// The last page's packets' duration minus what its granule position says they add (RFC 7845 4.4), from
    /// the granule position of the page before it; 0 when that cannot be told from the window.
    private static func padding(_ raw: UnsafeRawBufferPointer, _ pages: [(offset: Int, header: OggPage)]) -> Int {
        guard let last = pages.last,
              let previous = pages.dropLast().last(where: { $0.header.granulePosition >= 0 }) else { return 0 }
        // Walks the packets from that page on, keeping each packet's first two bytes (the TOC and, for code 3,
        // the frame count: RFC 6716 3.1-3.2), and sums the durations of those completed after it. (Packets
        // completed on that page itself are already in its granule position; the one left open on it starts
        // there, so its first bytes are seen.)
        var durations = 0
        var head: [UInt8] = []
        for page in pages where page.offset >= previous.offset {
            let header = page.header
            var body = page.offset + header.headerBytes
            for segment in 0..<header.segmentCount {
                let lacing = Int(raw[page.offset + OggPage.fixedHeaderBytes + segment])
                if head.count < 2 { head += raw[body..<(body + min(lacing, 2 - head.count))] }
                body += lacing
                guard lacing < 255 else { continue }
                if page.offset != previous.offset && !head.isEmpty {
                    let frames = head.withUnsafeBufferPointer {
                        opus_packet_get_nb_samples($0.baseAddress!, Int32($0.count), Int32(OpusHead.sampleRate))
                    }
                    guard frames > 0 else { return 0 }
                    durations += Int(frames)
                }
                head = []
            }
        }
        // Granule positions are the file's word: a difference or padding out of range means "unknown" (0).
        let added = last.header.granulePosition.subtractingReportingOverflow(previous.header.granulePosition)
        guard !added.overflow, let step = Int(exactly: added.partialValue) else { return 0 }
        let padding = durations.subtractingReportingOverflow(step)
        return padding.overflow ? 0 : max(0, padding.partialValue)
    }
}
