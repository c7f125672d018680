import ArgumentParser
import Codec8_24
import Queue

/// `appliance sounds [DIR]`: the built-in system sounds, listed, or synthesized into WAV files to listen to
/// (the firmware makes them at load time; nothing recorded ships with it).
struct SoundsCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "sounds",
        abstract: "List the built-in system sounds, or write them as WAV files to listen to.")

    @Option(help: "The sample rate to synthesize at, in Hz.")
    var rate = 48_000

    @Argument(help: "A directory to write <name>.wav into (24-bit mono). Without it, the sounds are listed.")
    var directory: String?

    func validate() throws {
        guard StandardSampleRate(hertz: rate) != nil else {
            let rates = StandardSampleRate.allCases.map { String($0.hertz) }.joined(separator: ", ")
            throw ValidationError("--rate \(rate) is not one of \(rates)")
        }
    }

    func run() throws {
        for sound in BuiltInSound.allCases {
            let clip = SoundClip(sound, sampleRate: rate)
            guard let directory else {
                let milliseconds = sound.design.length.nanoseconds / 1_000_000
                print(sound.name.rightPadded(to: 14) + "\(milliseconds) ms, \(clip.frames) frames at \(rate) Hz")
                continue
            }
            let path = directory + "/" + sound.name + ".wav"
            let file = try AudioFile.create(path: path, type: .wave,
                                            format: .linearPCM(sampleRate: Double(rate), channels: 1, bits: 24))
            try file.writeFrames(clip.samples)
            try file.close()
            print(path)
        }
    }
}
