/// The block layout of Microsoft IMA ADPCM in WAV files (format tag `0x0011`, `WAVE_FORMAT_IMA_ADPCM`).
///
/// A block of `blockAlign` bytes starts with a 4-byte header per channel — the first sample as a
/// little-endian `Int16`, the step index, a reserved byte — and continues with 4-byte groups, one per channel
/// in turn, each holding 8 codes of that channel, low nibble first. Every block starts afresh from its
/// headers, so blocks decode independently. The header's sample is the block's first frame, hence
/// `samplesPerBlock = (blockAlign - 4·channels) · 8 / (4·channels) + 1`.
public struct IMAADPCMWaveLayout: Hashable, Sendable {
    /// The WAV `wFormatTag` of this layout.
    public static let formatTag: UInt16 = 0x0011

    public let channelCount: Int
    /// Bytes per block (the fmt chunk's `nBlockAlign`).
    public let blockAlign: Int
    /// Frames per block (the fmt chunk's `wSamplesPerBlock`).
    public let framesPerBlock: Int

    /// Checks that `blockAlign` is a whole number of per-channel 4-byte words, at least one header each,
    /// and fits the fmt chunk's 16-bit field.
    public init(channelCount: Int, blockAlign: Int) throws(IMAADPCMError) {
        guard channelCount >= 1, channelCount <= Int(UInt16.max) else { throw .invalidChannelCount(channelCount) }
        let headerBytes = 4 * channelCount
        guard blockAlign >= headerBytes, blockAlign <= Int(UInt16.max), blockAlign % headerBytes == 0 else {
            throw .invalidBlockAlign(blockAlign: blockAlign, channelCount: channelCount)
        }
        self.channelCount = channelCount
        self.blockAlign = blockAlign
        framesPerBlock = (blockAlign - headerBytes) * 8 / headerBytes + 1
    }
}
