/// The mixer's render: accumulate every pulled input into the Int64 stereo accumulator, then apply the
/// master gain and saturate once into the 8.24 output.
extension Mixer {
    /// Fraction bits the accumulator drops from each 8.24 × 8.24 product (48 → 32 fraction bits).
    @usableFromInline static let productShift: Int64 = 16

    /// Mixes `frames` frames from the mixer's own input buffers (`inputBuffer(i)`) into `output`
    /// (at least `2 × frames` samples, stereo interleaved).
    public func render(frames: Int, into output: UnsafeMutableBufferPointer<Fixed824>) {
        render(frames: frames, inputs: UnsafeBufferPointer(start: stagingPointers, count: inputCount), into: output)
    }

    /// Mixes `frames` frames into `output` (at least `2 × frames` samples, stereo interleaved). `inputs` holds
    /// one pointer per input to `frames × channelCount(input:)` interleaved samples. Inputs that are not
    /// pulled (`isPulled`) are never dereferenced; a `nil` pointer for a pulled input counts as silence.
    public func render(
        frames: Int, inputs: UnsafeBufferPointer<UnsafePointer<Fixed824>?>,
        into output: UnsafeMutableBufferPointer<Fixed824>
    ) {
        precondition(frames >= 0 && frames <= maximumFrames, "frames beyond maximumFrames")
        precondition(inputs.count == inputCount, "one pointer per input")
        precondition(output.count >= 2 * frames, "output too small")
        guard frames > 0, let out = output.baseAddress else { return }
        let sampleCount = 2 &* frames
        accumulator.update(repeating: 0, count: sampleCount)
        for input in 0..<inputCount {
            if ramps[input].isMuted && ramps[input].isSilent { continue }      // disabled and faded out
            pulledFrames[input] &+= frames
            guard let source = inputs[input] else {
                ramps[input].advance(frames: frames)
                continue
            }
            if channelCounts[input] == 1 {
                accumulateMono(source, frames: frames, ramp: &ramps[input])
            } else {
                accumulateStereo(source, frames: frames, ramp: &ramps[input])
            }
        }
        writeOutput(out, frames: frames)
    }

    @inlinable
    func accumulateMono(_ source: UnsafePointer<Fixed824>, frames: Int, ramp: inout GainRamp) {
        let sum = accumulator
        var frame = 0
        while frame < frames && ramp.isRamping {
            let gain = Int64(ramp.nextGain().raw)
            let value = (Int64(source[frame].raw) &* gain) &>> Self.productShift
            sum[2 &* frame] &+= value
            sum[2 &* frame &+ 1] &+= value
            frame &+= 1
        }
        let gain = Int64(ramp.gain.raw)
        if gain == 0 { return }
        while frame < frames {
            let value = (Int64(source[frame].raw) &* gain) &>> Self.productShift
            sum[2 &* frame] &+= value
            sum[2 &* frame &+ 1] &+= value
            frame &+= 1
        }
    }

    @inlinable
    func accumulateStereo(_ source: UnsafePointer<Fixed824>, frames: Int, ramp: inout GainRamp) {
        let sum = accumulator
        var frame = 0
        while frame < frames && ramp.isRamping {
            let gain = Int64(ramp.nextGain().raw)
            let index = 2 &* frame
            sum[index] &+= (Int64(source[index].raw) &* gain) &>> Self.productShift
            sum[index &+ 1] &+= (Int64(source[index &+ 1].raw) &* gain) &>> Self.productShift
            frame &+= 1
        }
        let gain = Int64(ramp.gain.raw)
        if gain == 0 { return }
        var index = 2 &* frame
        let end = 2 &* frames
        while index < end {
            sum[index] &+= (Int64(source[index].raw) &* gain) &>> Self.productShift
            index &+= 1
        }
    }

    /// Master gain, rounding and the one saturation of the whole mix.
    @inlinable
    func writeOutput(_ out: UnsafeMutablePointer<Fixed824>, frames: Int) {
        let sum = accumulator
        for frame in 0..<frames {
            let gain = Int64(master.nextGain().raw)
            let index = 2 &* frame
            out[index] = Self.outputSample(sum[index], gain: gain)
            out[index &+ 1] = Self.outputSample(sum[index &+ 1], gain: gain)
        }
    }

    /// `sum` (32 fraction bits) × `gain` (8.24) → 8.24, rounded to nearest, saturated. A product that
    /// overflows 64 bits is far beyond the 8.24 range (any in-range result fits in 2^63), so it saturates.
    @inlinable @inline(__always)
    static func outputSample(_ sum: Int64, gain: Int64) -> Fixed824 {
        let (product, overflow) = sum.multipliedReportingOverflow(by: gain)
        if overflow { return sum < 0 ? .min : .max }
        // Round half up without the overflow an added half could cause near Int64.max.
        return Fixed824.saturating(((product &>> 31) &+ 1) &>> 1)
    }
}
