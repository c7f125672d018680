/// Starting a cascade in the middle of a stream (a preset switch) without a start-up transient.
extension BiquadCascade {
    /// Sets every stage's history as if the cascade had been passing the signal through unchanged
    /// (times its input gain): each stage's inputs and outputs are the previous samples it would have seen
    /// from a flat cascade.
    ///
    /// A new cascade primed this way starts out continuing the signal (no step), then settles into its own
    /// response: bells start with their resonators at rest, shelves glide to their gain. Allocation-free.
    ///
    /// - Parameter history: per channel, the last input sample then the one before it (Q15.48, before the
    ///   input gain), `2 × channels` values.
    public func primeAsFlat(history: UnsafePointer<Int64>) {
        for channel in 0..<channels {
            var x1 = history[2 &* channel]
            var x2 = history[2 &* channel &+ 1]
            if hasInputGain {
                x1 = Self.scale(x1, byQ58: inputGainQ58)
                x2 = Self.scale(x2, byQ58: inputGainQ58)
            }
            for stage in 0..<stageCount {
                let y1 = x1, y2 = x2
                let bell = coefficients[stage].isBell
                // The bell form keeps e = y - x as its output history.
                states[stage &* channels &+ channel] = BiquadState(
                    x1: x1, x2: x2, y1: bell ? y1 &- x1 : y1, y2: bell ? y2 &- x2 : y2)
                x1 = y1
                x2 = y2
            }
        }
    }

    /// `value × factor` for a Q5.58 factor, with the kernel's arithmetic.
    @inline(__always)
    static func scale(_ value: Int64, byQ58 factor: Int64) -> Int64 {
        BiquadKernel.high(value, factor) &<< Int64(BiquadKernel.productShift)
    }
}
