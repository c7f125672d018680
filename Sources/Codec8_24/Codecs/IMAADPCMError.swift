/// Why an IMA ADPCM coder refused its input. Decoders check every header and length, so malformed data
/// gives one of these, never a crash.
public enum IMAADPCMError: Error, Hashable, Sendable {
    /// The channel count is zero, negative, or too large for the layout's header fields.
    case invalidChannelCount(Int)
    /// A WAV block size that cannot hold the per-channel headers and whole 4-byte groups
    /// (it must be a multiple of `4 · channels`, at least that, and fit WAV's 16-bit field).
    case invalidBlockAlign(blockAlign: Int, channelCount: Int)
    /// The encoded input ends inside a packet: `byteCount` is not a whole number of `packetSize` packets.
    case truncatedPacket(byteCount: Int, packetSize: Int)
    /// The PCM input to an encoder is not a whole number of packets of `framesPerPacket` frames.
    case partialPacketOfFrames(frameCount: Int, framesPerPacket: Int)
    /// A packet header carries a step index above 88. `packet` counts from the start of the call.
    case invalidStepIndex(Int, channel: Int, packet: Int)
    /// The output buffer cannot hold what the input decodes or encodes to.
    case outputTooSmall(needed: Int, available: Int)
}
