import Codec8_24
import Dispatch

/// Renders one audio file into another through the render engine the player uses, in manual rendering mode
/// (`RenderEngine`, whose `OutputChain` does the DSP):
/// decode -> 8.24 -> channel map -> [chain: EQ -> gain -> limiter -> dither] -> encode, or, when the rate
/// changes, [chain: EQ -> gain -> limiter] -> sample-rate conversion -> dither -> encode.
///
/// Where the order differs from the chain's, today's behaviour is kept (so renders stay bit-identical):
/// - Channels are mapped before the chain, from the file's channels to the output's (the chain's own map
///   folds a stereo mix; a file may have up to 8 channels of its own). Each pair of output channels runs
///   through its own chain, the last one mono for an odd count; a channel's EQ, gain, limiter and dither
///   do not depend on the others, and each chain's dither seed continues the channel numbering, so the
///   result is the one multichannel chain's.
/// - Sample-rate conversion runs after the limiter and before the dither, so the dither lands on the
///   output's grid at the output's rate.
///
/// The work is spread over two threads in a pipeline: one reads, decodes, maps and runs the chains; the
/// calling thread converts the rate, dithers when converting, encodes and writes. The output does not depend
/// on the split (`pipelined = false` runs everything on the calling thread).
///
/// Every buffer and DSP state is made in `init`; `run` only moves blocks through them, without allocating.
/// Deterministic: the same input and settings give the same output bytes.
public final class FileRenderer {
    public let input: AudioFile
    public let output: AudioFile
    public let settings: RenderSettings
    /// Frames per block read from the input.
    public static let blockFrames = 16384

    let inChannels: Int
    let outChannels: Int
    let inputBlock: UnsafeMutablePointer<Fixed824>
    /// One engine in manual rendering mode per pair of output channels (the last one mono for an odd count),
    /// each with one source: the mapped block.
    let engines: [RenderEngine]
    let sources: [FileBlockSource]
    /// Each engine's source buffer, where the channel map writes.
    let staging: [UnsafeMutablePointer<Fixed824>]
    /// A chain's own output when there is more than one chain (`2 × blockFrames`).
    let chainBlock: UnsafeMutablePointer<Fixed824>
    /// The chains' output for the one-thread render (`outChannels × blockFrames`).
    let rendered: UnsafeMutablePointer<Fixed824>
    let converted: UnsafeMutablePointer<Fixed824>
    let convertedCapacity: Int
    /// Whether a render runs pipelined over two threads (the default) or all on the calling thread.
    public var pipelined = true
    let converter: SampleRateConverter?
    /// The dither after the rate converter (without one, the chains dither).
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
        let depth = Self.ditherDepth(settings: settings, format: output.dataFormat)
        ditherer = converter == nil ? nil : depth.map { Ditherer(depth: $0, channelCount: outChannels) }
        var engines: [RenderEngine] = []
        var sources: [FileBlockSource] = []
        for first in stride(from: 0, to: outChannels, by: 2) {
            let channels = min(2, outChannels - first)
            let configuration = RenderEngine.Configuration(
                stereoInputs: channels == 2 ? 1 : 0, monoInputs: channels == 1 ? 1 : 0, captureSlots: 0,
                softwareEQ: settings.preset != nil, limiter: settings.limit, preset: settings.preset,
                // Ditherer seeds channel c with seed + c·(2^32 + 1): continue that numbering per engine.
                ditherSeed: Self.ditherSeed &+ UInt64(first) &* 0x1_0000_0001,
                realtimePriority: nil, locksMemory: false)
            let engine: RenderEngine
            do throws(RenderEngineError) {
                engine = try RenderEngine(manualRate: inRate, channels: channels, maximumFrames: Self.blockFrames,
                                          dither: converter == nil ? depth : nil, configuration: configuration)
            } catch {
                throw AudioFileError(.unsupported, "cannot render \(input.sampleRate) Hz: \(error.description)")
            }
            engine.chain.setRenderGain(decibels: settings.gainDB)
            let source = FileBlockSource(channels: channels, maximumFrames: Self.blockFrames)
            try engine.attach(source)
            engines.append(engine)
            sources.append(source)
        }
        self.engines = engines
        self.sources = sources
        staging = sources.map(\.frames)
        chainBlock = .allocate(capacity: engines.count > 1 ? 2 * Self.blockFrames : 0)
        exact = ExactConversion(input: input, output: output, settings: settings)
        let block = Self.blockFrames
        inputBlock = .allocate(capacity: block * inChannels)
        rendered = .allocate(capacity: block * outChannels)
        convertedCapacity = converter?.maximumOutputFrames(forInputFrames: block) ?? block
        converted = .allocate(capacity: convertedCapacity * outChannels)
    }

    deinit {
        inputBlock.deallocate()
        chainBlock.deallocate()
        rendered.deallocate()
        converted.deallocate()
    }

    /// The seed `Ditherer` starts channel 0 with by default, which renders have always used.
    static let ditherSeed: UInt64 = 0x5EED

    /// TPDF dither for 16- and 24-bit integer output; 16 bits for G.711 and IMA, which code from 16 bits.
    static func ditherDepth(settings: RenderSettings, format: StreamFormat) -> Ditherer.Depth? {
        guard settings.dither else { return nil }
        switch format.formatID {
        case .flac, .appleLossless: return format.bitsPerChannel == 16 ? .bits16 : (format.bitsPerChannel == 24 ? .bits24 : nil)
        case .mpegLayer3, .opus, .mpeg4AAC: return nil   // a lossy encoder takes the 8.24 frames as they are
        default: break
        }
        if !format.isLinearPCM { return .bits16 }
        guard !format.isFloat else { return nil }
        switch format.bitsPerChannel {
        case 16: return .bits16
        case 24: return .bits24
        default: return nil
        }
    }

    /// Renders the whole input; `progress` is called after each block with the input frames done so far.
    /// Returns the output frames written.
    @discardableResult
    public func run(progress: (Int64) -> Void = { _ in }) throws -> Int64 {
        if let exact { return try exact.run(progress: progress) }
        var written: Int64 = 0
        if pipelined {
            written = try runPipelined(progress: progress)
        } else {
            var done: Int64 = 0
            while let frames = try renderBlock(into: rendered) {
                written += try finish(UnsafeMutableBufferPointer(start: rendered, count: frames * outChannels))
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

    /// Reads the next block, maps its channels into the chains' inputs and renders the chains into
    /// `destination` (`outChannels` interleaved); nil at the end.
    func renderBlock(into destination: UnsafeMutablePointer<Fixed824>) throws -> Int? {
        let frames = try input.readFrames(into: UnsafeMutableBufferPointer(start: inputBlock, count: Self.blockFrames * inChannels))
        guard frames > 0 else { return nil }
        mapChannels(frames: frames)
        if engines.count == 1 {
            try engines[0].renderManually(frames: frames, into: destination)
            return frames
        }
        for (index, engine) in engines.enumerated() {
            let first = 2 * index
            let channels = min(2, outChannels - first)
            try engine.renderManually(frames: frames, into: chainBlock)
            for f in 0..<frames {
                for c in 0..<channels { destination[f * outChannels + first + c] = chainBlock[f * channels + c] }
            }
        }
        return frames
    }

    /// Everything after the chains for one block of 8.24 frames: sample-rate conversion, dither, encode and
    /// write. Returns the output frames written.
    func finish(_ samples: UnsafeMutableBufferPointer<Fixed824>) throws -> Int64 {
        let frames = samples.count / outChannels
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

    /// The pipelined render: a reader thread decodes, maps and runs the chains into a ring of blocks; this
    /// thread takes them in order and runs `finish`, a few blocks behind.
    func runPipelined(progress: (Int64) -> Void) throws -> Int64 {
        let ring = BlockRing<Fixed824>(slots: 4, samplesPerSlot: Self.blockFrames * outChannels)
        let reader = UncheckedSendable(self)
        let workers = DispatchGroup()
        // Touches only the renderer's input side and the chains.
        DispatchQueue.global().async(group: workers) {
            let renderer = reader.value
            while let slot = ring.claimEmpty() {
                do {
                    let frames = try renderer.renderBlock(into: ring.samples(slot)) ?? 0
                    ring.publish(slot, frames: frames)
                    if frames == 0 { return }
                } catch {
                    ring.publish(slot, error: error)
                    return
                }
            }
        }
        defer {
            ring.cancel()    // a failure here stops the reader at its next block
            workers.wait()
        }
        var written: Int64 = 0
        var done: Int64 = 0
        while true {
            let (slot, frames) = try ring.takeFilled()
            if frames == 0 { break }
            written += try finish(UnsafeMutableBufferPointer(start: ring.samples(slot), count: frames * outChannels))
            ring.release(slot)
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

    /// The input block's channels onto the output's, written straight into the chains' inputs: equal counts
    /// pass through, stereo folds to mono (`ChannelMap.mono`), mono is copied to every channel, otherwise
    /// channels are dropped or silent ones added.
    func mapChannels(frames: Int) {
        let ins = inChannels, outs = outChannels
        if ins == outs && outs <= 2 {
            staging[0].update(from: inputBlock, count: frames * ins)
        } else if ins == 2 && outs == 1 {
            ChannelMap.foldToMono(inputBlock, into: staging[0], frames: frames)
        } else {
            for c in 0..<outs {
                let target = staging[c / 2], stride = min(2, outs - (c / 2) * 2), lane = c % 2
                if ins == 1 {
                    for f in 0..<frames { target[f * stride + lane] = inputBlock[f] }
                } else {
                    for f in 0..<frames { target[f * stride + lane] = c < ins ? inputBlock[f * ins + c] : .zero }
                }
            }
        }
    }
}
