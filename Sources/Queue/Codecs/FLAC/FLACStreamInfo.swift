/// The STREAMINFO metadata block (RFC 9639 section 8.2): 34 bytes, big-endian bit fields. Parsed for the
/// stream parser and the repair, built for the packet decoder's synthetic header, patched by the repair.
struct FLACStreamInfo: Equatable {
    var minimumBlockSize: Int
    var maximumBlockSize: Int
    var minimumFrameSize: Int
    var maximumFrameSize: Int
    var sampleRate: Int
    var channels: Int
    var bitsPerSample: Int
    /// 0 when unknown (a stream, or a recording cut before it was finished).
    var totalSamples: UInt64
    var md5: [UInt8]

    static let length = 34

    init(minimumBlockSize: Int, maximumBlockSize: Int, minimumFrameSize: Int = 0, maximumFrameSize: Int = 0,
         sampleRate: Int, channels: Int, bitsPerSample: Int, totalSamples: UInt64 = 0, md5: [UInt8] = Array(repeating: 0, count: 16)) {
        self.minimumBlockSize = minimumBlockSize
        self.maximumBlockSize = maximumBlockSize
        self.minimumFrameSize = minimumFrameSize
        self.maximumFrameSize = maximumFrameSize
        self.sampleRate = sampleRate
        self.channels = channels
        self.bitsPerSample = bitsPerSample
        self.totalSamples = totalSamples
        self.md5 = md5
    }

    /// Reads the 34 bytes; nil when shorter or when a field is out of its range (section 8.2).
    init?<C: Collection>(_ data: C) where C.Element == UInt8 {
        let b = Array(data)
        guard b.count >= Self.length else { return nil }
        func be(_ at: Int, _ n: Int) -> Int { (at..<(at + n)).reduce(0) { $0 << 8 | Int(b[$1]) } }
        minimumBlockSize = be(0, 2)
        maximumBlockSize = be(2, 2)
        minimumFrameSize = be(4, 3)
        maximumFrameSize = be(7, 3)
        let packed = UInt64(be(10, 4)) << 32 | UInt64(be(14, 4))
        sampleRate = Int(packed >> 44)
        channels = Int((packed >> 41) & 0x7) + 1
        bitsPerSample = Int((packed >> 36) & 0x1F) + 1
        totalSamples = packed & 0xF_FFFF_FFFF
        md5 = Array(b[18..<34])
        guard sampleRate > 0, bitsPerSample >= 4, maximumBlockSize >= 16 || maximumBlockSize == 0 else { return nil }
    }

    var bytes: [UInt8] {
        var b: [UInt8] = []
        func put(_ value: Int, _ n: Int) { for i in stride(from: n - 1, through: 0, by: -1) { b.append(UInt8(truncatingIfNeeded: value >> (8 * i))) } }
        put(minimumBlockSize, 2)
        put(maximumBlockSize, 2)
        put(minimumFrameSize, 3)
        put(maximumFrameSize, 3)
        let packed = UInt64(sampleRate) << 44 | UInt64(channels - 1) << 41 | UInt64(bitsPerSample - 1) << 36 | (totalSamples & 0xF_FFFF_FFFF)
        for i in stride(from: 7, through: 0, by: -1) { b.append(UInt8(truncatingIfNeeded: packed >> (8 * UInt64(i)))) }
        return b + md5.prefix(16)
    }

    /// The data format a decoder of this stream produces.
    var format: StreamFormat {
        .compressed(.flac, sampleRate: Double(sampleRate), channels: channels,
                    framesPerPacket: minimumBlockSize == maximumBlockSize ? maximumBlockSize : 0, bitsPerChannel: bitsPerSample)
    }

    /// "fLaC" and this block as the only (last) metadata block: a stream header libFLAC accepts before frames.
    var streamHeader: [UInt8] {
        Array("fLaC".utf8) + [0x80, 0, 0, UInt8(Self.length)] + bytes
    }
}
