/// A streaming rational sample-rate converter for interleaved 8.24 audio (1...8 channels) between any two
/// `StandardSampleRate`s, using a `PolyphaseFilterBank`.
///
/// Output frame `m` is the prototype filter evaluated at upsampled time `m·M + φ`; the offset φ makes the
/// filter's group delay a whole number of output frames, `latencyFrames`: output frame `latencyFrames + k`
/// corresponds exactly to input time `k·M/L` frames (so output `latencyFrames` lines up with input frame 0).
///
/// Streaming contract:
/// - `process` consumes input only as far as the next not-yet-produced output frame needs, and stops when the
///   output is full or the input is used up. The result depends only on the sample sequence, never on how it
///   was split into calls: any split gives bit-identical output.
/// - With room for `outputFrames(forInputFrames: n)` frames (or the state-free bound
///   `maximumOutputFrames(forInputFrames: n)`), a call consumes all `n` input frames.
/// - Pulling a fixed `k` output frames needs exactly `inputFramesRequired(forOutputFrames: k)` input frames.
/// - `drain` feeds silence to emit the tail still owed for the input so far (`pendingTailFrames`), so that the
///   total output is `latencyFrames + ceil(inputFrames·L/M)` frames. It ends the stream: `reset()` before
///   feeding a new one.
/// - Equal rates are a plain copy with zero latency.
///
/// Real-time use: `init` allocates (control thread); `process`, `drain` and `reset` never allocate, lock or
/// call through existentials. The kernel is an unsigned 32×32→64-bit dot product with wrapping adds, corrected
/// to the exact signed sum (see `dotProduct`), rounded and saturated once per output sample. It is integer
/// arithmetic throughout, so the output is bit-identical on every architecture.
///
/// Input and output buffers must not overlap.
///
/// A class that owns its history buffers and frees them when it goes away. (A noncopyable struct would say
/// "one owner" better, but Swift 6.0.3, the Raspberry Pi toolchain, crashes verifying its accessors.) It is
/// `@unchecked Sendable` so the control thread that builds it can hand it to the render thread; from then on
/// only one thread may use it.
public final class SampleRateConverter: @unchecked Sendable {
    /// The filter table in use (possibly shared with other converters).
    public let filterBank: PolyphaseFilterBank
    /// Interleaved channels per frame.
    public let channels: Int
    /// Group delay in output frames: output frame `latencyFrames` corresponds to input frame 0.
    public let latencyFrames: Int

    let coefficients: UnsafePointer<UInt32>
    let interpolation: Int
    let decimation: Int
    let taps: Int
    /// Phase advance per output frame (M mod L) and whole input frames per output frame (M / L).
    let phaseStep: Int
    let frameStep: Int
    let isPassThrough: Bool
    let initialPhase: Int
    let initialFramesNeeded: Int

    /// Per channel, `2·taps` samples: every input is written twice, `taps` apart, so the latest `taps` samples
    /// are always contiguous (starting at `writeIndex`, oldest first) and the dot product needs no wrap-around.
    /// Stored offset by 2^31 (`unsignedSample`), for the unsigned kernel.
    let history: UnsafeMutablePointer<UInt32>
    /// Per channel, the signed sum of the `taps` samples in the history window, kept as samples come and go;
    /// the kernel's correction term needs it.
    let windowSums: UnsafeMutablePointer<Int64>
    /// The part of the kernel's correction that does not depend on the samples (see `dotProduct`).
    let kernelConstant: UInt64
    var writeIndex: Int
    /// The filter phase (0..<L) of the next output frame.
    var phase: Int
    /// Input frames still to be taken in before the next output frame can be computed.
    var framesNeeded: Int
    /// Real input frames consumed and output frames produced since init or `reset()`.
    public private(set) var inputFramesConsumed: Int
    public private(set) var outputFramesProduced: Int

    /// A converter from `inputRate` to `outputRate` with its own filter bank. Allocates; control thread only.
    public convenience init(from inputRate: StandardSampleRate, to outputRate: StandardSampleRate, channels: Int) {
        self.init(filterBank: PolyphaseFilterBank(from: inputRate, to: outputRate), channels: channels)
    }

    /// A converter that shares an existing filter bank (e.g. one bank for every stream of the same rate pair).
    public init(filterBank: PolyphaseFilterBank, channels: Int) {
        precondition((1...8).contains(channels), "the converter handles 1...8 channels")
        self.filterBank = filterBank
        self.channels = channels
        coefficients = UnsafePointer(filterBank.table)
        interpolation = filterBank.ratio.interpolation
        decimation = filterBank.ratio.decimation
        taps = filterBank.tapsPerPhase
        phaseStep = decimation % interpolation
        frameStep = decimation / interpolation
        isPassThrough = filterBank.ratio.isIdentity
        // Evaluate output m at upsampled time m·M + φ with φ = delay mod M, so the delay in output frames is
        // the whole number delay / M.
        let delay = filterBank.prototypeDelay
        let offset = delay % decimation
        latencyFrames = delay / decimation
        initialPhase = offset % interpolation
        initialFramesNeeded = isPassThrough ? 0 : offset / interpolation + 1
        history = .allocate(capacity: channels * 2 * taps)
        history.initialize(repeating: SampleRateConverter.unsignedSample(0), count: channels * 2 * taps)
        windowSums = .allocate(capacity: channels)
        windowSums.initialize(repeating: 0, count: channels)
        kernelConstant = SampleRateConverter.kernelConstant(taps: taps)
        writeIndex = 0
        phase = initialPhase
        framesNeeded = initialFramesNeeded
        inputFramesConsumed = 0
        outputFramesProduced = 0
    }

    deinit {
        history.deallocate()
        windowSums.deallocate()
    }

    /// The rate ratio L/M.
    public var ratio: ConversionRatio { filterBank.ratio }

    /// Bytes this converter holds: its history plus the (possibly shared) coefficient table.
    public var memoryBytes: Int {
        channels * (2 * taps * MemoryLayout<UInt32>.stride + MemoryLayout<Int64>.stride) + filterBank.coefficientBytes
    }

    /// Back to the state right after `init`: silent history, first phase, counters zero. No allocation.
    public func reset() {
        history.update(repeating: SampleRateConverter.unsignedSample(0), count: channels * 2 * taps)
        windowSums.update(repeating: 0, count: channels)
        writeIndex = 0
        phase = initialPhase
        framesNeeded = initialFramesNeeded
        inputFramesConsumed = 0
        outputFramesProduced = 0
    }

    // MARK: - Sizing

    /// An upper bound on the output frames `n` input frames can produce from any state: ceil((n+1)·L/M).
    /// Size output buffers with it; for equal rates it is `n`.
    public func maximumOutputFrames(forInputFrames frames: Int) -> Int {
        ratio.maximumOutputFrames(forInputFrames: frames)
    }

    /// Exactly how many output frames `process` produces from `frames` more input frames, given room.
    public func outputFrames(forInputFrames frames: Int) -> Int {
        if isPassThrough { return frames }
        if frames < framesNeeded { return 0 }
        return ((frames - framesNeeded + 1) * interpolation - 1 - phase) / decimation + 1
    }

    /// Exactly how many input frames `process` needs to produce `frames` output frames (pull mode).
    public func inputFramesRequired(forOutputFrames frames: Int) -> Int {
        if frames <= 0 { return 0 }
        if isPassThrough { return frames }
        return framesNeeded + (phase + (frames - 1) * decimation) / interpolation
    }

    /// Output frames `drain` still owes for the input consumed so far (0 for equal rates).
    public var pendingTailFrames: Int {
        if isPassThrough { return 0 }
        let aligned = (inputFramesConsumed * interpolation + decimation - 1) / decimation
        return max(0, latencyFrames + aligned - outputFramesProduced)
    }

    // MARK: - Processing

    /// Converts interleaved `input` into interleaved `output` (both whole frames of `channels` samples).
    /// Returns the frames consumed and produced; unconsumed input must be offered again in the next call.
    public func process(
        input: UnsafeBufferPointer<Fixed824>, output: UnsafeMutableBufferPointer<Fixed824>
    ) -> (consumed: Int, produced: Int) {
        let channels = self.channels
        precondition(input.count % channels == 0 && output.count % channels == 0, "buffers must hold whole frames")
        let inputFrames = input.count / channels
        let outputFrames = output.count / channels
        if isPassThrough {
            let frames = min(inputFrames, outputFrames)
            if frames > 0 {
                output.baseAddress!.update(from: input.baseAddress!, count: frames * channels)
            }
            inputFramesConsumed &+= frames
            outputFramesProduced &+= frames
            return (frames, frames)
        }
        let result = render(source: input.baseAddress, sourceFrames: inputFrames,
                            output: output.baseAddress, outputFrames: outputFrames)
        inputFramesConsumed &+= result.consumed
        return result
    }

    /// Emits up to `pendingTailFrames` of the tail into `output` by feeding silence; returns frames written.
    /// Several calls may be needed if `output` is small; the result is the same as one call.
    public func drain(output: UnsafeMutableBufferPointer<Fixed824>) -> Int {
        precondition(output.count % channels == 0, "buffers must hold whole frames")
        let frames = min(pendingTailFrames, output.count / channels)
        if frames == 0 { return 0 }
        return render(source: nil, sourceFrames: .max, output: output.baseAddress, outputFrames: frames).produced
    }

    /// The polyphase loop. `source == nil` means silence (for `drain`).
    func render(
        source: UnsafePointer<Fixed824>?, sourceFrames: Int,
        output: UnsafeMutablePointer<Fixed824>?, outputFrames: Int
    ) -> (consumed: Int, produced: Int) {
        let channels = self.channels
        let taps = self.taps
        let stride = 2 &* taps
        let interpolation = self.interpolation
        let phaseStep = self.phaseStep
        let frameStep = self.frameStep
        let history = self.history
        let windowSums = self.windowSums
        let coefficients = self.coefficients
        let kernelConstant = self.kernelConstant
        var writeIndex = self.writeIndex
        var phase = self.phase
        var needed = framesNeeded
        var consumed = 0
        var produced = 0
        while true {
            if needed > 0 {
                let count = min(needed, sourceFrames &- consumed)
                if count > 0 {
                    if let source {
                        var frame = source + consumed &* channels
                        for _ in 0..<count {
                            for channel in 0..<channels {
                                SampleRateConverter.push(frame[channel].raw, line: history + channel &* stride,
                                                         at: writeIndex, taps: taps, sum: windowSums + channel)
                            }
                            frame += channels
                            writeIndex &+= 1
                            if writeIndex == taps { writeIndex = 0 }
                        }
                    } else {
                        for _ in 0..<count {
                            for channel in 0..<channels {
                                SampleRateConverter.push(0, line: history + channel &* stride,
                                                         at: writeIndex, taps: taps, sum: windowSums + channel)
                            }
                            writeIndex &+= 1
                            if writeIndex == taps { writeIndex = 0 }
                        }
                    }
                    consumed &+= count
                    needed &-= count
                }
                if needed > 0 { break }
            }
            if produced == outputFrames { break }
            let row = coefficients + phase &* taps
            let frameOut = output! + produced &* channels
            // Channels two at a time: one pass over the row serves both (its loads and lane shuffles shared).
            var channel = 0
            while channel &+ 1 < channels {
                let first = UnsafePointer(history + (channel &* stride &+ writeIndex))
                let sums = SampleRateConverter.dotProducts(row, first, first + stride, count: taps)
                frameOut[channel] = SampleRateConverter.sample(
                    sums.0, windowSum: windowSums[channel], constant: kernelConstant)
                frameOut[channel &+ 1] = SampleRateConverter.sample(
                    sums.1, windowSum: windowSums[channel &+ 1], constant: kernelConstant)
                channel &+= 2
            }
            if channel < channels {
                let window = UnsafePointer(history + (channel &* stride &+ writeIndex))
                frameOut[channel] = SampleRateConverter.sample(
                    SampleRateConverter.dotProduct(row, window, count: taps),
                    windowSum: windowSums[channel], constant: kernelConstant)
            }
            produced &+= 1
            phase &+= phaseStep
            needed = frameStep
            if phase >= interpolation {
                phase &-= interpolation
                needed &+= 1
            }
        }
        self.writeIndex = writeIndex
        self.phase = phase
        framesNeeded = needed
        outputFramesProduced &+= produced
        return (consumed, produced)
    }

    /// A sample as the history stores it: its two's-complement bits with the sign bit flipped, i.e. raw + 2^31,
    /// always in 0..<2^32.
    @inline(__always)
    static func unsignedSample(_ raw: Int32) -> UInt32 { UInt32(bitPattern: raw) ^ 0x8000_0000 }

    /// Writes `raw` into both copies of its history slot and moves the window sum by it and by the sample it
    /// evicts (the oldest, which that slot held).
    @inline(__always)
    static func push(_ raw: Int32, line: UnsafeMutablePointer<UInt32>, at index: Int, taps: Int,
                     sum: UnsafeMutablePointer<Int64>) {
        let evicted = Int64(Int32(bitPattern: line[index] ^ 0x8000_0000))
        sum.pointee &+= Int64(raw) &- evicted
        let stored = unsignedSample(raw)
        line[index] = stored
        line[index &+ taps] = stored
    }

    /// With B = `PolyphaseFilterBank.coefficientOffset` (2^30), A = 2^31 and n = `taps`, the part of the
    /// correction independent of the samples: A·Σc + n·A·B, where Σc is every row's exact sum (unity).
    static func kernelConstant(taps: Int) -> UInt64 {
        let a: UInt64 = 1 << 31
        let b = UInt64(PolyphaseFilterBank.coefficientOffset)
        let unity = UInt64(PolyphaseFilterBank.unityCoefficient)
        return a &* unity &+ UInt64(taps) &* a &* b
    }

    /// Σ c[i]·x[i] over `count` terms, exactly, in 64 bits, from the stored c[i] + B and x[i] + A and the
    /// unsigned sum `offsetSum` = Σ (c+B)(x+A) the kernel computed: Σ (c+B)(x+A) = Σ c·x + A·Σc + B·Σx + n·A·B,
    /// so Σ c·x = `offsetSum` − `constant` − B·`windowSum`, all modulo 2^64 (wrapping), which is exact because
    /// the true sum fits in Int64 (the bank's row scaling). Then rounded to 8.24 and saturated.
    @inline(__always)
    static func sample(_ offsetSum: UInt64, windowSum: Int64, constant: UInt64) -> Fixed824 {
        let correction = constant &+ UInt64(bitPattern: windowSum) &* UInt64(PolyphaseFilterBank.coefficientOffset)
        let sum = Int64(bitPattern: offsetSum &- correction)
        return Fixed824.saturating(Fixed824.roundingShift(sum, by: PolyphaseFilterBank.coefficientFractionBits))
    }

    /// Σ (c+B)·(x+A) for two sample windows against one coefficient row, as unsigned 32×32→64 products with
    /// wrapping adds (see `sample` for how that becomes the signed sum).
    ///
    /// Why unsigned: a 32×32→64 unsigned multiply is in every SIMD baseline (SSE2 `pmuludq`, NEON `umlal`),
    /// the signed one is not on x86-64 (SSE4.1 `pmuldq`), where the signed loop ran scalar. Why two windows at
    /// once: the row's loads (and on x86 its lane shuffles) serve both, about a fifth less time for stereo. The
    /// plain loop is what LLVM vectorizes on both; hand-unrolled scalar accumulators defeat the vectorizer.
    ///
    /// On x86-64 the loop is written out for SSE2: `pmuludq` multiplies the low 32 bits of each 64-bit lane,
    /// so four taps loaded as two 64-bit lanes give the even products by a mask (free: the instruction ignores
    /// the high half) and the odd ones by a shift, with none of the lane shuffles the compiler otherwise emits
    /// to widen 32-bit values. The sum is the same modulo 2^64, so the output is the same. `count` is a
    /// multiple of 4 (`PolyphaseFilterBank.tapsPerPhase`).
    @inline(__always)
    static func dotProducts(_ coefficients: UnsafePointer<UInt32>, _ first: UnsafePointer<UInt32>,
                            _ second: UnsafePointer<UInt32>, count: Int) -> (UInt64, UInt64) {
        #if arch(x86_64)
        let low = SIMD2<UInt64>(repeating: 0xFFFF_FFFF)
        var evenA = SIMD2<UInt64>(), oddA = SIMD2<UInt64>(), evenB = SIMD2<UInt64>(), oddB = SIMD2<UInt64>()
        var i = 0
        while i < count {
            let c = UnsafeRawPointer(coefficients + i).loadUnaligned(as: SIMD2<UInt64>.self)
            let x = UnsafeRawPointer(first + i).loadUnaligned(as: SIMD2<UInt64>.self)
            let y = UnsafeRawPointer(second + i).loadUnaligned(as: SIMD2<UInt64>.self)
            let cEven = c & low, cOdd = c &>> 32
            evenA &+= cEven &* (x & low)
            oddA &+= cOdd &* (x &>> 32)
            evenB &+= cEven &* (y & low)
            oddB &+= cOdd &* (y &>> 32)
            i &+= 4
        }
        return ((evenA &+ oddA).wrappedSum(), (evenB &+ oddB).wrappedSum())
        #else
        var a: UInt64 = 0
        var b: UInt64 = 0
        for i in 0..<count {
            let c = UInt64(coefficients[i])
            a &+= c &* UInt64(first[i])
            b &+= c &* UInt64(second[i])
        }
        return (a, b)
        #endif
    }

    /// As `dotProducts`, for the last channel of an odd count (mono, most often).
    @inline(__always)
    static func dotProduct(_ coefficients: UnsafePointer<UInt32>, _ samples: UnsafePointer<UInt32>, count: Int) -> UInt64 {
        var sum: UInt64 = 0
        for i in 0..<count {
            sum &+= UInt64(coefficients[i]) &* UInt64(samples[i])
        }
        return sum
    }
}
