extension OutputChain {
    /// What an output chain is built for; fixed for the chain's life (a new device format means a new chain,
    /// made on the control side).
    public struct Configuration: Sendable, Equatable {
        /// The device (and mix) sample rate in Hz: it sets the EQ's design and the ramp lengths.
        public var sampleRate: Double
        /// The most frames one internal pass handles: the size of every preallocated buffer. A render of more
        /// frames is done in passes of at most this many.
        public var maximumFrames: Int
        /// One element per mixer input, each 1 (mono) or 2 (stereo).
        public var inputChannels: [Int]
        /// Device channels, 1 ... 8: the stereo mix is averaged to 1, or fills channels 0 and 1 of more, the
        /// others silent.
        public var outputChannels: Int
        /// Whether the chain runs the 8.24 EQ; false when the codec's hardware EQ does it (then the chain has
        /// none and `setPreset` only records the preset).
        public var softwareEQ: Bool
        /// Whether the soft limiter (knee −1 dBFS, output below 0 dBFS) guards the device conversion.
        public var limiter: Bool
        /// TPDF dither to this depth before narrowing; nil for none (24/32-bit or float devices, or callers
        /// that encode themselves).
        public var dither: Ditherer.Depth?
        /// The dither's noise shaping (flat by default, as `appliance render` has always used).
        public var ditherShaping: Ditherer.NoiseShaping
        /// The dither sequence's seed: the same seed gives the same output bytes.
        public var ditherSeed: UInt64
        /// The EQ preset playing from the first frame, without a crossfade (later changes: `setPreset`).
        public var preset: EQPreset
        /// Frames a change of fine gain, render gain or a mixer volume takes (0: at once).
        public var gainRampFrames: Int

        /// A chain for `inputChannels` mixed to `outputChannels` at `sampleRate`. Defaults: software EQ (flat),
        /// limiter on, no dither, gain changes ramped over 5 ms.
        public init(
            sampleRate: Double = 48_000, maximumFrames: Int = 1024, inputChannels: [Int] = [2],
            outputChannels: Int = 2, softwareEQ: Bool = true, limiter: Bool = true,
            dither: Ditherer.Depth? = nil, ditherShaping: Ditherer.NoiseShaping = .off,
            ditherSeed: UInt64 = 0x5EED, preset: EQPreset = .flat, gainRampFrames: Int? = nil
        ) {
            self.sampleRate = sampleRate
            self.maximumFrames = maximumFrames
            self.inputChannels = inputChannels
            self.outputChannels = outputChannels
            self.softwareEQ = softwareEQ
            self.limiter = limiter
            self.dither = dither
            self.ditherShaping = ditherShaping
            self.ditherSeed = ditherSeed
            self.preset = preset
            self.gainRampFrames = gainRampFrames
                ?? (sampleRate.isFinite && sampleRate > 0 ? GainRamp.frames(milliseconds: 5, sampleRate: sampleRate) : 0)
        }

        /// Checks every field against what the chain's stages accept; `OutputChain.init` requires a
        /// configuration that passes, so call this first with anything a user or a file supplied.
        public func validate() throws(OutputChainError) {
            guard sampleRate.isFinite, sampleRate > 0 else { throw .invalidSampleRate(sampleRate) }
            guard maximumFrames >= 1 else { throw .invalidMaximumFrames(maximumFrames) }
            guard (1...Mixer.maximumInputs).contains(inputChannels.count) else {
                throw .invalidInputCount(inputChannels.count)
            }
            for (input, channels) in inputChannels.enumerated() where channels != 1 && channels != 2 {
                throw .invalidInputChannels(input: input, channels: channels)
            }
            guard (1...SampleConversion.maxChannels).contains(outputChannels) else {
                throw .invalidOutputChannels(outputChannels)
            }
            guard gainRampFrames >= 0 else { throw .invalidRampFrames(gainRampFrames) }
        }
    }
}
