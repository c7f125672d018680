/// Reduces 8.24 audio to a 16- or 24-bit grid with TPDF dither and optional noise shaping, so quiet passages
/// fade into benign, signal-independent hiss instead of turning into distortion.
///
/// TPDF (triangular) dither is the sum of two uniform values of one target LSB each; it makes the mean and
/// variance of the quantization error independent of the signal. Noise shaping feeds the error back through
/// a short FIR so its spectrum tilts towards high frequencies, where the ear is less sensitive: more total
/// noise, less of it where it is heard. The output lands exactly on the target grid, so a following
/// ``SampleConversion/narrow(_:into:)`` is exact.
///
/// State is per channel and inline; processing never allocates. Interleaved buffers of 1...8 channels.
public struct Ditherer: Sendable {
    /// The word length being reduced to.
    public enum Depth: Int, Sendable, CaseIterable {
        case bits16 = 16
        case bits24 = 24

        /// One LSB of the target word, in 8.24 raw units.
        @inlinable public var lsb: Int64 { Int64(1) << (25 - rawValue) }
    }

    /// The noise-transfer function applied to the quantization error.
    public enum NoiseShaping: Sendable, CaseIterable {
        /// Flat (white) dither noise.
        case off
        /// `1 - z⁻¹`: +6 dB per octave, about 6 dB less noise below fs/12.
        case firstOrder
        /// `(1 - z⁻¹)²`: +12 dB per octave, much less low-frequency noise, the most total noise.
        case secondOrder
    }

    public let depth: Depth
    public let shaping: NoiseShaping
    public let channelCount: Int

    /// One generator per channel, so the sequence a channel sees does not depend on how frames are split.
    @usableFromInline var generators: ChannelValues<NoiseGenerator>
    @usableFromInline var lastError: ChannelValues<Int64>
    @usableFromInline var errorBeforeLast: ChannelValues<Int64>

    /// - Parameters:
    ///   - channelCount: 1...8, the interleaving of the buffers this ditherer sees.
    ///   - seed: the dither sequence's seed; the same seed gives the same output.
    public init(depth: Depth, shaping: NoiseShaping = .off, channelCount: Int, seed: UInt64 = 0x5EED) {
        precondition((1...SampleConversion.maxChannels).contains(channelCount), "1...8 channels")
        self.depth = depth
        self.shaping = shaping
        self.channelCount = channelCount
        generators = ChannelValues(repeating: NoiseGenerator(seed: 0))
        for c in 0..<channelCount { generators[c] = NoiseGenerator(seed: seed &+ UInt64(c) &* 0x1_0000_0001) }
        lastError = ChannelValues(repeating: 0)
        errorBeforeLast = ChannelValues(repeating: 0)
    }

    /// Quantizes `buffer` in place onto the target grid, clamped to the target's full scale.
    @inlinable
    public mutating func process(_ buffer: UnsafeMutableBufferPointer<Fixed824>) {
        // One loop per noise shape, so the flat case carries no error-feedback chain from sample to sample.
        switch shaping {
        case .off: quantize(buffer) { _, _ in 0 }
        case .firstOrder: quantize(buffer) { e1, _ in e1 }
        case .secondOrder: quantize(buffer) { e1, e2 in 2 &* e1 &- e2 }
        }
    }

    /// The quantizer with its error feedback `feedback(e[n-1], e[n-2])` inlined.
    @inlinable @inline(__always)
    mutating func quantize(_ buffer: UnsafeMutableBufferPointer<Fixed824>, feedback: (Int64, Int64) -> Int64) {
        guard let base = buffer.baseAddress else { return }
        let lsb = depth.lsb
        let shift = UInt64(25 - depth.rawValue)          // uniform draws of one LSB: 0 ..< 2^shift
        let mask = (UInt64(1) << shift) - 1
        let highest = Int64(Fixed824.unityRaw) - lsb      // the target's largest code
        let lowest = -Int64(Fixed824.unityRaw)
        let errorLimit = 2 * lsb                          // keeps feedback stable when the output clips
        let frames = buffer.count / channelCount
        for c in 0..<channelCount {
            var e1 = lastError[c], e2 = errorBeforeLast[c]
            var generator = generators[c]
            var p = base + c
            for _ in 0..<frames {
                let wanted = Int64(p.pointee.raw) &- feedback(e1, e2)
                let draw = generator.next()
                let tpdf = Int64(draw & mask) &+ Int64((draw &>> 32) & mask) &- lsb &+ 1
                let rounded = (wanted &+ tpdf &+ lsb / 2) & ~(lsb &- 1)
                let quantized = Swift.min(Swift.max(rounded, lowest), highest)
                e2 = e1
                e1 = Swift.min(Swift.max(quantized &- wanted, -errorLimit), errorLimit)
                p.pointee = Fixed824(raw: Int32(truncatingIfNeeded: quantized))
                p += channelCount
            }
            generators[c] = generator
            lastError[c] = e1
            errorBeforeLast[c] = e2
        }
    }

    /// Dithers `source` into `destination` (an 8.24 scratch buffer is used in place of `source`'s copy).
    /// Converts `min(source.count, destination.count)` samples, whole frames only.
    @inlinable
    public mutating func narrow<Sample: LinearPCMSample>(
        _ source: UnsafeMutableBufferPointer<Fixed824>, into destination: UnsafeMutableBufferPointer<Sample>
    ) {
        let count = Swift.min(source.count, destination.count) / channelCount * channelCount
        let slice = UnsafeMutableBufferPointer(rebasing: source[0..<count])
        process(slice)
        SampleConversion.narrow(UnsafeBufferPointer(slice), into: destination)
    }
}
