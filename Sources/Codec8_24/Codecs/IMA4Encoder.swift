/// Encodes Apple's QuickTime/Core Audio IMA ADPCM (`ima4`); the packet layout is described on `IMA4Decoder`.
///
/// Each channel's state runs on across packets; a header stores it truncated (`predictor & 0xFF80` and the
/// step index), which a decoder in step recognises and a decoder starting at this packet adopts.
/// Allocation happens at init only; `encode` is safe on the render thread.
public final class IMA4Encoder {
    public let channelCount: Int
    /// Bytes in one packet of all channels.
    public let bytesPerPacket: Int
    private let states: UnsafeMutablePointer<IMAADPCMChannelState>

    public init(channelCount: Int) throws(IMAADPCMError) {
        guard channelCount >= 1, channelCount <= Int(UInt16.max) else { throw .invalidChannelCount(channelCount) }
        self.channelCount = channelCount
        bytesPerPacket = IMA4Decoder.bytesPerChannelPacket * channelCount
        states = .allocate(capacity: channelCount)
        states.initialize(repeating: IMAADPCMChannelState(), count: channelCount)
    }

    deinit { states.deallocate() }

    /// Starts a new stream: predictor 0, step index 0 on every channel.
    public func reset() {
        for channel in 0..<channelCount { states[channel] = IMAADPCMChannelState() }
    }

    /// The running state of one channel.
    public func state(ofChannel channel: Int) -> IMAADPCMChannelState { states[channel] }

    /// Encodes interleaved 16-bit frames, a whole number of 64-frame packets; returns the bytes written.
    @discardableResult
    public func encode(
        _ input: UnsafeBufferPointer<Int16>, into output: UnsafeMutableRawBufferPointer
    ) throws(IMAADPCMError) -> Int {
        try encodePackets(input, into: output)
    }

    /// Encodes interleaved 8.24 frames (rounded to 16 bits), a whole number of 64-frame packets;
    /// returns the bytes written.
    @discardableResult
    public func encode(
        _ input: UnsafeBufferPointer<Fixed824>, into output: UnsafeMutableRawBufferPointer
    ) throws(IMAADPCMError) -> Int {
        try encodePackets(input, into: output)
    }

    private func encodePackets<Sample: IMAADPCMSample>(
        _ input: UnsafeBufferPointer<Sample>, into output: UnsafeMutableRawBufferPointer
    ) throws(IMAADPCMError) -> Int {
        let channels = channelCount
        let framesPerPacket = IMA4Decoder.framesPerPacket
        let frameCount = input.count / channels
        guard input.count % channels == 0, frameCount % framesPerPacket == 0 else {
            throw .partialPacketOfFrames(frameCount: input.count / channels, framesPerPacket: framesPerPacket)
        }
        let packetCount = frameCount / framesPerPacket
        let byteCount = packetCount * bytesPerPacket
        guard byteCount <= output.count else { throw .outputTooSmall(needed: byteCount, available: output.count) }
        guard packetCount > 0, let samples = input.baseAddress,
              let bytesOut = output.baseAddress
        else { return 0 }

        for packet in 0..<packetCount {
            let frameBase = samples + packet * framesPerPacket * channels
            for channel in 0..<channels {
                let bytes = bytesOut + packet * bytesPerPacket + channel * IMA4Decoder.bytesPerChannelPacket
                var state = states[channel]
                let header = UInt16(truncatingIfNeeded: state.predictor) & 0xFF80 | UInt16(state.stepIndex)
                bytes.storeBytes(of: UInt8(truncatingIfNeeded: header &>> 8), as: UInt8.self)
                bytes.storeBytes(of: UInt8(truncatingIfNeeded: header), toByteOffset: 1, as: UInt8.self)
                var sample = frameBase + channel
                for i in 2..<IMA4Decoder.bytesPerChannelPacket {
                    let low = state.compress(sample.pointee.imaSample)
                    sample += channels
                    let high = state.compress(sample.pointee.imaSample)
                    sample += channels
                    bytes.storeBytes(of: low | high &<< 4, toByteOffset: i, as: UInt8.self)
                }
                states[channel] = state
            }
        }
        return byteCount
    }
}
