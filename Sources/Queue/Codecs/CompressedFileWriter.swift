import Codec8_24

/// A compressed file being written by its codec library (FLAC, Opus in Ogg, Apple Lossless in CAF or M4A),
/// behind `AudioFile.create`. Bytes go out through `LibraryOutput` (HAL's descriptor). Not for the render thread.
protocol CompressedFileWriter: AnyObject {
    /// Encodes interleaved 8.24 frames (whole frames).
    func write(_ frames: UnsafeBufferPointer<Fixed824>) throws
    /// Makes what was written so far survive a power cut as far as the format allows (complete FLAC frames,
    /// complete Ogg pages), syncing the data when `options.synchronizeOnCommit`.
    func commit() throws
    /// Flushes the encoder, writes the final header fields (total samples, MD5, sizes) and closes the file.
    func finish() throws
    /// Closes without finishing (what is on disk stays as the last commit left it).
    func abandon()
    /// Frames taken so far.
    var framesWritten: Int64 { get }
}

/// How a library codec encodes (AVAudioFile's settings dictionary: AVEncoderBitRateKey, the FLAC/ALAC
/// compression level, the source bit depth). Unset fields take each encoder's documented default.
public struct EncoderSettings: Sendable, Hashable {
    /// Bits per second for lossy codecs (Opus: 6000 ... 510000; libopusenc's default is about 64 kb/s per
    /// channel pair); nil: the encoder's default.
    public var bitRate: Int?
    /// FLAC 0 ... 8 (libFLAC's default 5); ignored by the others.
    public var compressionLevel: Int?

    /// Opus's bit rates per stream (RFC 6716 section 2.1.1: 6 kb/s to 510 kb/s).
    public static let opusBitRates = 6_000...510_000

    public init(bitRate: Int? = nil, compressionLevel: Int? = nil) {
        self.bitRate = bitRate
        self.compressionLevel = compressionLevel
    }
}
