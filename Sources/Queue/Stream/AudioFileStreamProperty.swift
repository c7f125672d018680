/// What an `AudioFileStream` has learned, reported once each as soon as it is known (Core Audio's
/// `kAudioFileStreamProperty_…`), always before `readyToProducePackets`.
public enum AudioFileStreamProperty: Sendable, Equatable {
    case fileFormat(AudioFileType)
    case dataFormat(StreamFormat)
    /// Only for streams that carry a layout (3+ channels, or an explicit CAF `chan`).
    case channelLayout(ChannelLayout)
    /// Offset of the first audio byte in the stream.
    case dataOffset(Int64)
    /// Only when the header declares it (not for CAF's open-ended data or streaming placeholders).
    case audioDataByteCount(Int64)
    case audioDataPacketCount(Int64)
    case markers([AudioFileMarker])
    case metadata(AudioFileMetadata)
    /// The codec's setup a packet decoder needs (kAudioFileStreamProperty_MagicCookieData): FLAC's
    /// STREAMINFO block, Opus's OpusHead packet, AAC's AudioSpecificConfig, ALAC's ALACSpecificConfig.
    case magicCookie([UInt8])
    /// From now on, audio arrives through the packets callback.
    case readyToProducePackets
}

/// Where one packet lies in the buffer handed to the packets callback (Core Audio's
/// `AudioStreamPacketDescription`).
public struct AudioStreamPacketDescription: Hashable, Sendable {
    /// Byte offset of the packet in the callback's buffer.
    public var startOffset: Int
    /// Frames in the packet when packets vary (0: the format's `framesPerPacket`).
    public var variableFramesInPacket: Int
    public var dataByteSize: Int

    public init(startOffset: Int = 0, variableFramesInPacket: Int = 0, dataByteSize: Int = 0) {
        self.startOffset = startOffset
        self.variableFramesInPacket = variableFramesInPacket
        self.dataByteSize = dataByteSize
    }
}
