import Codec8_24
import Foundation
import TestSupport
import Testing
@testable import Queue

/// MP3 files made by lame, read by `MP3FileReader` (libmpg123), checked against FFmpeg's decode and the
/// LAME tag's arithmetic.
@Suite struct MP3FileReaderTests {
    /// Two decoders of the same MP3 agree within 2^-14 of full scale (1024 in 8.24): ISO/IEC 11172-4's bound
    /// for a "full accuracy" decoder against the reference decoder. Both libmpg123 and FFmpeg's mp3float
    /// synthesise in floating point, so they differ only by float rounding (measured: under 30).
    static let tolerance: Int64 = 1024
    /// A seek against a decode from the start: bit for bit on the x86 host; on aarch64 libmpg123's NEON synthesis
    /// differs in rounding after the frames it re-decodes before the target, so within `tolerance`. Being one
    /// frame off on the 523 Hz test sine is a difference of ~2^19, far outside either.
    static var seekTolerance: Int64 {
        #if arch(x86_64)
        0
        #else
        tolerance
        #endif
    }

    /// LAME 3.100's encoder delay: 576 samples (its ENCDELAY), written into the LAME tag.
    static let lameDelay = 576

    /// Checks `reader` (of `mp3`, made from `frames` frames) against the LAME tag's arithmetic and FFmpeg's
    /// decode: exact length, every sample within the tolerance.
    static func expectMatchesFFmpeg(_ reader: MP3FileReader, _ mp3: String, frames: Int, chunk: Int = 1000) throws {
        let channels = reader.info.format.channelsPerFrame
        #expect(reader.info.frameCount == Int64(frames))
        // The LAME tag spec's arithmetic: the audio frames (ffprobe's packets, the tag's frame excluded) hold
        // delay + the original samples + padding.
        let packets = try MP3Fixtures.ffprobePacketSizes(mp3)
        #expect(packets.count * reader.info.format.framesPerPacket == reader.info.encoderDelay + frames + reader.info.padding)
        let (samples, error) = MP3Fixtures.decode(reader, chunk: chunk)
        #expect(error == nil)
        let reference = try MP3Fixtures.ffmpeg824(mp3)
        #expect(samples.count == frames * channels)
        #expect(samples.count == reference.count)
        #expect(MP3Fixtures.largestDifference(samples, reference) <= tolerance)
    }

    @Test func constantBitRateStereoWithTags() throws {
        let frames = 57330   // 1.3 s at 44.1 kHz, as sox is asked to make
        let directory = TemporaryDirectory()   // removed when the test ends
        let mp3 = try MP3Fixtures.lameSine(directory, frames: frames, ["-b", "128", "--tt", "A Title", "--ta", "An Artist", "--tl", "An Album",
                                          "--tn", "3/12", "--ty", "2024", "--tv", "TXXX=REPLAYGAIN_TRACK_GAIN=-6.20 dB"])
        let reader = try MP3Fixtures.open(mp3)
        let info = reader.info
        #expect(info.format.formatID == .mpegLayer3)
        #expect(info.format.sampleRate == 44100 && info.format.channelsPerFrame == 2 && info.format.framesPerPacket == 1152)
        #expect(info.bitRate == 128000)   // lame -b 128
        #expect(info.encoder == "LAME3.100")
        #expect(info.encoderDelay == Self.lameDelay)
        // The tags lame was given.
        #expect(info.metadata.title == "A Title")
        #expect(info.metadata.artist == "An Artist")
        #expect(info.metadata.album == "An Album")
        #expect(info.metadata.trackNumber == 3 && info.metadata.trackTotal == 12)
        #expect(info.metadata.date == "2024")
        #expect(info.metadata.replayGain.trackGain == -6.2)
        try Self.expectMatchesFFmpeg(reader, mp3, frames: frames)
    }

    @Test func variableBitRate() throws {
        let frames = 44100
        let directory = TemporaryDirectory()   // removed when the test ends
        let mp3 = try MP3Fixtures.lameSine(directory, frames: frames, frequency: 1000, ["-V2"])
        let reader = try MP3Fixtures.open(mp3)
        #expect(reader.info.encoderDelay == Self.lameDelay)
        // VBR: the audio's bytes (ffprobe's packet sizes) over its duration.
        let audioBytes = try MP3Fixtures.ffprobePacketSizes(mp3).reduce(0, +)
        #expect(reader.info.bitRate == audioBytes * 8 * 44100 / frames)
        try Self.expectMatchesFFmpeg(reader, mp3, frames: frames, chunk: 4096)
    }

    /// Every sampling frequency of MPEG-1 (32, 44.1, 48 kHz), MPEG-2 (16, 22.05, 24 kHz) and MPEG-2.5
    /// (8, 11.025 kHz), mono and stereo.
    @Test(arguments: [(48000, 2), (32000, 1), (24000, 2), (22050, 1), (16000, 2), (11025, 1), (8000, 1)])
    func sampleRatesAndChannels(rate: Int, channels: Int) throws {
        let frames = rate / 2 + 7
        // --resample to the same rate: lame would otherwise pick a lower rate for the bit rate. 64 kbit/s at
        // the low rates: a frame must be big enough for the LAME tag (lame leaves it out of 104-byte frames).
        let directory = TemporaryDirectory()   // removed when the test ends
        let mp3 = try MP3Fixtures.lameSine(directory, frames: frames, rate: rate, channels: channels, frequency: 300,
                                           ["-b", rate >= 32000 ? "128" : "64", "--resample", "\(Double(rate) / 1000)"])
        let reader = try MP3Fixtures.open(mp3)
        let perFrame = rate >= 32000 ? 1152 : 576   // ISO/IEC 13818-3: one granule per frame at the low rates
        #expect(reader.info.format.sampleRate == Double(rate))
        #expect(reader.info.format.channelsPerFrame == channels)
        #expect(reader.info.format.framesPerPacket == perFrame)
        try Self.expectMatchesFFmpeg(reader, mp3, frames: frames, chunk: 333)
    }

    @Test func seekIsSampleAccurate() throws {
        let frames = 66150
        let directory = TemporaryDirectory()
        let mp3 = try MP3Fixtures.lameSine(directory, frames: frames, frequency: 523, ["-V2"])
        let whole = MP3Fixtures.decode(try MP3Fixtures.open(mp3)).samples
        #expect(whole.count == frames * 2)
        let reader = try MP3Fixtures.open(mp3)
        var buffer = [Fixed824](repeating: .zero, count: 2 * 700)
        for target in [40000, 1, 1151, 1152, 0, 20011, 65800, 3] {
            try reader.seek(toFrame: Int64(target))
            let n = try buffer.withUnsafeMutableBufferPointer { try reader.read(into: $0) }
            #expect(n == min(700, frames - target))
            let expected = Array(whole[(2 * target)..<(2 * (target + n))])
            #expect(MP3Fixtures.largestDifference(buffer[0..<(2 * n)].map(\.raw), expected) <= Self.seekTolerance, "after a seek to \(target)")
        }
        try reader.seek(toFrame: Int64(frames))
        #expect(try buffer.withUnsafeMutableBufferPointer { try reader.read(into: $0) } == 0)
        #expect(throws: AudioFileError.self) { try reader.seek(toFrame: Int64(frames) + 1) }
    }
}
