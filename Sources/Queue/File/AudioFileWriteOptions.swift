/// How `AudioFile.create` writes.
public struct AudioFileWriteOptions: Sendable {
    /// Seconds of audio between header commits (sizes written in place), so a file cut by power loss is
    /// valid up to the last commit and `AudioFile.repair` loses nothing before it. 0 commits only at close.
    public var commitInterval: Double
    /// Whether each commit also flushes the data to the storage device (fdatasync); a file created in place
    /// then also has its directory synced once at creation, so its name survives a power cut too.
    public var synchronizeOnCommit: Bool
    /// Write under a temporary name in the same directory and rename over the target only at `close()`;
    /// for tools whose output must never be seen half-written. (A recording wants `false`: crash-safe in place.)
    public var replaceAtomically: Bool
    public var metadata: AudioFileMetadata
    public var markers: [AudioFileMarker]
    /// Bit rate and compression level for the library codecs (FLAC, Opus, Apple Lossless).
    public var encoder = EncoderSettings()
    /// Data size past which a WAV file becomes RF64; 4 GiB by the format, smaller in tests.
    var rf64Threshold: Int64 = Int64(UInt32.max)

    public init(commitInterval: Double = 1, synchronizeOnCommit: Bool = false, replaceAtomically: Bool = false,
                metadata: AudioFileMetadata = AudioFileMetadata(), markers: [AudioFileMarker] = []) {
        self.commitInterval = commitInterval
        self.synchronizeOnCommit = synchronizeOnCommit
        self.replaceAtomically = replaceAtomically
        self.metadata = metadata
        self.markers = markers
    }
}
