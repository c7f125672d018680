import Codec8_24
import Foundation
import TestSupport
import Testing
@testable import Queue

/// FLAC files written here pass `flac -t` and decode in `flac -d` to exactly the samples written.
struct FLACFileWriterTests {
    /// sox's signal as 8.24 (exact for 16 and 24 bits) and as sox's 32-bit values.
    static func signal(_ directory: TemporaryDirectory, rate: Int, channels: Int, bits: Int, seconds: Double) throws -> (samples: [Fixed824], values: [Int32]) {
        let wav = directory.file("input.wav")
        try ReferenceTool.run("sox", ["-R", "-n", "-r", "\(rate)", "-c", "\(channels)", "-b", "\(bits)", wav,
                                      "synth", "\(seconds)", "sine", "440", "synth", "\(seconds)", "whitenoise", "mix", "gain", "-4"])
        let values = try soxSamples(wav)
        let samples = values.map { bits == 16 ? Fixed824(int16: Int16($0 >> 16)) : Fixed824(int24: $0 >> 8) }
        return (samples, values)
    }

    static func write(_ path: String, _ samples: [Fixed824], format: StreamFormat, options: AudioFileWriteOptions = AudioFileWriteOptions(),
                      ogg: Bool = false, chunk: Int = 3000) throws -> FLACFileWriter {
        let file = try FileDescriptor.create(path)
        let writer = try FLACFileWriter(LibraryOutput(file), format: format, options: options, ogg: ogg)
        let channels = format.channelsPerFrame
        var start = 0
        while start < samples.count {
            let end = min(samples.count, start + chunk * channels)
            try samples[start..<end].withUnsafeBufferPointer { try writer.write($0) }
            start = end
        }
        return writer
    }

    /// (rate, channels, bits, level, Ogg FLAC)
    static let cases: [(Int, Int, Int, Int, Bool)] = [(44100, 2, 16, 5, false), (48000, 1, 24, 8, false), (96000, 2, 24, 0, false),
                                                       (48000, 2, 16, 5, true)]

    @Test("encodes files flac -t accepts and flac -d decodes bit-identical", arguments: 0..<cases.count)
    func roundTrip(index: Int) throws {
        let (rate, channels, bits, level, ogg) = Self.cases[index]
        let directory = TemporaryDirectory()
        let (samples, values) = try Self.signal(directory, rate: rate, channels: channels, bits: bits, seconds: 0.6)
        let path = directory.file(ogg ? "ours.oga" : "ours.flac")
        var options = AudioFileWriteOptions()
        options.encoder.compressionLevel = level
        options.metadata = AudioFileMetadata(title: "Take 1", artist: "Recorder", date: "2024-05-01", comment: "room A")
        options.metadata.album = "Sessions"
        options.metadata.trackNumber = 2
        options.metadata.replayGain.trackGain = -3.25
        let format = StreamFormat.compressed(.flac, sampleRate: Double(rate), channels: channels, bitsPerChannel: bits)
        let writer = try Self.write(path, samples, format: format, options: options, ogg: ogg)
        #expect(writer.framesWritten == Int64(samples.count / channels))
        try writer.finish()
        try ReferenceTool.run("flac", ["-t", "-s", path])
        let decoded = directory.file("decoded.wav")
        try ReferenceTool.run("flac", ["-d", "-s", "-f", "-o", decoded, path])
        let theirs = try soxSamples(decoded)
        #expect(theirs.count == values.count)
        #expect(ReferenceTool.firstDifference(theirs, values) == nil)
        // Our own reader agrees too, tags included.
        let reader = try openFLAC(path, ogg: ogg)
        #expect(reader.info.frameCount == Int64(values.count / channels))
        #expect(reader.info.metadata.title == "Take 1")
        #expect(reader.info.metadata.album == "Sessions")
        #expect(reader.info.metadata.trackNumber == 2)
        #expect(reader.info.metadata.replayGain.trackGain == -3.25)
        if !ogg {
            let tags = String(decoding: try ReferenceTool.run("metaflac", ["--export-tags-to=-", path]), as: UTF8.self)
            for tag in ["TITLE=Take 1", "ARTIST=Recorder", "DATE=2024-05-01", "COMMENT=room A", "ALBUM=Sessions", "TRACKNUMBER=2",
                        "REPLAYGAIN_TRACK_GAIN=-3.25 dB"] {
                #expect(tags.contains(tag), "\(tag) in \(tags)")
            }
            // flac(1): -0 encodes blocks of 1152 samples, -3 ... -8 blocks of 4096.
            let blockSize = String(decoding: try ReferenceTool.run("metaflac", ["--show-max-blocksize", path]), as: UTF8.self)
            #expect(Int(blockSize.trimmingCharacters(in: .whitespacesAndNewlines)) == (level == 0 ? 1152 : 4096))
            #expect(try metaflacTotalSamples(path) == Int64(values.count / channels))
        }
    }

    @Test("refuses depths and levels it does not write")
    func refusals() throws {
        let directory = TemporaryDirectory()
        let file = try FileDescriptor.create(directory.file("x.flac"))
        #expect(throws: AudioFileError.self) {
            try FLACFileWriter(LibraryOutput(file), format: .compressed(.flac, sampleRate: 48000, channels: 2, bitsPerChannel: 20),
                               options: AudioFileWriteOptions(), ogg: false)
        }
        var options = AudioFileWriteOptions()
        options.encoder.compressionLevel = 9
        #expect(throws: AudioFileError.self) {
            try FLACFileWriter(LibraryOutput(file), format: .compressed(.flac, sampleRate: 48000, channels: 2), options: options, ogg: false)
        }
    }
}
