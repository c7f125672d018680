/// The audio track's media duration from an MP4 file's 'mdhd' box (ISO/IEC 14496-12 8.4.2), in the media's
/// own timescale (the sample rate, for audio written by ffmpeg or iTunes).
///
/// Why not FFmpeg's: FFmpeg trims the stream at the edit list's duration, which is in the movie timescale
/// (ffmpeg writes 1000 per second), so a track of 20000 frames at 44.1 kHz is cut to 453 ms = 19977 frames.
/// The media duration, less the edit list's priming, is exact to the frame.
enum MP4MediaDuration {
    /// Frames of the first sound track (handler 'soun'), converted to `sampleRate`; nil when the file has no
    /// such box or states 0 (a fragmented file).
    static func frames(_ input: LibraryInput, sampleRate: Int) -> Int64? {
        guard let moov = box("moov", in: 0..<input.length, input) else { return nil }
        var offset = moov.lowerBound
        while let trak = box("trak", in: offset..<moov.upperBound, input) {
            offset = trak.upperBound
            guard let mdia = box("mdia", in: trak, input),
                  let hdlr = box("hdlr", in: mdia, input), let handler = bytes(input, hdlr.lowerBound + 8, 4),
                  handler.elementsEqual("soun".utf8),
                  let mdhd = box("mdhd", in: mdia, input), let head = bytes(input, mdhd.lowerBound, 32) else { continue }
            // FullBox: version (1 byte), flags (3); v0: creation, modification (4 each), timescale (4), duration
            // (4); v1: 8-byte times and duration.
            let version = head[0]
            let timescale = Int64(be(head, version == 1 ? 20 : 12, 4))
            let duration = Int64(be(head, version == 1 ? 24 : 16, version == 1 ? 8 : 4))
            guard timescale > 0, duration > 0, duration < Int64(1) << 40 else { return nil }
            return FFmpegClock.scale(duration, Int64(sampleRate), timescale)   // 128-bit: a hostile rate cannot overflow
        }
        return nil
    }

    /// The payload range of the first box named `name` among the boxes in `range`.
    private static func box(_ name: String, in range: Range<Int64>, _ input: LibraryInput) -> Range<Int64>? {
        var at = range.lowerBound
        while at + 8 <= range.upperBound, let header = bytes(input, at, 16) {
            var size = Int64(be(header, 0, 4))
            var headerSize: Int64 = 8
            // A 64-bit size of 2^63 or more is no real box (and no Int64): -1 fails the guard below.
            if size == 1, header.count >= 16 { size = Int64(exactly: be(header, 8, 8)) ?? -1; headerSize = 16 }
            if size == 0 { size = range.upperBound - at }
            guard size >= headerSize, size <= range.upperBound - at else { return nil }
            if header[4..<8].elementsEqual(name.utf8) { return (at + headerSize)..<(at + size) }
            at += size
        }
        return nil
    }

    private static func bytes(_ input: LibraryInput, _ offset: Int64, _ count: Int) -> [UInt8]? {
        guard offset >= 0, offset < input.length,
              let bytes = try? input.file.read(count: Int(min(Int64(count), input.length - offset)), at: offset),
              bytes.count >= min(count, 8) else { return nil }
        return bytes
    }

    private static func be(_ bytes: [UInt8], _ at: Int, _ count: Int) -> UInt64 {
        guard at + count <= bytes.count else { return 0 }
        return bytes[at..<(at + count)].reduce(0) { $0 << 8 | UInt64($1) }
    }
}
