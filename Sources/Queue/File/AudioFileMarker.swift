/// A named position in a file (WAV `cue `/`labl`, AIFF `MARK`, CAF `mark`); with a length it is a region
/// (WAV `ltxt`, CAF `regn`), and a region may be a loop a sampler plays over and over (WAV `smpl`, AIFF `INST`,
/// CAF `regn` with LoopEnable).
public struct AudioFileMarker: Hashable, Sendable {
    public var framePosition: Int64
    public var name: String
    /// Frames the region spans; nil for a plain marker.
    public var frameLength: Int64?
    /// Whether the region is a (forward) loop.
    public var isLoop: Bool

    public init(framePosition: Int64, name: String, frameLength: Int64? = nil, isLoop: Bool = false) {
        self.framePosition = framePosition
        self.name = name
        self.frameLength = frameLength
        self.isLoop = isLoop && frameLength != nil
    }
}

/// Descriptive text stored with the audio (WAV LIST/INFO, AIFF NAME/AUTH/ANNO/(c), CAF `info`).
public struct AudioFileMetadata: Hashable, Sendable {
    public var title: String?
    public var artist: String?
    /// The recording date as text (ISO 8601 "2024-05-01" is what the tools write).
    public var date: String?
    public var comment: String?
    public var copyright: String?
    public var software: String?
    /// Album, track number and ReplayGain: read from compressed files' tags (Vorbis comments, ID3v2, MP4
    /// atoms, `TagNames`); WAV, AIFF and CAF do not store them.
    public var album: String?
    public var trackNumber: Int?
    public var trackTotal: Int?
    public var replayGain = ReplayGain()

    public init(title: String? = nil, artist: String? = nil, date: String? = nil, comment: String? = nil,
                copyright: String? = nil, software: String? = nil) {
        self.title = title
        self.artist = artist
        self.date = date
        self.comment = comment
        self.copyright = copyright
        self.software = software
    }

    public var isEmpty: Bool { entries.isEmpty && album == nil && trackNumber == nil && trackTotal == nil && replayGain.isEmpty }

    /// The fields WAV, AIFF and CAF store that are set, as (name, value) pairs in a fixed order.
    public var entries: [(key: String, value: String)] {
        var list: [(String, String)] = []
        if let title { list.append(("title", title)) }
        if let artist { list.append(("artist", artist)) }
        if let date { list.append(("date", date)) }
        if let comment { list.append(("comment", comment)) }
        if let copyright { list.append(("copyright", copyright)) }
        if let software { list.append(("software", software)) }
        return list
    }
}
