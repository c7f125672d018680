import ArgumentParser
import Queue

/// `appliance convert IN OUT ...`: another container, data format, rate or channel count, like afconvert;
/// reads every format AudioFile opens and writes FLAC, Ogg FLAC, Opus and Apple Lossless besides PCM.
struct ConvertCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "convert", abstract: "Convert an audio file to another file format, data format, sample rate or channel count.")

    @Argument(help: "The input file.") var input: String
    @Argument(help: "The output file (written under a temporary name, renamed when complete).") var output: String
    @Option(name: .customLong("file-format"),
            help: "wav, rf64, aiff, aifc, caf, flac, ogg, m4a (default: from the output's extension: .flac FLAC, .oga Ogg FLAC, .ogg/.opus Opus, .m4a Apple Lossless).")
    var fileFormat: String?
    @Option(name: .customLong("data-format"),
            help: "u8, s8, s16, s24, s32, f32, f64, ulaw, alaw, ima4, ima-adpcm, flac, opus, alac (default: the input's; decoded to PCM from a compressed input; alac in .caf).")
    var dataFormat: String?
    @Option(help: "Output sample rate in Hz (8000, 11025, 16000, 22050, 32000, 44100, 48000, 88200, 96000).") var rate: Int?
    @Option(help: "Output channel count (1 ... 8).") var channels: Int?
    @Option(name: .customLong("bit-rate"), help: "Opus bit rate in bits per second, 6000 ... 510000 (default: libopusenc's).")
    var bitRate: Int?
    @Option(name: .customLong("compression-level"), help: "FLAC compression level 0 ... 8 (default: libFLAC's 5).")
    var compressionLevel: Int?

    func run() throws {
        try AudioTool.render(input: input, output: output, fileFormat: fileFormat, dataFormat: dataFormat, rate: rate,
                             channels: channels, settings: RenderSettings(),
                             encoder: EncoderSettings(bitRate: bitRate, compressionLevel: compressionLevel))
    }
}
