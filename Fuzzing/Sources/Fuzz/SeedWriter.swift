import Codec8_24
import Queue

/// Seeds made by the firmware's own writers (`FUZZ_TARGET=seeds FUZZ_SEEDS=DIR`): a short tone in every
/// container and sample format the recorder and `appliance convert` write, into DIR/<target>/, so the readers
/// start from files that parse. Fuzzing/fuzz.sh adds the ones sox, ffmpeg, flac, lame and opusenc make.
enum SeedWriter {
    static func write(to root: String) {
        let formats: [(String, StreamFormat)] = [
            ("s16", .linearPCM(sampleRate: 48000, channels: 2, bits: 16)),
            ("s24", .linearPCM(sampleRate: 44100, channels: 1, bits: 24)),
            ("f32", .linearPCM(sampleRate: 48000, channels: 2, bits: 32, isFloat: true)),
            ("ulaw", .muLaw(sampleRate: 8000, channels: 1)),
            ("alaw", .aLaw(sampleRate: 8000, channels: 1)),
            ("ima4", .appleIMA4(sampleRate: 44100, channels: 2)),
            ("msima", .microsoftIMAADPCM(sampleRate: 22050, channels: 1)),
        ]
        let containers: [(String, AudioFileType, String)] = [
            ("wav", .wave, "wav"), ("rf64", .rf64, "rf64"), ("aiff", .aiff, "aiff"), ("aiff", .aifc, "aifc"), ("caf", .caf, "caf"),
        ]
        for (target, type, fileExtension) in containers {
            for (name, format) in formats {
                let path = "\(root)/\(target)/writer-\(name).\(fileExtension)"
                // Not every container takes every format (AudioFile refuses those): those seeds are skipped.
                writeTone(path: path, type: type, format: format)
            }
        }
        writeTone(path: "\(root)/flac/writer-s16.flac", type: .flac,
                  format: .compressed(.flac, sampleRate: 48000, channels: 2, bitsPerChannel: 16))
        writeTone(path: "\(root)/opus/writer.opus", type: .ogg, format: .compressed(.opus, sampleRate: 48000, channels: 2))
    }

    /// `frames` (1000 by default) of a 480 Hz square wave at 48 kHz: enough for a few packets of every format,
    /// small for the fuzzer.
    static func writeTone(path: String, type: AudioFileType, format: StreamFormat, frames: Int = 1000) {
        guard let file = try? AudioFile.create(path: path, type: type, format: format) else { return }
        let channels = format.channelsPerFrame
        var samples = [Fixed824](repeating: .zero, count: frames * channels)
        for frame in 0..<frames {
            let value = Fixed824((frame / 50) % 2 == 0 ? 0.25 : -0.25)
            for channel in 0..<channels { samples[frame * channels + channel] = value }
        }
        do {
            try samples.withUnsafeBufferPointer { try file.writeFrames($0) }
            try file.close()
        } catch {
            file.discard()
        }
    }
}
