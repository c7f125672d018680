import Codec8_24
import HAL
import Queue

/// Shared parts of the file tools: naming data formats on the command line, choosing the output container,
/// and the progress bar.
enum AudioTool {
    static let dataFormatNames = "u8, s8, s16, s24, s32, f32, f64, ulaw, alaw, ima4, ima-adpcm, flac, opus, alac"
    static let fileFormatNames = "wav, rf64, aiff, aifc, caf, flac, ogg (Opus), oga (Ogg FLAC), m4a"

    /// The output data format named `name` (nil: the input's, in the byte order and signedness the container
    /// uses), with the byte order the container uses. Without a name, a container that cannot hold the input's
    /// data format is refused with the same reason as asking for that format by name: silently decoding or
    /// re-encoding (IMA4 to Microsoft IMA ADPCM, float to 16 bits) would not keep the audio as it was.
    static func dataFormat(_ name: String?, type: AudioFileType, like input: StreamFormat, rate: Double,
                           channels: Int, oggFLAC: Bool = false) throws -> StreamFormat {
        let bigEndian = type.family != .riff && !(type == .aifc && name == "s16")
        var format: StreamFormat
        switch name?.lowercased() {
        case nil where type.family == .library:
            format = try libraryDefault(type: type, like: input, rate: rate, channels: channels, oggFLAC: oggFLAC)
        case nil where input.formatID.isLibraryCodec:
            // Decoded: PCM as deep as the source (lossless), 16 bits for a lossy source.
            let bits = input.exactSampleBits.map { $0 <= 8 ? 8 : ($0 <= 16 ? 16 : ($0 <= 24 ? 24 : 32)) } ?? 16
            format = .linearPCM(sampleRate: rate, channels: channels, bits: bits, isBigEndian: bigEndian,
                                isSigned: bits > 8 || type.family != .riff)
        case nil:
            format = input
            format.sampleRate = rate
            if format.channelsPerFrame != channels || type.refusal(for: format) != nil {
                format = rebuild(input, type: type, rate: rate, channels: channels, bigEndian: bigEndian)
            }
            if let refusal = type.refusal(for: format) {
                let inputName = self.name(of: input)
                throw AudioToolError("cannot write \(inputName) in \(type): \(refusal) (\(inputName) is the input's data format; "
                                     + "give --data-format to decode or re-encode it)")
            }
            return format
        case "u8": format = .linearPCM(sampleRate: rate, channels: channels, bits: 8, isSigned: type.family != .riff ? true : false)
        case "s8": format = .linearPCM(sampleRate: rate, channels: channels, bits: 8, isSigned: true)
        case "s16": format = .linearPCM(sampleRate: rate, channels: channels, bits: 16, isBigEndian: bigEndian)
        case "s24": format = .linearPCM(sampleRate: rate, channels: channels, bits: 24, isBigEndian: bigEndian)
        case "s32": format = .linearPCM(sampleRate: rate, channels: channels, bits: 32, isBigEndian: bigEndian)
        case "f32": format = .linearPCM(sampleRate: rate, channels: channels, bits: 32, isFloat: true, isBigEndian: bigEndian)
        case "f64": format = .linearPCM(sampleRate: rate, channels: channels, bits: 64, isFloat: true, isBigEndian: bigEndian)
        case "ulaw", "mulaw", "u-law": format = .muLaw(sampleRate: rate, channels: channels)
        case "alaw", "a-law": format = .aLaw(sampleRate: rate, channels: channels)
        case "ima4": format = .appleIMA4(sampleRate: rate, channels: channels)
        case "ima-adpcm", "ima", "ms-ima": format = .microsoftIMAADPCM(sampleRate: rate, channels: channels)
        case "flac": format = .compressed(.flac, sampleRate: rate, channels: channels, bitsPerChannel: losslessBits(like: input))
        case "alac": format = .compressed(.appleLossless, sampleRate: rate, channels: channels, framesPerPacket: 4096,
                                          bitsPerChannel: losslessBits(like: input))
        case "opus": format = .compressed(.opus, sampleRate: rate, channels: channels)
        default: throw AudioToolError("unknown data format '\(name!)' (valid: \(dataFormatNames))")
        }
        if let refusal = type.refusal(for: format) { throw AudioToolError("cannot write \(name!) in \(type): \(refusal)") }
        return format
    }

    /// What a library container gets when no data format is named: FLAC in .flac (and .oga), Opus in .ogg
    /// and .opus, Apple Lossless in .m4a. MP3 and ADTS are read here, never written.
    static func libraryDefault(type: AudioFileType, like input: StreamFormat, rate: Double, channels: Int,
                               oggFLAC: Bool = false) throws -> StreamFormat {
        switch type {
        case .flac: return .compressed(.flac, sampleRate: rate, channels: channels, bitsPerChannel: losslessBits(like: input))
        case .ogg where oggFLAC: return .compressed(.flac, sampleRate: rate, channels: channels, bitsPerChannel: losslessBits(like: input))
        case .ogg: return .compressed(.opus, sampleRate: rate, channels: channels)
        case .m4a: return .compressed(.appleLossless, sampleRate: rate, channels: channels, framesPerPacket: 4096,
                                      bitsPerChannel: losslessBits(like: input))
        default:
            throw AudioToolError("cannot write \(type) files: they are read here, not written (write flac, ogg/opus, oga or m4a)")
        }
    }

    /// The sample width a lossless encoder keeps of `input`: its own up to 24 bits (8.24 carries 24), 24 for
    /// float and wider sources, 16 for lossy ones (their decoders' integer width).
    static func losslessBits(like input: StreamFormat) -> Int {
        switch input.formatID {
        case .mpegLayer3, .opus, .mpeg4AAC: return 16
        default: return min(24, max(16, input.exactSampleBits ?? 24))
        }
    }

    /// What a conversion does that a listener should know (lossy coding, narrowed samples), one line each.
    static func notes(from input: StreamFormat, to output: StreamFormat, settings encoder: EncoderSettings) -> [String] {
        var notes: [String] = []
        switch output.formatID {
        case .opus:
            let rate = encoder.bitRate.map { "\($0) b/s" } ?? "libopusenc's default bit rate"
            notes.append("Opus is lossy: the output approximates the input (\(rate)); decoders play it at 48000 Hz")
        case .flac, .appleLossless:
            if !input.formatID.isLibraryCodec || input.formatID == .flac || input.formatID == .appleLossless,
               let bits = input.exactSampleBits, bits > output.bitsPerChannel {
                notes.append("\(output.formatID) keeps \(output.bitsPerChannel) of the input's \(bits) bits per sample")
            } else if input.exactSampleBits == nil, input.isLinearPCM {
                notes.append("float samples are rounded to \(output.bitsPerChannel) bits for \(output.formatID)")
            }
        default: break
        }
        if [.mpegLayer3, .opus, .mpeg4AAC].contains(input.formatID), output.formatID != input.formatID {
            notes.append("the input is lossy (\(input.formatID)): the output keeps its decoded samples, not the original audio")
        }
        return notes
    }

    static func rebuild(_ input: StreamFormat, type: AudioFileType, rate: Double, channels: Int, bigEndian: Bool) -> StreamFormat {
        switch input.formatID {
        case .linearPCM:
            let signed = input.bitsPerChannel == 8 ? type.family != .riff : true
            return .linearPCM(sampleRate: rate, channels: channels, bits: input.bitsPerChannel, isFloat: input.isFloat,
                              isBigEndian: bigEndian, isSigned: signed)
        case .muLaw: return .muLaw(sampleRate: rate, channels: channels)
        case .aLaw: return .aLaw(sampleRate: rate, channels: channels)
        case .appleIMA4: return .appleIMA4(sampleRate: rate, channels: channels)
        case .microsoftIMAADPCM: return .microsoftIMAADPCM(sampleRate: rate, channels: channels)
        case .flac, .mpegLayer3, .opus, .mpeg4AAC, .appleLossless:
            return .compressed(input.formatID, sampleRate: rate, channels: channels, bitsPerChannel: input.bitsPerChannel)
        }
    }

    /// The `--data-format` name of `format` ("s16", "f32", "ima4").
    static func name(of format: StreamFormat) -> String {
        switch format.formatID {
        case .linearPCM:
            if format.isFloat { return "f\(format.bitsPerChannel)" }
            return (format.isSignedInteger ? "s" : "u") + "\(format.bitsPerChannel)"
        case .muLaw: return "ulaw"
        case .aLaw: return "alaw"
        case .appleIMA4: return "ima4"
        case .microsoftIMAADPCM: return "ima-adpcm"
        case .flac: return "flac"
        case .mpegLayer3: return "mp3"
        case .opus: return "opus"
        case .mpeg4AAC: return "aac"
        case .appleLossless: return "alac"
        }
    }

    static func fileType(_ name: String?, path: String) throws -> AudioFileType {
        if let name {
            guard let type = AudioFileType(name: name) else { throw AudioToolError("unknown file format '\(name)' (valid: \(fileFormatNames))") }
            return type
        }
        guard let type = AudioFileType(pathExtension: AudioFile.extensionOfPath(path)) else {
            throw AudioToolError("cannot tell the file format of '\(path)' from its extension; give --file-format (\(fileFormatNames))")
        }
        return type
    }

    /// Renders `input` to `output` with `settings`, showing progress on a terminal; the output appears only
    /// when complete.
    static func render(input path: String, output outPath: String, fileFormat: String?, dataFormat: String?,
                       rate: Int?, channels: Int?, settings: RenderSettings, encoder: EncoderSettings = EncoderSettings()) throws {
        let input = try AudioFile.open(path: path)
        let type = try fileType(fileFormat, path: outPath)
        let outRate = Double(rate ?? Int(input.sampleRate.rounded()))
        let outChannels = channels ?? input.channelCount
        guard (1...SampleConversion.maxChannels).contains(outChannels) else { throw AudioToolError("--channels must be 1 ... 8, not \(outChannels)") }
        let oggFLAC = type == .ogg && AudioFile.extensionOfPath(outPath).lowercased() == "oga"
        let format = try AudioTool.dataFormat(dataFormat, type: type, like: input.dataFormat, rate: outRate,
                                              channels: outChannels, oggFLAC: oggFLAC)
        try check(encoder, for: format)
        var settings = settings
        settings.outputRate = rate
        settings.outputChannels = outChannels
        var (markers, dropped) = type.storableMarkers(scaled(input.markers, by: outRate / input.sampleRate))
        if format.formatID.isLibraryCodec && type.family != .library {
            dropped += markers.map { ($0, "\(format.formatID) files keep no markers here") }
            markers = []
        }
        var options = AudioFileWriteOptions(commitInterval: 0, replaceAtomically: true, metadata: input.metadata, markers: markers)
        options.encoder = encoder
        for note in notes(from: input.dataFormat, to: format, settings: encoder) { writeToStandardError("appliance: \(note)\n") }
        let output = try AudioFile.create(path: outPath, type: type, format: format, options: options)
        do {
            let renderer = try FileRenderer(input: input, output: output, settings: settings)
            let bar = ProgressBar(total: input.frameCount)
            try renderer.run { bar.update($0) }
            bar.finish()
            try output.close()
        } catch {
            output.discard()
            throw error
        }
        for (marker, reason) in dropped { writeToStandardError("appliance: dropped \(describe(marker)): \(reason)\n") }
    }

    /// `--bit-rate` is for Opus, `--compression-level` for FLAC: given for another output, they are refused
    /// rather than ignored.
    static func check(_ encoder: EncoderSettings, for format: StreamFormat) throws {
        if let bitRate = encoder.bitRate {
            guard format.formatID == .opus else { throw AudioToolError("--bit-rate applies to Opus output, not \(format.formatID)") }
            let rates = EncoderSettings.opusBitRates
            guard rates.contains(bitRate) else {
                throw AudioToolError("--bit-rate must be \(rates.lowerBound) ... \(rates.upperBound) b/s (RFC 6716), not \(bitRate)")
            }
        }
        if let level = encoder.compressionLevel {
            guard format.formatID == .flac else { throw AudioToolError("--compression-level applies to FLAC output, not \(format.formatID)") }
            guard (0...8).contains(level) else { throw AudioToolError("--compression-level must be 0 ... 8, not \(level)") }
        }
    }

    /// Markers and regions moved to another sample rate (positions and lengths in the output's frames).
    static func scaled(_ markers: [AudioFileMarker], by ratio: Double) -> [AudioFileMarker] {
        guard ratio != 1 else { return markers }
        return markers.map { marker in
            AudioFileMarker(framePosition: Int64((Double(marker.framePosition) * ratio).rounded()), name: marker.name,
                            frameLength: marker.frameLength.map { Int64((Double($0) * ratio).rounded()) }, isLoop: marker.isLoop)
        }
    }

    /// "region 'Chorus' (frames 1000 ... 1499)", "marker 'Start' at frame 0".
    static func describe(_ marker: AudioFileMarker) -> String {
        guard let length = marker.frameLength else { return "marker '\(marker.name)' at frame \(marker.framePosition)" }
        return (marker.isLoop ? "loop" : "region") + " '\(marker.name)' (frames \(marker.framePosition) ... \(marker.framePosition + length - 1))"
    }
}

extension AudioFile {
    static func extensionOfPath(_ path: String) -> String {
        guard let dot = path.lastIndex(of: "."), !path[dot...].contains("/") else { return "" }
        return String(path[path.index(after: dot)...])
    }
}

/// A one-line progress bar on stderr, shown only when stderr is a terminal (never in pipes or logs).
final class ProgressBar {
    let total: Int64
    let enabled: Bool
    var lastPercent = -1

    init(total: Int64) {
        self.total = max(1, total)
        enabled = StandardStream.error.isTerminal
    }

    func update(_ done: Int64) {
        guard enabled else { return }
        let percent = Int(min(100, done * 100 / total))
        guard percent != lastPercent else { return }
        lastPercent = percent
        let width = 40
        let filled = percent * width / 100
        let line = "\r[" + String(repeating: "#", count: filled) + String(repeating: "-", count: width - filled) + "] \(percent)%"
        writeToStandardError(line)
    }

    func finish() {
        guard enabled else { return }
        writeToStandardError("\r" + String(repeating: " ", count: 48) + "\r")
    }
}
