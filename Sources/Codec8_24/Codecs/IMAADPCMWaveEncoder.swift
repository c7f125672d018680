/// Encodes Microsoft IMA ADPCM blocks for WAV files (format tag `0x0011`); see `IMAADPCMWaveLayout`.
///
/// Each block's header stores its first frame exactly and the step index the channel had reached, so the
/// step adaptation runs on across blocks while the predictor restarts from a true sample.
/// Allocation happens at init only; `encode` is safe on the render thread.
public final class IMAADPCMWaveEncoder {
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

    /// Starts a new stream: step index 0 on every channel.
    public func reset() {
        for channel in 0..<layout.channelCount { states[channel] = IMAADPCMChannelState() }
    }

    /// The running state of one channel.
    public func state(ofChannel channel: Int) -> IMAADPCMChannelState { states[channel] }

    /// Encodes interleaved 16-bit frames, a whole number of blocks; returns the bytes written.
    /// (A stream's last, short block is the caller's to pad; the WAV `fact` chunk gives the true length.)
    @discardableResult
    public func encode(
        _ input: UnsafeBufferPointer<Int16>, into output: UnsafeMutableRawBufferPointer
    ) throws(IMAADPCMError) -> Int {
        try encodeBlocks(input, into: output)
    }

    /// Encodes interleaved 8.24 frames (rounded to 16 bits), a whole number of blocks; returns the bytes
    /// written.
    @discardableResult
    public func encode(
        _ input: UnsafeBufferPointer<Fixed824>, into output: UnsafeMutableRawBufferPointer
    ) throws(IMAADPCMError) -> Int {
        try encodeBlocks(input, into: output)
    }

    private func encodeBlocks<Sample: IMAADPCMSample>(
        _ input: UnsafeBufferPointer<Sample>, into output: UnsafeMutableRawBufferPointer
    ) throws(IMAADPCMError) -> Int {
        let channels = layout.channelCount
        let framesPerBlock = layout.framesPerBlock
        let blockAlign = layout.blockAlign
        let frameCount = input.count / channels
        guard input.count % channels == 0, frameCount % framesPerBlock == 0 else {
            throw .partialPacketOfFrames(frameCount: frameCount, framesPerPacket: framesPerBlock)
        }
        let blockCount = frameCount / framesPerBlock
        let byteCount = blockCount * blockAlign
        guard byteCount <= output.count else { throw .outputTooSmall(needed: byteCount, available: output.count) }
        guard blockCount > 0, let samples = input.baseAddress, let bytesOut = output.baseAddress else { return 0 }

        let groupCount = (framesPerBlock - 1) / 8
        let headerBytes = 4 * channels
        for block in 0..<blockCount {
            let bytes = bytesOut + block * blockAlign
            let frameBase = samples + block * framesPerBlock * channels
            for channel in 0..<channels {
                let first = frameBase[channel].imaSample
                states[channel].predictor = Int32(first)
                let header = bytes + 4 * channel
                let pattern = UInt16(bitPattern: first)
                header.storeBytes(of: UInt8(truncatingIfNeeded: pattern), as: UInt8.self)
                header.storeBytes(of: UInt8(truncatingIfNeeded: pattern &>> 8), toByteOffset: 1, as: UInt8.self)
                header.storeBytes(of: UInt8(truncatingIfNeeded: states[channel].stepIndex), toByteOffset: 2, as: UInt8.self)
                header.storeBytes(of: 0, toByteOffset: 3, as: UInt8.self)
            }
            for group in 0..<groupCount {
                let groupBytes = bytes + headerBytes + group * headerBytes
                let groupFrames = frameBase + (1 + group * 8) * channels
                for channel in 0..<channels {
                    var state = states[channel]
                    let codes = groupBytes + 4 * channel
                    var sample = groupFrames + channel
                    for i in 0..<4 {
                        let low = state.compress(sample.pointee.imaSample)
                        sample += channels
                        let high = state.compress(sample.pointee.imaSample)
                        sample += channels
                        codes.storeBytes(of: low | high &<< 4, toByteOffset: i, as: UInt8.self)
                    }
                    states[channel] = state
                }
            }
        }
        return byteCount
    }
}
