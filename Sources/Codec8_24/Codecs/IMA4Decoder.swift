/// Decodes Apple's QuickTime/Core Audio IMA ADPCM (`ima4`, `kAudioFormatAppleIMA4`).
///
/// A packet holds 64 frames: for each channel in turn, 34 bytes — a big-endian 16-bit header whose top
/// 9 bits are the predictor's top bits (`predictor & 0xFF80`) and whose low 7 bits are the step index, then
/// 32 bytes of codes, two per byte, low nibble first.
///
/// The header only keeps the predictor's top bits, so the decoder carries its full state from packet to
/// packet: when a header's step index equals the channel's and its predictor is within 127 of the channel's,
/// the header merely confirms the state and the full-precision predictor goes on; otherwise (the first packet,
/// after a seek, or a stream that restarts) the header's values are taken. This is what an encoder that writes
/// its own truncated state expects; ffmpeg's `adpcm_ima_qt` decoder follows the same rule.
///
/// Allocation happens at init only; `decode` is safe on the render thread.
public final class IMA4Decoder {
    /// Frames in every packet.
    public static let framesPerPacket = 64
    /// Bytes of one channel's share of a packet: 2 header bytes and 32 bytes of codes.
    public static let bytesPerChannelPacket = 34

    public let channelCount: Int
    /// Bytes in one packet of all channels.
    public let bytesPerPacket: Int
    private let states: UnsafeMutablePointer<IMAADPCMChannelState>

    public init(channelCount: Int) throws(IMAADPCMError) {
        guard channelCount >= 1, channelCount <= Int(UInt16.max) else { throw .invalidChannelCount(channelCount) }
        self.channelCount = channelCount
        bytesPerPacket = Self.bytesPerChannelPacket * channelCount
        states = .allocate(capacity: channelCount)
        states.initialize(repeating: IMAADPCMChannelState(), count: channelCount)
    }

    deinit { states.deallocate() }

    /// Forgets the carried state (after a seek): the next packet's headers are taken as they are.
    public func reset() {
        for channel in 0..<channelCount { states[channel] = IMAADPCMChannelState() }
    }

    /// The carried state of one channel.
    public func state(ofChannel channel: Int) -> IMAADPCMChannelState { states[channel] }

    /// Decodes whole packets into interleaved 16-bit frames; returns the number of frames written.
    ///
    /// Every header of a packet is checked before any of it is decoded, so on `invalidStepIndex` the packets
    /// before the bad one have been decoded and the channel states are those at the end of the last good one.
    @discardableResult
    public func decode(
        _ packets: UnsafeRawBufferPointer, into output: UnsafeMutableBufferPointer<Int16>
    ) throws(IMAADPCMError) -> Int {
        try decodePackets(packets, into: output)
    }

    /// Decodes whole packets into interleaved 8.24 frames; returns the number of frames written.
    @discardableResult
    public func decode(
        _ packets: UnsafeRawBufferPointer, into output: UnsafeMutableBufferPointer<Fixed824>
    ) throws(IMAADPCMError) -> Int {
        try decodePackets(packets, into: output)
    }

    private func decodePackets<Sample: IMAADPCMSample>(
        _ packets: UnsafeRawBufferPointer, into output: UnsafeMutableBufferPointer<Sample>
    ) throws(IMAADPCMError) -> Int {
        guard packets.count % bytesPerPacket == 0 else {
            throw .truncatedPacket(byteCount: packets.count, packetSize: bytesPerPacket)
        }
        let packetCount = packets.count / bytesPerPacket
        let frameCount = packetCount * Self.framesPerPacket
        guard frameCount * channelCount <= output.count else {
            throw .outputTooSmall(needed: frameCount * channelCount, available: output.count)
        }
        guard packetCount > 0, let input = packets.baseAddress,
              let samples = output.baseAddress
        else { return 0 }

        let channels = channelCount
        for packet in 0..<packetCount {
            let packetBytes = input + packet * bytesPerPacket
            for channel in 0..<channels {
                let stepIndex = Int(packetBytes.byte(at: channel * Self.bytesPerChannelPacket + 1) & 0x7F)
                if stepIndex > Int(IMAADPCM.maxStepIndex) {
                    throw .invalidStepIndex(stepIndex, channel: channel, packet: packet)
                }
            }
            let frameBase = samples + packet * Self.framesPerPacket * channels
            for channel in 0..<channels {
                let bytes = packetBytes + channel * Self.bytesPerChannelPacket
                let header = UInt16(bytes.byte(at: 0)) &<< 8 | UInt16(bytes.byte(at: 1))
                let headerPredictor = Int32(Int16(bitPattern: header & 0xFF80))
                let headerStepIndex = Int32(header & 0x7F)
                var state = states[channel]
                if state.stepIndex != headerStepIndex || abs(headerPredictor &- state.predictor) > 0x7F {
                    state = IMAADPCMChannelState(predictor: headerPredictor, stepIndex: headerStepIndex)
                }
                var out = frameBase + channel
                for i in 2..<Self.bytesPerChannelPacket {
                    let byte = bytes.byte(at: i)
                    out.pointee = Sample(imaSample: state.expand(byte & 0x0F))
                    out += channels
                    out.pointee = Sample(imaSample: state.expand(byte &>> 4))
                    out += channels
                }
                states[channel] = state
            }
        }
        return frameCount
    }
}
