/// Buffer converters between the boundary sample formats and 8.24, for interleaved and deinterleaved
/// (one buffer per channel) layouts of 1 to 8 channels. They never allocate, so they can run on the render
/// thread; generic code is specialized per format at the call site.
///
/// Narrowing here rounds to nearest without dither. Use ``Ditherer`` when reducing to 16 bits for a
/// listener; plain rounding is right for bit-exact paths (tests, 24/32-bit devices).
public enum SampleConversion {
    /// The largest channel count the converters and the engine handle.
    public static let maxChannels = 8

    /// Widens `source` into `destination`, sample by sample, in whatever layout both share.
    /// Converts `min(source.count, destination.count)` samples.
    @inlinable
    public static func widen<Sample: LinearPCMSample>(
        _ source: UnsafeBufferPointer<Sample>, into destination: UnsafeMutableBufferPointer<Fixed824>
    ) {
        guard let src = source.baseAddress, let dst = destination.baseAddress else { return }
        let count = Swift.min(source.count, destination.count)
        for i in 0..<count { dst[i] = src[i].fixed824 }
    }

    /// Narrows `source` into `destination`, rounding to nearest and saturating at full scale.
    /// Converts `min(source.count, destination.count)` samples.
    @inlinable
    public static func narrow<Sample: LinearPCMSample>(
        _ source: UnsafeBufferPointer<Fixed824>, into destination: UnsafeMutableBufferPointer<Sample>
    ) {
        guard let src = source.baseAddress, let dst = destination.baseAddress else { return }
        let count = Swift.min(source.count, destination.count)
        for i in 0..<count { dst[i] = Sample(src[i]) }
    }

    /// Splits interleaved `source` frames into one 8.24 buffer per channel, widening as it goes.
    /// `channels.count` is the channel count (1...8); converts as many whole frames as the shortest buffer holds.
    @inlinable
    public static func deinterleave<Sample: LinearPCMSample>(
        _ source: UnsafeBufferPointer<Sample>,
        into channels: UnsafeBufferPointer<UnsafeMutableBufferPointer<Fixed824>>
    ) {
        let channelCount = channels.count
        guard channelCount > 0, let src = source.baseAddress else { return }
        var frames = source.count / channelCount
        for channel in channels { frames = Swift.min(frames, channel.count) }
        for (c, channel) in channels.enumerated() {
            guard let dst = channel.baseAddress else { continue }
            var s = src + c
            for f in 0..<frames {
                dst[f] = s.pointee.fixed824
                s += channelCount
            }
        }
    }

    /// Joins one 8.24 buffer per channel into interleaved `destination` frames, narrowing as it goes.
    /// `channels.count` is the channel count (1...8); converts as many whole frames as the shortest buffer holds.
    @inlinable
    public static func interleave<Sample: LinearPCMSample>(
        _ channels: UnsafeBufferPointer<UnsafeBufferPointer<Fixed824>>,
        into destination: UnsafeMutableBufferPointer<Sample>
    ) {
        let channelCount = channels.count
        guard channelCount > 0, let dst = destination.baseAddress else { return }
        var frames = destination.count / channelCount
        for channel in channels { frames = Swift.min(frames, channel.count) }
        for (c, channel) in channels.enumerated() {
            guard let src = channel.baseAddress else { continue }
            var d = dst + c
            for f in 0..<frames {
                d.pointee = Sample(src[f])
                d += channelCount
            }
        }
    }
}
