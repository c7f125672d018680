import Codec8_24
import Foundation
import TestSupport
import Testing
@testable import Queue

/// Files written by `OpusFileWriter` (libopusenc), checked with opus-tools (opusinfo, opusdec).
struct OpusFileWriterTests {
    /// A 440 Hz sine (660 Hz on the right), amplitude 0.5, at `rate`, interleaved 8.24.
    static func sine(frames: Int, channels: Int, rate: Double) -> [Fixed824] {
        (0..<(frames * channels)).map { i in
            Fixed824(0.5 * sin(2 * Double.pi * Double(440 + 220 * (i % channels)) * Double(i / channels) / rate))
        }
    }

    static func create(_ path: String, rate: Double = 44100, channels: Int = 2, options: AudioFileWriteOptions) throws -> OpusFileWriter {
        try OpusFileWriter(LibraryOutput(FileDescriptor.create(path)),
                           format: .compressed(.opus, sampleRate: rate, channels: channels), options: options)
    }

    static func write(_ writer: OpusFileWriter, _ samples: [Fixed824], chunk: Int = 1000, channels: Int = 2) throws {
        var i = 0
        while i < samples.count {
            let end = min(samples.count, i + chunk * channels)
            try samples[i..<end].withUnsafeBufferPointer { try writer.write($0) }
            i = end
        }
    }

    @Test("a 44.1 kHz recording decodes in opusdec to the sine, the length exact, with its tags")
    func roundTrip() throws {
        let directory = TemporaryDirectory()
        let path = directory.file("rec.opus")
        var options = AudioFileWriteOptions()
        options.metadata = AudioFileMetadata(title: "Take 1", artist: "Band", date: "2026-11-24")
        options.metadata.album = "Demo"
        options.metadata.trackNumber = 3
        options.metadata.replayGain.trackGain = -6.5
        options.encoder.bitRate = 96000
        let writer = try Self.create(path, options: options)
        try Self.write(writer, Self.sine(frames: 44100, channels: 2, rate: 44100))
        #expect(writer.framesWritten == 44100)
        try writer.finish()

        let opusinfo = String(decoding: try ReferenceTool.run("opusinfo", [path]), as: UTF8.self)
        for line in ["TITLE=Take 1", "ARTIST=Band", "ALBUM=Demo", "TRACKNUMBER=3", "DATE=2026-11-24", "ENCODER=",
                     "Original sample rate: 44100 Hz", "Channels: 2"] {
            #expect(opusinfo.contains(line), "opusinfo lacks \(line)")
        }
        // RFC 7845 5.2.1: -6.5 dB re ReplayGain's -18 LUFS is -11.5 dB re -23 LUFS: Q7.8 -2944.
        #expect(opusinfo.contains("R128_TRACK_GAIN=-2944"))
        // 44100 frames at 44.1 kHz are 48000 at 48 kHz (closed form); opusdec's count.
        let decoded = try OpusFixture.opusdec(path)
        #expect(decoded.count == 2 * 48000)
        // Lossy: within 0.04 of the sine past the first 5 ms (measured 0.027 at 96 kb/s for two channels).
        var worst = 0.0
        for n in 240..<(decoded.count / 2) {
            for c in 0..<2 {
                let ideal = 0.5 * sin(2 * Double.pi * Double(440 + 220 * c) * Double(n) / 48000)
                worst = max(worst, abs(Double(decoded[2 * n + c]) - ideal))
            }
        }
        #expect(worst < 0.04, "largest difference from the sine: \(worst)")

        let reader = try OpusFixture.open(path)
        defer { reader.close() }
        #expect(reader.info.frameCount == 48000)
        #expect(reader.info.metadata.title == "Take 1")
        #expect(reader.info.metadata.trackNumber == 3)
        #expect(reader.info.metadata.replayGain.trackGain == -6.5)
        // The bit rate asked for, as opusinfo measures it (within 15%: VBR, plus Ogg overhead on 1 s).
        let average = opusinfo.split(separator: "\n").first { $0.contains("Average bitrate:") }
            .flatMap { line -> Double? in
                let words = line.split(separator: " ")
                return words.firstIndex(of: "bitrate:").flatMap { Double(words[$0 + 1]) }
            }
        let kbps = try #require(average)
        #expect(abs(kbps - 96) < 0.15 * 96, "opusinfo says \(kbps) kbit/s")
    }

    @Test("a recording cut by a power loss reads up to its last complete page")
    func powerCut() throws {
        let directory = TemporaryDirectory()
        let path = directory.file("live.opus")
        let writer = try Self.create(path, rate: 48000, options: AudioFileWriteOptions(synchronizeOnCommit: true))
        let signal = Self.sine(frames: 96000, channels: 2, rate: 48000)
        try Self.write(writer, signal, chunk: 4800)
        try writer.commit()
        // What is on disk now, as a power cut would leave it, once whole and once cut mid-page.
        let bytes = try [UInt8](Data(contentsOf: URL(fileURLWithPath: path)))
        writer.abandon()
        let pages = OpusDamageTests.pageOffsets(bytes)
        for (name, cut) in [("atPage.opus", bytes), ("midPage.opus", Array(bytes[0..<(pages[pages.count - 1] + 30)]))] {
            let copy = directory.file(name)
            try Data(cut).write(to: URL(fileURLWithPath: copy))
            let reader = try OpusFixture.open(copy)
            let (samples, error) = OpusFixture.decode(reader)
            #expect(error?.kind == .truncated)
            // Audio waits at most the decision delay (100 ms) to be encoded and its page at most the muxing
            // delay (100 ms, OpusFileWriter.pageDelay) to be written; the mid-page cut loses one more page
            // (~100 ms): at least 2 s - 0.35 s survive (measured: 0.31 s lost).
            #expect(samples.count >= 2 * (96000 - 16800), "\(name): \(samples.count / 2) frames of 96000")
            // Against the signal written (pre-skip removed: libopusenc sets it to the encoder's delay).
            var worst = 0.0
            for i in (2 * 480)..<samples.count { worst = max(worst, abs(samples[i].doubleValue - signal[i].doubleValue)) }
            #expect(worst < 0.04, "\(name): largest difference from the sine \(worst)")
            // opusdec (opus-tools) reads the cut file too, to the same frame.
            let reference = try OpusFixture.opusdec(copy)
            #expect(reference.count == samples.count, "\(name): opusdec \(reference.count / 2) frames, ours \(samples.count / 2)")
        }
    }

    @Test("six channels in WAV order are stored in Opus's Vorbis order, each speaker where it belongs")
    func surroundOrder() throws {
        let directory = TemporaryDirectory()
        let path = directory.file("surround.opus")
        // The input in the WAV speaker order L R C LFE Ls Rs (StreamFormat's standard layout), a sine per
        // speaker; the LFE one low (Opus codes that channel narrow-band).
        let frequencies: [String: Double] = ["L": 300, "R": 500, "C": 700, "LFE": 60, "Ls": 900, "Rs": 1100]
        let format = StreamFormat.compressed(.opus, sampleRate: 48000, channels: 6)
        let input = try #require(format.channelLayout).labels.map(\.description)
        #expect(input == ["L", "R", "C", "LFE", "Ls", "Rs"])
        let samples = (0..<(24000 * 6)).map { i in
            Fixed824(0.3 * sin(2 * Double.pi * frequencies[input[i % 6]]! * Double(i / 6) / 48000))
        }
        let writer = try OpusFileWriter(LibraryOutput(FileDescriptor.create(path)), format: format,
                                        options: AudioFileWriteOptions())
        try Self.write(writer, samples, channels: 6)
        try writer.finish()
        // RFC 7845 5.1.1.2: family 1 with six channels is L C R Ls Rs LFE; opusdec's decode, channel by channel,
        // correlates best with the sine of the speaker that position names.
        let decoded = try OpusFixture.opusdec(path)
        #expect(decoded.count == 24000 * 6)
        for (channel, label) in ["L", "C", "R", "Ls", "Rs", "LFE"].enumerated() {
            let best = frequencies.max { a, b in
                Self.correlation(decoded, channel: channel, frequency: a.value) < Self.correlation(decoded, channel: channel, frequency: b.value)
            }
            #expect(best?.key == label, "channel \(channel) sounds like \(best?.key ?? "?"), not \(label)")
        }
    }

    /// The magnitude of `samples`' channel at `frequency` (one DFT bin), over 6-channel interleaved audio.
    static func correlation(_ samples: [Float], channel: Int, frequency: Double) -> Double {
        var re = 0.0, im = 0.0
        for n in 0..<(samples.count / 6) {
            let phase = 2 * Double.pi * frequency * Double(n) / 48000
            re += Double(samples[n * 6 + channel]) * cos(phase)
            im += Double(samples[n * 6 + channel]) * sin(phase)
        }
        return re * re + im * im
    }

    @Test("a bit rate libopus cannot take is refused with the range")
    func badBitRate() throws {
        let directory = TemporaryDirectory()
        var options = AudioFileWriteOptions()
        options.encoder.bitRate = 100
        let error = OpusFixture.thrown { _ = try Self.create(directory.file("bad.opus"), options: options) }
        #expect(error?.kind == .incompatibleFormat)
    }
}
