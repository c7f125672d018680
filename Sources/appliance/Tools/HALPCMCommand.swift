import ArgumentParser
import HAL

/// `appliance hal pcm open|play|capture|compare`: ALSA PCMs through the HAL's ALSA backend.
struct HALPCMCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "pcm", abstract: "ALSA PCMs through the HAL.",
        subcommands: [Open.self, Play.self, Capture.self, Compare.self, Underrun.self, Overrun.self, Suspend.self, Tail.self])

    /// The stream parameters every subcommand takes.
    struct Stream: ParsableArguments {
        @Option(help: "The ALSA PCM name, e.g. hw:Loopback,0,0.") var device: String
        @Option(help: "S16_LE, S24_LE, S32_LE or FLOAT_LE.") var format: String = "S16_LE"
        @Option(help: "Frames per second.") var rate: Int = 48_000
        @Option(help: "Channels.") var channels: Int = 2
        @Option(name: .customLong("period-frames")) var periodFrames: Int = 1024
        @Option(name: .customLong("periods")) var periodCount: Int = 4

        func open(_ direction: PCMDirection, format override: PCMSampleFormat? = nil, rate rateOverride: Int? = nil,
                  channels channelsOverride: Int? = nil, usesHardwarePause: Bool = true) throws -> ALSAPCM {
            guard let sampleFormat = override ?? PCMSampleFormat(alsaName: format) else {
                throw HALCommandError("unknown format '\(format)' (S16_LE, S24_LE, S32_LE, FLOAT_LE)")
            }
            let configuration = PCMConfiguration(format: sampleFormat, rate: rateOverride ?? rate,
                                                 channels: channelsOverride ?? channels,
                                                 periodFrames: periodFrames, periodCount: periodCount,
                                                 usesHardwarePause: usesHardwarePause)
            do throws(PCMError) {
                let pcm = try ALSAPCM(name: device, direction: direction, configuration: configuration)
                emit("opened \(direction) \(device): \(pcm.parameters)")
                return pcm
            } catch { throw HALCommandError(error) }
        }
    }

    /// Opens a stream and closes it again: shows what the device grants, or the typed error.
    struct Open: ParsableCommand {
        static let configuration = CommandConfiguration(abstract: "Open a PCM, print what it granted, close it.")
        @OptionGroup var stream: Stream
        @Option(help: "playback or capture.") var direction: String = "playback"
        @Option(name: .customLong("hold-ms"), help: "Keep it open this long.") var holdMilliseconds: Int = 0

        func run() throws {
            guard let direction = PCMDirection(rawValue: direction) else { throw HALCommandError("playback or capture") }
            let pcm = try stream.open(direction)
            SystemClock.shared.sleep(for: .milliseconds(holdMilliseconds))
            pcm.close()
        }
    }

    /// Plays a WAV file (its own format, rate and channels) and drains.
    struct Play: ParsableCommand {
        static let configuration = CommandConfiguration(abstract: "Play a WAV file.")
        @OptionGroup var stream: Stream
        @Argument(help: "The WAV file.") var file: String

        func run() throws {
            let wav = try PCMClip.read(file)
            let pcm = try stream.open(.playback, format: wav.format, rate: wav.rate, channels: wav.channels)
            do throws(PCMError) {
                var offset = 0
                let chunk = pcm.parameters.periodFrames * wav.frameBytes
                while offset < wav.samples.count {
                    let end = min(wav.samples.count, offset + chunk)
                    let written = wav.samples[offset..<end].withUnsafeBytes { bytes -> Result<Int, PCMError> in
                        do throws(PCMError) { return .success(try pcm.write(bytes)) } catch { return .failure(error) }
                    }
                    switch written {
                    case .success(let frames): offset += frames * wav.frameBytes
                    case .failure(let error): throw error
                    }
                }
                try pcm.drain()
                emit("played \(wav.frames) frames, xruns \(pcm.xruns.count)")
            } catch { throw HALCommandError(error) }
            pcm.close()
        }
    }

    /// Captures `frames` frames into a WAV file.
    struct Capture: ParsableCommand {
        static let configuration = CommandConfiguration(abstract: "Capture frames into a WAV file.")
        @OptionGroup var stream: Stream
        @Option(help: "Frames to capture.") var frames: Int
        @Argument(help: "The WAV file to write.") var file: String

        func run() throws {
            let pcm = try stream.open(.capture)
            let frameBytes = pcm.parameters.bytesPerFrame
            var samples = [UInt8](repeating: 0, count: frames * frameBytes)
            do throws(PCMError) {
                var done = 0
                while done < frames {
                    let step = min(pcm.parameters.periodFrames, frames - done)
                    let got = samples.withUnsafeMutableBytes { bytes -> Result<Int, PCMError> in
                        let slice = UnsafeMutableRawBufferPointer(rebasing: bytes[(done * frameBytes)..<((done + step) * frameBytes)])
                        do throws(PCMError) { return .success(try pcm.read(into: slice)) } catch { return .failure(error) }
                    }
                    switch got {
                    case .success(let frames): done += frames
                    case .failure(let error): throw error
                    }
                }
            } catch { throw HALCommandError(error) }
            pcm.close()
            try PCMClip(format: pcm.parameters.format, rate: pcm.parameters.rate, channels: pcm.parameters.channels,
                           samples: samples).write(to: file)
            emit("captured \(frames) frames, xruns \(pcm.xruns.count)")
        }
    }

    /// Finds a played signal in a capture by cross-correlation and checks it sample for sample: the loopback's
    /// start offset is arbitrary, the samples must not be.
    struct Compare: ParsableCommand {
        static let configuration = CommandConfiguration(abstract: "Align a capture to a reference by correlation; compare bit for bit.")
        @Option(help: "The signal that was played.") var reference: String
        @Option(help: "What was captured.") var capture: String

        func run() throws {
            let played = try PCMClip.read(reference)
            let got = try PCMClip.read(capture)
            guard played.format == .s16LE, got.format == .s16LE, played.channels == got.channels else {
                throw HALCommandError("compare needs two S16_LE files with the same channels")
            }
            let a = samples16(played.samples), b = samples16(got.samples)
            let channels = played.channels
            // The signal is the span between the first and last non-zero samples (the padding is silence).
            guard let first = a.firstIndex(where: { $0 != 0 }), let last = a.lastIndex(where: { $0 != 0 }) else {
                throw HALCommandError("the reference is silent")
            }
            let start = first / channels, end = last / channels + 1
            let window = min(512, end - start)
            // Normalized cross-correlation of the first `window` frames of the signal against every offset of
            // the capture (normalized by the capture's energy there, so loud passages do not win by loudness).
            var best = (offset: -1, score: -Double.infinity)
            let lastOffset = b.count / channels - window
            if lastOffset >= 0 {
                let span = window * channels, ref = start * channels
                var energy: Int64 = 0
                for i in 0..<span { energy &+= Int64(b[i]) &* Int64(b[i]) }
                for offset in 0...lastOffset {
                    let base = offset * channels
                    if offset > 0 {
                        for c in 0..<channels {
                            let gone = Int64(b[base - channels + c]), come = Int64(b[base + span - channels + c])
                            energy = energy &- gone &* gone &+ come &* come
                        }
                    }
                    guard energy > 0 else { continue }
                    var sum: Int64 = 0
                    for i in 0..<span { sum &+= Int64(a[ref + i]) &* Int64(b[base + i]) }
                    let score = Double(sum) / Double(energy).squareRoot()
                    if score > best.score { best = (offset, score) }
                }
            }
            guard best.offset >= 0 else { throw HALCommandError("the capture is shorter than the signal") }
            let length = (end - start) * channels
            let base = best.offset * channels
            guard base + length <= b.count else {
                throw HALCommandError("the signal starts at frame \(best.offset) of the capture but does not fit in it: capture more frames")
            }
            var mismatches = 0
            for i in 0..<length where a[start * channels + i] != b[base + i] { mismatches += 1 }
            emit("compare offset=\(best.offset - start) signal-frames=\(end - start) mismatches=\(mismatches)")
            guard mismatches == 0 else { throw HALCommandError("\(mismatches) samples differ after alignment") }
        }

        func samples16(_ bytes: [UInt8]) -> [Int16] {
            stride(from: 0, to: bytes.count - 1, by: 2).map { Int16(bitPattern: UInt16(bytes[$0]) | UInt16(bytes[$0 + 1]) << 8) }
        }
    }
}
