import Codec8_24

/// A compressed file opened by its codec library (FLAC, MP3, Opus, AAC, Apple Lossless), behind `AudioFile`:
/// exact length, sample-accurate seek, interleaved 8.24 out. The library reads through `LibraryInput`
/// (HAL's descriptor), never opening files itself. Used from one file or control thread at a time.
protocol CompressedFileReader: AnyObject {
    /// What the file holds; `frameCount` is exact, with the encoder's priming and padding already removed.
    var info: CompressedFileInfo { get }
    /// Moves to `frame` (0 ... frameCount): the next `read` starts exactly there, priming and padding excluded.
    func seek(toFrame frame: Int64) throws
    /// Decodes interleaved 8.24 frames into `buffer` (whole frames); 0 at the end. Damage part-way through
    /// throws, after the frames before it were returned by earlier calls: `.truncated` when the file is cut
    /// short, `.malformed` for corrupt data, each naming the frame or byte where it was found.
    func read(into buffer: UnsafeMutableBufferPointer<Fixed824>) throws -> Int
    /// Releases the library's decoder and the file.
    func close()
}

/// What a compressed file holds, as its codec library reports it.
public struct CompressedFileInfo: Sendable {
    public var fileType: AudioFileType
    /// The data format (`StreamFormat.compressed`): codec, sample rate and channels of the decoded audio,
    /// source bit depth for the lossless codecs.
    public var format: StreamFormat
    /// Decoded frames, exactly (after `encoderDelay` and `padding` are removed).
    public var frameCount: Int64
    /// Priming frames the encoder put in front, removed on decode (LAME/Xing header, MP4 edit list or
    /// iTunSMPB, Opus pre-skip); 0 when the format has none.
    public var encoderDelay: Int
    /// Frames of padding after the last real frame, removed on decode; 0 when none.
    public var padding: Int
    /// Average bits per second of the audio data (file size over duration when the format does not say).
    public var bitRate: Int?
    /// The encoder that wrote the file, when the file says ("LAME3.100", "reference libFLAC 1.4.2", "Lavf...").
    public var encoder: String?
    /// Title, artist, album, track, ReplayGain: from Vorbis comments, ID3v2 or MP4 atoms (`TagNames`).
    public var metadata: AudioFileMetadata

    public init(fileType: AudioFileType, format: StreamFormat, frameCount: Int64, encoderDelay: Int = 0, padding: Int = 0,
                bitRate: Int? = nil, encoder: String? = nil, metadata: AudioFileMetadata = AudioFileMetadata()) {
        self.fileType = fileType
        self.format = format
        self.frameCount = frameCount
        self.encoderDelay = encoderDelay
        self.padding = padding
        self.bitRate = bitRate
        self.encoder = encoder
        self.metadata = metadata
    }
}
