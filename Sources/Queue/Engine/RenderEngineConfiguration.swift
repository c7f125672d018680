import Codec8_24
import HAL

extension RenderEngine {
    /// How the engine is built: its mixer inputs, its chain, its threads.
    public struct Configuration: Sendable {
        /// Stereo and mono mixer inputs (each attached source takes one of its width).
        public var stereoInputs: Int
        public var monoInputs: Int
        /// Capture sinks that can be attached at once.
        public var captureSlots: Int
        /// The chain's stages: 8.24 biquad EQ (off when the codec's hardware EQ does the work), limiter, and
        /// TPDF dither when the device format is 16 or 24 bits (manual mode names its depth itself).
        public var softwareEQ: Bool
        public var limiter: Bool
        public var dither: Bool
        /// The EQ preset to start with (nil: flat).
        public var preset: EQPreset?
        /// The dither sequence's seed (channel c continues from it): the same seed, the same output bytes.
        public var ditherSeed: UInt64
        /// SCHED_FIFO priority for the render threads; nil runs them with the default policy.
        public var realtimePriority: Int32?
        public var stackBytes: Int
        /// Lock memory (`mlockall`) when the engine starts.
        public var locksMemory: Bool
        /// Fades: a source attached or detached, the output after an underrun, at start and at stop.
        public var fadeMilliseconds: Double

        public init(stereoInputs: Int = 8, monoInputs: Int = 4, captureSlots: Int = 4, softwareEQ: Bool = true,
                    limiter: Bool = true, dither: Bool = true, preset: EQPreset? = nil, ditherSeed: UInt64 = 0x5EED,
                    realtimePriority: Int32? = 70, stackBytes: Int = RealtimeThread.defaultStackBytes,
                    locksMemory: Bool = true, fadeMilliseconds: Double = 5) {
            self.stereoInputs = stereoInputs
            self.monoInputs = monoInputs
            self.captureSlots = captureSlots
            self.softwareEQ = softwareEQ
            self.limiter = limiter
            self.dither = dither
            self.preset = preset
        self.ditherSeed = ditherSeed
            self.realtimePriority = realtimePriority
            self.stackBytes = stackBytes
            self.locksMemory = locksMemory
            self.fadeMilliseconds = fadeMilliseconds
        }

        /// The mixer's input widths, slot by slot.
        var inputChannels: [Int] {
            Array(repeating: 2, count: stereoInputs) + Array(repeating: 1, count: monoInputs)
        }

        /// Dither depth for a device (or manual) format.
        func ditherDepth(for format: PCMSampleFormat?) -> Ditherer.Depth? {
            guard dither else { return nil }
            switch format {
            case .s16LE: return .bits16
            case .s24LE: return .bits24
            default: return nil
            }
        }
    }
}
