import Codec8_24
import Dispatch

/// Renders one audio file into another through the same 8.24 chain the player uses:
/// decode -> 8.24 -> channel map -> EQ -> gain -> limiter -> sample-rate conversion -> dither -> encode.
///
/// With an EQ, the work is spread over two threads in a pipeline, as fast as a two-core board allows: one
/// reads, decodes and runs the EQ's first stages; the calling thread runs the rest of the EQ and everything
/// after it. The EQ's parts hand over blocks in its wide format, so the output is bit-identical to a
/// one-thread render.
///
/// Every buffer and DSP state is made in `init`; `run` only moves blocks through them, without allocating.
/// Deterministic: the same input and settings give the same output bytes.
public final class FileRenderer {
    public let input: AudioFile
    public let output: AudioFile
    public let settings: RenderSettings
    /// Frames per block read from the input.
    public static let blockFrames = 16384
    /// The share of the EQ's stages the reader thread runs (see `runSplit`): decoding costs less than
    /// gain, dither, encoding and writing, so the reader takes more than half (6 of 10 stages).
    static let firstShare = 0.6

    let inChannels: Int
    let outChannels: Int
    let inputBlock: UnsafeMutablePointer<Fixed824>
    let mapped: UnsafeMutablePointer<Fixed824>
    /// The pipelined render's EQ output on the calling thread (`mapped` belongs to the reader there).
    let equalized: UnsafeMutablePointer<Fixed824>
    let converted: UnsafeMutablePointer<Fixed824>
    let convertedCapacity: Int
    /// The EQ split in two (see the type's comment), or nil without a preset.
    let equalizer: (first: BiquadCascade, second: BiquadCascade)?
    /// Whether an EQ render runs pipelined over two threads (the default) or all on the calling thread.
    public var pipelined = true
    var gain: GainRamp
    let limiter: SoftLimiter?
    let converter: SampleRateConverter?
    var ditherer: Ditherer?
    /// Converter output frames still to drop, so the output lines up with the input (no leading delay).
    var latencyToSkip: Int
    /// Set when the render changes only the data format: then it is done exactly, without the 8.24 chain.
    let exact: ExactConversion?

    /// Checks that the input and output fit the chain (rates, channel counts) and builds it.
    public init(input: AudioFile, output: AudioFile, settings: RenderSettings) throws {
        self.input = input
        self.output = output
        self.settings = settings
        let inChannels = input.channelCount
        let outChannels = output.channelCount
        self.inChannels = inChannels
        self.outChannels = outChannels
        let maxChannels = SampleConversion.maxChannels
        guard inChannels <= maxChannels, outChannels <= maxChannels else {
            throw AudioFileError(.unsupported, "the render chain handles up to \(maxChannels) channels, not \(max(inChannels, outChannels))")
        }
        let inRate = Int(input.sampleRate.rounded())
        let outRate = Int(output.sampleRate.rounded())
        if inRate != outRate {
            guard let from = StandardSampleRate(hertz: inRate), let to = StandardSampleRate(hertz: outRate) else {
                let rates = StandardSampleRate.allCases.map { String($0.hertz) }.joined(separator: ", ")
                throw AudioFileError(.unsupported, "cannot convert \(inRate) Hz to \(outRate) Hz: both must be one of \(rates)")
            }
            converter = SampleRateConverter(from: from, to: to, channels: outChannels)
            latencyToSkip = converter!.latencyFrames
        } else {
            latencyToSkip = 0
            converter = nil
        }
        equalizer = settings.preset.map { preset in
            let cascade = preset.design(sampleRate: input.sampleRate).makeCascade(channels: outChannels)
            return cascade.split(at: Int((Double(cascade.stageCount) * Self.firstShare).rounded()))
        }
        gain = GainRamp(gain: Decibels.gain(settings.gainDB))
        limiter = settings.limit ? SoftLimiter() : nil
        let format = output.dataFormat
        if settings.dither && format.isLinearPCM && !format.isFloat && (format.bitsPerChannel == 16 || format.bitsPerChannel == 24) {
            ditherer = Ditherer(depth: format.bitsPerChannel == 16 ? .bits16 : .bits24, channelCount: outChannels)
        } else if settings.dither && !format.isLinearPCM {
            ditherer = Ditherer(depth: .bits16, channelCount: outChannels)   // G.711 and IMA code from 16 bits
        } else {
            ditherer = nil
        }
        exact = ExactConversion(input: input, output: output, settings: settings)
        let block = Self.blockFrames
        inputBlock = .allocate(capacity: block * inChannels)
        mapped = .allocate(capacity: block * outChannels)
        equalized = .allocate(capacity: equalizer == nil ? 0 : block * outChannels)
        convertedCapacity = converter?.maximumOutputFrames(forInputFrames: block) ?? block
        converted = .allocate(capacity: convertedCapacity * outChannels)
    }

    deinit {
        inputBlock.deallocate()
        mapped.deallocate()
        equalized.deallocate()
        converted.deallocate()
    }

    /// Renders the whole input; `progress` is called after each block with the input frames done so far.
    /// Returns the output frames written.
    @discardableResult
    public func run(progress: (Int64) -> Void = { _ in }) throws -> Int64 {
        if let exact { return try exact.run(progress: progress) }
        var written: Int64 = 0
        if let equalizer, pipelined {
            written = try runSplit(equalizer, progress: progress)
        } else {
            let wide = UnsafeMutablePointer<Int64>.allocate(capacity: equalizer == nil ? 0 : Self.blockFrames * outChannels)
            defer { wide.deallocate() }
            var done: Int64 = 0
            while let frames = try readBlock() {
                let count = frames * outChannels
                if let equalizer {
                    equalizer.first.widen(mapped, into: wide, count: count)
                    equalizer.first.processWide(wide, frames: frames)
                    equalizer.second.processWide(wide, frames: frames)
                    BiquadCascade.narrow(wide, into: mapped, count: count)
                }
                written += try finish(UnsafeMutableBufferPointer(start: mapped, count: count))
                done += Int64(frames)
                progress(done)
            }
        }
        if let converter {
            while true {
                let n = converter.drain(output: UnsafeMutableBufferPointer(start: converted, count: convertedCapacity * outChannels))
                if n == 0 { break }
                written += try emit(converted, frames: n)
            }
        }
        return written
    }

    /// The next block of input, channel-mapped into `mapped`; nil at the end.
    func readBlock() throws -> Int? {
        let frames = try input.readFrames(into: UnsafeMutableBufferPointer(start: inputBlock, count: Self.blockFrames * inChannels))
        guard frames > 0 else { return nil }
        mapChannels(frames: frames)
        return frames
    }

    /// Everything after the EQ for one block of 8.24 frames: gain, limiter, sample-rate conversion, dither,
    /// encode and write. Returns the output frames written.
    func finish(_ samples: UnsafeMutableBufferPointer<Fixed824>) throws -> Int64 {
        let frames = samples.count / outChannels
        gain.apply(to: samples, channels: outChannels)
        limiter?.process(samples)
        guard let converter else { return try emit(samples.baseAddress!, frames: frames) }
        var written: Int64 = 0
        var offset = 0
        while offset < frames {
            let result = converter.process(
                input: UnsafeBufferPointer(start: samples.baseAddress! + offset * outChannels, count: (frames - offset) * outChannels),
                output: UnsafeMutableBufferPointer(start: converted, count: convertedCapacity * outChannels))
            written += try emit(converted, frames: result.produced)
            offset += result.consumed
            if result.consumed == 0 && result.produced == 0 { break }
        }
        return written
    }

    /// The pipelined render: a reader thread decodes and runs the EQ's first stages; this thread runs the
    /// rest and `finish`, a few blocks behind, through one ring. Two threads for two cores: the split point
    /// (`firstShare`) balances the reader's decoding against this thread's gain, dither, encoding and writing.
    func runSplit(_ eq: (first: BiquadCascade, second: BiquadCascade), progress: (Int64) -> Void) throws -> Int64 {
        let samplesPerBlock = Self.blockFrames * outChannels
        let wideRing = BlockRing<Int64>(slots: 4, samplesPerSlot: samplesPerBlock)
        let channels = outChannels
        let reader = UncheckedSendable((renderer: self, firstHalf: eq.first))
        let workers = DispatchGroup()
        // Reads, decodes, widens and runs the first stages. Touches only the renderer's input side.
        DispatchQueue.global().async(group: workers) {
            let (renderer, firstHalf) = reader.value
            while let slot = wideRing.claimEmpty() {
                do {
                    guard let frames = try renderer.readBlock() else {
                        wideRing.publish(slot, frames: 0)
                        return
                    }
                    let wide = wideRing.samples(slot)
                    firstHalf.widen(renderer.mapped, into: wide, count: frames * channels)
                    firstHalf.processWide(wide, frames: frames)
                    wideRing.publish(slot, frames: frames)
                } catch {
                    wideRing.publish(slot, error: error)
                    return
                }
            }
        }
        defer {
            wideRing.cancel()    // a failure here stops the reader at its next block
            workers.wait()
        }
        var written: Int64 = 0
        var done: Int64 = 0
        while true {
            let (slot, frames) = try wideRing.takeFilled()
            if frames == 0 { break }
            let wide = wideRing.samples(slot)
            eq.second.processWide(wide, frames: frames)
            BiquadCascade.narrow(wide, into: equalized, count: frames * channels)
            wideRing.release(slot)
            written += try finish(UnsafeMutableBufferPointer(start: equalized, count: frames * channels))
            done += Int64(frames)
            progress(done)
        }
        return written
    }

    func emit(_ all: UnsafeMutablePointer<Fixed824>, frames total: Int) throws -> Int64 {
        let skipped = min(latencyToSkip, total)
        latencyToSkip -= skipped
        let frames = total - skipped
        guard frames > 0 else { return 0 }
        let buffer = UnsafeMutableBufferPointer(start: all + skipped * outChannels, count: frames * outChannels)
        ditherer?.process(buffer)
        try output.writeFrames(UnsafeBufferPointer(buffer))
        return Int64(frames)
    }

    func mapChannels(frames: Int) {
        let ins = inChannels, outs = outChannels
        if ins == outs {
            mapped.update(from: inputBlock, count: frames * ins)
        } else if ins == 2 && outs == 1 {
            for f in 0..<frames {
                let sum = Int64(inputBlock[2 * f].raw) + Int64(inputBlock[2 * f + 1].raw)
                mapped[f] = Fixed824(raw: Int32(truncatingIfNeeded: (sum + (sum >= 0 ? 1 : 0)) >> 1))
            }
        } else if ins == 1 {
            for f in 0..<frames { for c in 0..<outs { mapped[f * outs + c] = inputBlock[f] } }
        } else {
            for f in 0..<frames {
                for c in 0..<outs { mapped[f * outs + c] = c < ins ? inputBlock[f * ins + c] : .zero }
            }
        }
    }
}
