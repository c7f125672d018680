import ArgumentParser
import Codec8_24
import Queue

/// `appliance render IN OUT ...`: the player's 8.24 chain run offline, as fast as the machine goes.
struct RenderCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "render",
        abstract: "Render a file through the 8.24 chain: decode, EQ, gain, limiter, sample-rate conversion, dither, encode.")

    @Argument(help: "The input file.") var input: String
    @Argument(help: "The output file (written under a temporary name, renamed when complete).") var output: String
    @Option(help: "An EQ preset (see 'appliance eq list').") var eq: String?
    @Option(parsing: .unconditional, help: "Gain in dB after the EQ (negative to cut).") var gain: Double = 0
    @Option(help: "Output sample rate in Hz.") var rate: Int?
    @Flag(help: "Soft-limit peaks below full scale.") var limit = false
    @Option(name: .customLong("data-format"),
            help: "Output data format: u8 ... f64, ulaw, alaw, ima4, ima-adpcm, flac, opus, alac (default: the input's, or by the extension: .flac, .oga, .ogg/.opus, .m4a).")
    var dataFormat: String?
    @Option(name: .customLong("bit-rate"), help: "Opus bit rate in bits per second, 6000 ... 510000 (default: libopusenc's).")
    var bitRate: Int?
    @Option(name: .customLong("compression-level"), help: "FLAC compression level 0 ... 8 (default: libFLAC's 5).")
    var compressionLevel: Int?

    func run() throws {
        var preset: EQPreset? = nil
        if let eq {
            guard let found = EQPreset.named(eq) else { throw EQCommandError.unknownPreset(eq) }
            preset = found
        }
        guard gain.isFinite, (-96...48).contains(gain) else { throw AudioToolError("--gain must be -96 ... 48 dB, not \(gain)") }
        try AudioTool.render(input: input, output: output, fileFormat: nil, dataFormat: dataFormat, rate: rate, channels: nil,
                             settings: RenderSettings(preset: preset, gainDB: gain, limit: limit, dither: true),
                             encoder: EncoderSettings(bitRate: bitRate, compressionLevel: compressionLevel))
    }
}
