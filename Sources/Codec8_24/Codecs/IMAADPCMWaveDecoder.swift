/// Decodes Microsoft IMA ADPCM blocks from WAV files (format tag `0x0011`); see `IMAADPCMWaveLayout`.
///
/// Blocks carry no state from one to the next, so the decoder holds only its layout and per-channel scratch
/// state allocated at init; `decode` is safe on the render thread.
public final class IMAADPCMWaveDecoder {
    public let layout: IMAADPCMWaveLayout
    private let states: UnsafeMutablePointer<IMAADPCMChannelState>

    public init(layout: IMAADPCMWaveLayout) {
        self.layout = layout
        states = .allocate(capacity: layout.channelCount)
        states.initialize(repeating: IMAADPCMChannelState(), count: layout.channelCount)
    }

    public convenience init(channelCount: Int, blockAlign: Int) throws(IMAADPCMError) {
        self.init(layout: try IMAADPCMWaveLayout(channelCount: channelCount, blockAlign: blockAlign))
    }

    deinit { states.deallocate() }

    /// Decodes whole blocks into interleaved 16-bit frames; returns the number of frames written.
    ///
    /// A block's headers are all checked before it is decoded, so on `invalidStepIndex` the blocks before
    /// the bad one (counted by `packet`) have been decoded.
    @discardableResult
    public func decode(
        _ blocks: UnsafeRawBufferPointer, into output: UnsafeMutableBufferPointer<Int16>
    ) throws(IMAADPCMError) -> Int {
        try decodeBlocks(blocks, into: output)
    }

    /// Decodes whole blocks into interleaved 8.24 frames; returns the number of frames written.
    @discardableResult
    public func decode(
        _ blocks: UnsafeRawBufferPointer, into output: UnsafeMutableBufferPointer<Fixed824>
    ) throws(IMAADPCMError) -> Int {
        try decodeBlocks(blocks, into: output)
    }

    private func decodeBlocks<Sample: IMAADPCMSample>(
        _ blocks: UnsafeRawBufferPointer, into output: UnsafeMutableBufferPointer<Sample>
    ) throws(IMAADPCMError) -> Int {
        let blockAlign = layout.blockAlign
        let channels = layout.channelCount
        let framesPerBlock = layout.framesPerBlock
        guard blocks.count % blockAlign == 0 else {
            throw .truncatedPacket(byteCount: blocks.count, packetSize: blockAlign)
        }
        let blockCount = blocks.count / blockAlign
        let frameCount = blockCount * framesPerBlock
        guard frameCount * channels <= output.count else {
            throw .outputTooSmall(needed: frameCount * channels, available: output.count)
        }
        guard blockCount > 0, let input = blocks.baseAddress, let samples = output.baseAddress else { return 0 }

        let groupCount = (framesPerBlock - 1) / 8
        let headerBytes = 4 * channels
        for block in 0..<blockCount {
            let bytes = input + block * blockAlign
            for channel in 0..<channels {
                let stepIndex = Int(bytes.byte(at: 4 * channel + 2))
                if stepIndex > Int(IMAADPCM.maxStepIndex) {
                    throw .invalidStepIndex(stepIndex, channel: channel, packet: block)
                }
            }
            let frameBase = samples + block * framesPerBlock * channels
            for channel in 0..<channels {
                let header = bytes + 4 * channel
                let predictor = Int16(bitPattern: UInt16(header.byte(at: 0)) | UInt16(header.byte(at: 1)) &<< 8)
                states[channel] = IMAADPCMChannelState(
                    predictor: Int32(predictor), stepIndex: Int32(header.byte(at: 2)))
                frameBase[channel] = Sample(imaSample: predictor)
            }
            for group in 0..<groupCount {
                let groupBytes = bytes + headerBytes + group * headerBytes
                let groupFrames = frameBase + (1 + group * 8) * channels
                for channel in 0..<channels {
                    var state = states[channel]
                    let codes = groupBytes + 4 * channel
                    var out = groupFrames + channel
                    for i in 0..<4 {
                        let byte = codes.byte(at: i)
                        out.pointee = Sample(imaSample: state.expand(byte & 0x0F))
                        out += channels
                        out.pointee = Sample(imaSample: state.expand(byte &>> 4))
                        out += channels
                    }
                    states[channel] = state
                }
            }
        }
        return frameCount
    }
}
