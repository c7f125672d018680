import Codec8_24

/// Renders one audio file into another through the same 8.24 chain the player uses:
/// decode -> 8.24 -> channel map -> EQ -> gain -> limiter -> sample-rate conversion -> dither -> encode.
///
/// Every buffer and DSP state is made in `init`; `run` only moves blocks through them, without allocating.
/// Deterministic: the same input and settings give the same output bytes.
public final class FileRenderer {
    public let input: AudioFile
    public let output: AudioFile
    public let settings: RenderSettings
    /// Frames per block read from the input.
    public static let blockFrames = 4096

    let inChannels: Int
    let outChannels: Int
    let inputBlock: UnsafeMutablePointer<Fixed824>
    let mapped: UnsafeMutablePointer<Fixed824>
    let converted: UnsafeMutablePointer<Fixed824>
    let convertedCapacity: Int
    let equalizer: Equalizer?
    var gain: GainRamp
    let limiter: SoftLimiter?
    let converter: SampleRateConverter?
    var ditherer: Ditherer?
    /// Converter output frames still to drop, so the output lines up with the input (no leading delay).
    var latencyToSkip: Int

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
        equalizer = settings.preset.map { Equalizer(channels: outChannels, sampleRate: input.sampleRate, preset: $0) }
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
        let block = Self.blockFrames
        inputBlock = .allocate(capacity: block * inChannels)
        mapped = .allocate(capacity: block * outChannels)
        convertedCapacity = converter?.maximumOutputFrames(forInputFrames: block) ?? block
        converted = .allocate(capacity: convertedCapacity * outChannels)
    }

    deinit {
        inputBlock.deallocate()
        mapped.deallocate()
        converted.deallocate()
    }

    /// Renders the whole input; `progress` is called after each block with the input frames done so far.
    /// Returns the output frames written.
    @discardableResult
    public func run(progress: (Int64) -> Void = { _ in }) throws -> Int64 {
        let block = Self.blockFrames
        var written: Int64 = 0
        var done: Int64 = 0
        while true {
            let frames = try input.readFrames(into: UnsafeMutableBufferPointer(start: inputBlock, count: block * inChannels))
            if frames == 0 { break }
            mapChannels(frames: frames)
            let samples = UnsafeMutableBufferPointer(start: mapped, count: frames * outChannels)
            equalizer?.process(samples)
            gain.apply(to: samples, channels: outChannels)
            limiter?.process(samples)
            if let converter {
                var offset = 0
                while offset < frames {
                    let result = converter.process(
                        input: UnsafeBufferPointer(start: mapped + offset * outChannels, count: (frames - offset) * outChannels),
                        output: UnsafeMutableBufferPointer(start: converted, count: convertedCapacity * outChannels))
                    written += try emit(converted, frames: result.produced)
                    offset += result.consumed
                    if result.consumed == 0 && result.produced == 0 { break }
                }
            } else {
                written += try emit(mapped, frames: frames)
            }
            done += Int64(frames)
            progress(done)
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
