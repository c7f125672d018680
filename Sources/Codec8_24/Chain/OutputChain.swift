/// The one output chain, shared by the real-time engine and offline rendering:
///
///     mixer (N mono/stereo inputs -> stereo) -> EQ (8.24 biquads, or none: the codec's hardware EQ)
///       -> gain (the codec volume's fine remainder, then the offline render gain) -> limiter
///       -> channel map (stereo -> 1 ... 8) -> dither -> device format (or 8.24 for callers that encode)
///
/// Everything is allocated in `init`. `render` and `take(fineGain:)` run on the render side: no allocation,
/// no lock, no class instance made, no last release. `setPreset` runs on the control side: it designs the
/// new EQ there and hands it over lock-free (`PresetHandover`), the render side starts it with the
/// Equalizer's 10 ms crossfade at its next render, and hands the old one back to be freed at the next
/// control-side call. The mixer's setters are plain calls for the render side (see `Mixer`).
///
/// Exactness (each stage keeps its own contract): with a flat EQ, unity gains and no limiter or dither the
/// chain returns one stereo input bit for bit; a settled fine gain g turns s into round(s·g); a preset is
/// the Equalizer's output exactly; the limiter's output stays below full scale; with dither every sample is
/// on the target grid, so narrowing is exact.
public final class OutputChain {
    public let configuration: Configuration
    /// Stage inputs in `mixer.inputBuffer(i)`, set input volumes and enables (render side).
    public let mixer: Mixer
    /// The preset last asked for (control side; with `softwareEQ == false` the codec plays it).
    public private(set) var preset: EQPreset

    /// The software EQ, or nil when the codec's hardware EQ does it.
    let equalizer: Equalizer?
    let handover = PresetHandover()
    /// The codec volume's 8.24 remainder (never a boost).
    var fineGain: FineGainStage
    /// The offline render gain (may boost), at the same position, after the fine gain.
    var renderGain: GainRamp
    let limiter: SoftLimiter?
    var ditherer: Ditherer?
    @usableFromInline let outputChannels: Int
    @usableFromInline let maximumFrames: Int
    /// The stereo mix (`2 × maximumFrames`), when the device is not stereo.
    let stereo: UnsafeMutablePointer<Fixed824>
    /// One pass of device frames in 8.24 (`outputChannels × maximumFrames`), before narrowing.
    @usableFromInline let device: UnsafeMutablePointer<Fixed824>
    /// Frames rendered since init.
    public private(set) var framesRendered: Int64 = 0

    /// Builds every stage. `configuration` must pass `Configuration.validate()` (check it first with
    /// anything a user supplied): an invalid one is a programming error and stops here.
    public init(_ configuration: Configuration) {
        do throws(OutputChainError) {
            try configuration.validate()
        } catch {
            preconditionFailure(error.description)
        }
        self.configuration = configuration
        outputChannels = configuration.outputChannels
        maximumFrames = configuration.maximumFrames
        preset = configuration.preset
        mixer = Mixer(
            inputChannels: configuration.inputChannels, maximumFrames: configuration.maximumFrames,
            rampFrames: configuration.gainRampFrames)
        equalizer = configuration.softwareEQ
            ? Equalizer(channels: 2, sampleRate: configuration.sampleRate, preset: configuration.preset) : nil
        fineGain = FineGainStage(rampFrames: configuration.gainRampFrames)
        renderGain = GainRamp(gain: .one)
        limiter = configuration.limiter ? SoftLimiter() : nil
        ditherer = configuration.dither.map { depth in
            // Channels 2 ... 8 are dithered as the stereo pair before the map, so added channels stay silent.
            Ditherer(
                depth: depth, shaping: configuration.ditherShaping,
                channelCount: configuration.outputChannels == 1 ? 1 : 2, seed: configuration.ditherSeed)
        }
        stereo = .allocate(capacity: 2 * configuration.maximumFrames)
        stereo.initialize(repeating: .zero, count: 2 * configuration.maximumFrames)
        let deviceSamples = configuration.outputChannels * configuration.maximumFrames
        device = .allocate(capacity: deviceSamples)
        device.initialize(repeating: .zero, count: deviceSamples)
    }

    deinit {
        stereo.deallocate()
        device.deallocate()
    }

    // MARK: - Control side

    /// Switches the EQ to `preset`: designed here, started with a crossfade at the next render (after a
    /// crossfade still running). With `softwareEQ == false` this only records the preset for the codec.
    public func setPreset(_ preset: EQPreset) {
        self.preset = preset
        guard let equalizer else { return }
        handover.offer(equalizer.prepare(preset.curve))
    }

    /// Frees the EQ cascades the render side has finished with (`setPreset` does this too): call it now and
    /// then from the control side after preset changes, or leave one cascade waiting until the next change.
    public func releaseRetiredPresets() {
        handover.collect()
    }

    /// Offline: a fixed gain after the EQ that may boost (`appliance render --gain`). Before the first render
    /// it holds from the first frame; later it ramps over `gainRampFrames`. The multiplier is 8.24, so a
    /// boost saturates at the format's +42.1 dB, as `appliance render` always has; non-finite values are 0 dB.
    public func setRenderGain(decibels: Double) {
        let gain = decibels.isFinite ? Decibels.gain(decibels) : .one
        renderGain.ramp(to: gain, frames: framesRendered == 0 ? 0 : configuration.gainRampFrames)
    }

    /// The render gain in force or being ramped to.
    public var renderGainTarget: Fixed824 { renderGain.target }

    // MARK: - Render side

    /// Takes the fine gain a codec's volume split left for the 8.24 stage (a plain number read on the render
    /// side): at most 1.0 (above is held at 1.0), 0 mutes; reached over `gainRampFrames`.
    public func take(fineGain: Fixed824) {
        self.fineGain.take(fineGain: fineGain)
    }

    /// The fine gain in force or being ramped to.
    public var fineGainTarget: Fixed824 { fineGain.fineGain }

    /// Renders `frames` frames (at most `maximumFrames`, as the mixer's staged inputs hold) into `output`:
    /// `frames × outputChannels` interleaved 8.24 samples, on the dither grid when dithering.
    public func render(frames: Int, into output: UnsafeMutablePointer<Fixed824>) {
        precondition(frames >= 0 && frames <= maximumFrames, "output chain: render at most maximumFrames frames")
        startHandedOverPreset()
        renderPass(frames: frames, into: output)
    }

    /// Renders `frames` frames as `render(frames:into:)` does, then narrows them into the device format
    /// through `SampleConversion` (rounded to nearest, saturated; exact after dither).
    @inlinable
    public func render<S: LinearPCMSample>(frames: Int, into output: UnsafeMutablePointer<S>) {
        precondition(frames >= 0 && frames <= maximumFrames, "output chain: render at most maximumFrames frames")
        startHandedOverPreset()
        renderPass(frames: frames, into: device)
        let count = frames &* outputChannels
        SampleConversion.narrow(
            UnsafeBufferPointer(start: device, count: count), into: UnsafeMutableBufferPointer(start: output, count: count))
    }

    /// Hands a retired EQ cascade back to the control side and starts a newly offered one.
    @usableFromInline
    func startHandedOverPreset() {
        guard let equalizer else { return }
        if let retired = equalizer.oldestRetired, handover.giveBack(retired) {
            equalizer.dropOldestRetired()
        }
        if equalizer.canAdopt, let next = handover.take() {
            equalizer.adopt(next)
        }
    }

    /// One pass of at most `maximumFrames` frames into `destination` (`frames × outputChannels` samples).
    @usableFromInline
    func renderPass(frames: Int, into destination: UnsafeMutablePointer<Fixed824>) {
        let mix = outputChannels == 2 ? destination : stereo
        let samples = UnsafeMutableBufferPointer(start: mix, count: 2 &* frames)
        mixer.render(frames: frames, into: samples)
        equalizer?.process(mix, frames: frames)
        fineGain.process(samples, channels: 2)
        renderGain.apply(to: samples, channels: 2)
        limiter?.process(samples)
        switch outputChannels {
        case 1:
            ChannelMap.foldToMono(mix, into: destination, frames: frames)
            ditherer?.process(UnsafeMutableBufferPointer(start: destination, count: frames))
        case 2:
            ditherer?.process(samples)
        default:
            ditherer?.process(samples)
            ChannelMap.spread(mix, into: destination, channels: outputChannels, frames: frames)
        }
        framesRendered &+= Int64(frames)
    }
}
