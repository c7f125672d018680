/// The output stage's safety: a static soft-knee limiter that maps the whole 8.24 range (±128, +42 dB) into
/// [−ceiling, +ceiling), so the 8.24 → device conversion never clips, without the hard corner of a clipper.
///
/// Transfer curve, odd-symmetric, for |x| ≥ threshold T with headroom H = ceiling − T and d = |x| − T:
///
///     y = T + H·d / (H + d)
///
/// - Below T it is the identity, bit-exact (the samples are not touched).
/// - At the knee value and slope match the identity (y = T, dy/dx = 1): continuous in value and slope (C1).
/// - Above it the slope H²/(H + d)² falls smoothly towards 0 and y rises towards the ceiling without
///   reaching it: the transfer is monotonic and y < ceiling for every input.
///
/// Fixed point: H·d / (H + d) is computed in Int64 and rounded down, so the output is at most
/// ceiling − 1 LSB, adjacent inputs give outputs at most 1 LSB apart, and monotonicity survives the
/// rounding. One 64-bit division per sample above the knee; none below.
///
/// It is stateless: no attack or release, so it distorts peaks above the threshold instead of turning
/// the gain down; it is the last stage that guarantees the bound, not a loudness limiter.
@frozen
public struct SoftLimiter: Sendable, Equatable {
    /// Where the knee begins (raw 8.24, 0 < threshold < ceiling).
    public let threshold: Fixed824
    /// The level the output approaches and never reaches (raw 8.24, at most 1.0).
    public let ceiling: Fixed824

    /// A limiter whose knee starts at `threshold` and whose output stays below `ceiling` (≤ 1.0).
    public init(threshold: Fixed824, ceiling: Fixed824 = .one) {
        precondition(ceiling.raw <= Fixed824.unityRaw, "ceiling above full scale")
        precondition(threshold.raw > 0 && threshold.raw < ceiling.raw, "0 < threshold < ceiling")
        self.threshold = threshold
        self.ceiling = ceiling
    }

    /// A limiter with thresholds in dBFS (default: knee from −1 dBFS, output below 0 dBFS).
    public init(thresholdDecibels: Double = -1, ceilingDecibels: Double = 0) {
        self.init(threshold: Decibels.gain(thresholdDecibels), ceiling: Decibels.gain(ceilingDecibels))
    }

    /// The curve for one sample.
    @inlinable @inline(__always)
    public func limit(_ sample: Fixed824) -> Fixed824 {
        let knee = Int64(threshold.raw)
        let value = Int64(sample.raw)
        let magnitude = value < 0 ? -value : value
        if magnitude <= knee { return sample }
        let headroom = Int64(ceiling.raw) &- knee
        let over = magnitude &- knee
        let limited = knee &+ (headroom &* over) / (headroom &+ over)
        return Fixed824(raw: Int32(truncatingIfNeeded: value < 0 ? -limited : limited))
    }

    /// Limits an interleaved buffer in place (channel count does not matter: the curve is per sample).
    @inlinable
    public func process(_ buffer: UnsafeMutableBufferPointer<Fixed824>) {
        for index in buffer.indices {
            buffer[index] = limit(buffer[index])
        }
    }
}
