import Foundation
import Testing
@testable import Codec8_24

/// IMA ADPCM against the reference tools: files that sox and ffmpeg encode must decode here exactly as the
/// tools decode them, and files this encoder writes must decode in the tools exactly as here.
///
/// Which tool is the reference for which layout, and why:
/// - WAV (0x11): sox's decoder follows the IMA arithmetic (step/8 + shifted steps), as this one does, so sox
///   must agree bit for bit. ffmpeg's `adpcm_ima_wav` decoder (5.1) instead computes `(2·code + 1)·step / 8`
///   with one rounding, which differs by a few LSBs; against it the tests check closeness, not identity.
/// - `ima4`: sox cannot read it; ffmpeg's `adpcm_ima_qt` decoder uses the IMA arithmetic and must agree bit
///   for bit.
@Suite("IMA ADPCM against sox and ffmpeg", .serialized)
struct IMAADPCMReferenceToolTests {
    typealias Support = CodecTestSupport

    /// A stereo or mono 16-bit PCM source file whose length is deliberately not a whole number of packets.
    static func writeSource(_ directory: URL, channels: Int, sampleRate: Int, frames: Int) throws -> (URL, [Int16]) {
        let signal = Support.testSignal(frames: frames, channels: channels, sampleRate: Double(sampleRate),
                                        seed: UInt64(channels * 1000 + sampleRate))
        let url = directory.appendingPathComponent("source-\(channels)ch.wav")
        try Support.writePCMWave(url, samples: signal, channels: channels, sampleRate: sampleRate)
        return (url, signal)
    }

    static func decodeWave(_ wave: Support.WaveFile) throws -> [Int16] {
        let layout = try IMAADPCMWaveLayout(channelCount: wave.channelCount, blockAlign: wave.blockAlign)
        #expect(wave.formatTag == IMAADPCMWaveLayout.formatTag)
        #expect(wave.samplesPerBlock == layout.framesPerBlock)
        return try IMAADPCMTests.decodeWave(wave.data, layout: layout)
    }

    /// Our decode of a tool's output against the tool's decode: identical samples, and the tool decodes the
    /// same whole blocks (it may stop early by the file's frame count, never by more than one packet).
    static func expectSame(_ ours: [Int16], _ theirs: [Int16], channels: Int, framesPerPacket: Int,
                           _ what: String) {
        let theirFrames = theirs.count / channels
        let ourFrames = ours.count / channels
        #expect(theirFrames <= ourFrames && ourFrames - theirFrames < framesPerPacket,
                "\(what): tool gave \(theirFrames) frames, we gave \(ourFrames)")
        let common = min(ours.count, theirs.count)
        let mismatches = zip(ours[0..<common], theirs[0..<common]).filter { $0 != $1 }.count
        #expect(mismatches == 0, "\(what): \(mismatches) of \(common) samples differ")
        #expect(common > 0, "\(what): nothing decoded")
    }

    // MARK: Decoding what the tools encoded

    @Test(arguments: [(2, 16_000), (1, 8_000), (1, 44_100)])
    func decodesSoxEncodedWave(channels: Int, sampleRate: Int) throws {
        let directory = try Support.temporaryDirectory("sox-ima-wav")
        defer { try? FileManager.default.removeItem(at: directory) }
        let (source, _) = try Self.writeSource(directory, channels: channels, sampleRate: sampleRate,
                                               frames: sampleRate + 123)
        let encoded = directory.appendingPathComponent("sox-ima.wav")
        try Support.run("sox", [source.path, "-e", "ima-adpcm", encoded.path])
        let wave = try Support.parseWave(encoded)
        let ours = try Self.decodeWave(wave)
        Self.expectSame(ours, try Support.soxDecode(encoded), channels: channels,
                        framesPerPacket: wave.samplesPerBlock ?? 1, "sox-encoded, sox-decoded")
    }

    @Test(arguments: [(2, 1024), (2, 256), (1, 512), (1, 2048), (2, 4096), (1, 128)])
    func decodesFFmpegEncodedWave(channels: Int, blockSize: Int) throws {
        let directory = try Support.temporaryDirectory("ffmpeg-ima-wav")
        defer { try? FileManager.default.removeItem(at: directory) }
        let (source, _) = try Self.writeSource(directory, channels: channels, sampleRate: 22_050, frames: 22_050 + 77)
        let encoded = directory.appendingPathComponent("ffmpeg-ima.wav")
        try Support.run("ffmpeg", ["-nostdin", "-loglevel", "error", "-y", "-i", source.path,
                                   "-c:a", "adpcm_ima_wav", "-block_size", "\(blockSize)", encoded.path])
        let wave = try Support.parseWave(encoded)
        #expect(wave.blockAlign == blockSize)
        let ours = try Self.decodeWave(wave)
        Self.expectSame(ours, try Support.soxDecode(encoded), channels: channels,
                        framesPerPacket: wave.samplesPerBlock ?? 1, "ffmpeg-encoded, sox-decoded")
        let ffmpeg = try Support.ffmpegDecode(encoded)
        let common = min(ours.count, ffmpeg.count)
        #expect(Support.snr(reference: Array(ours[0..<common]), decoded: Array(ffmpeg[0..<common])) > 40,
                "ffmpeg's own decode should differ only by its rounding")
    }

    @Test(arguments: [(2, 16_000), (1, 8_000)])
    func decodesFFmpegEncodedIMA4(channels: Int, sampleRate: Int) throws {
        let directory = try Support.temporaryDirectory("ffmpeg-ima4")
        defer { try? FileManager.default.removeItem(at: directory) }
        let (source, _) = try Self.writeSource(directory, channels: channels, sampleRate: sampleRate,
                                               frames: sampleRate + 1000)   // 16 or 15.6 packets over a second
        let encoded = directory.appendingPathComponent("ffmpeg.caf")
        try Support.run("ffmpeg", ["-nostdin", "-loglevel", "error", "-y", "-i", source.path,
                                   "-c:a", "adpcm_ima_qt", encoded.path])
        let caf = try Support.parseCAF(encoded)
        #expect(caf.formatID == "ima4")
        #expect(caf.channelCount == channels && caf.bytesPerPacket == 34 * channels && caf.framesPerPacket == 64)
        let ours = try IMAADPCMTests.decodeIMA4(caf.data, channels: channels)
        Self.expectSame(ours, try Support.ffmpegDecode(encoded), channels: channels, framesPerPacket: 64,
                        "ffmpeg-encoded ima4, ffmpeg-decoded")
    }

    // MARK: Tools decoding what we encoded

    @Test(arguments: [(2, 512), (1, 256), (2, 2048), (1, 36), (2, 8 * 2 * 9)])
    func soxDecodesOurWave(channels: Int, blockAlign: Int) throws {
        let directory = try Support.temporaryDirectory("our-ima-wav")
        defer { try? FileManager.default.removeItem(at: directory) }
        let layout = try IMAADPCMWaveLayout(channelCount: channels, blockAlign: blockAlign)
        let frames = 16_000 + 55
        let signal = Support.testSignal(frames: frames, channels: channels, sampleRate: 16_000, seed: UInt64(blockAlign))
        let input = IMAADPCMTests.padded(signal, channels: channels, framesPerPacket: layout.framesPerBlock)
        let blocks = try IMAADPCMTests.encodeWave(input, layout: layout)
        let ours = try IMAADPCMTests.decodeWave(blocks, layout: layout)
        let url = directory.appendingPathComponent("ours.wav")
        try Support.writeIMAADPCMWave(url, blocks: blocks, channels: channels, sampleRate: 16_000,
                                      blockAlign: blockAlign, samplesPerBlock: layout.framesPerBlock, frames: frames)
        Self.expectSame(ours, try Support.soxDecode(url), channels: channels,
                        framesPerPacket: layout.framesPerBlock, "ours, sox-decoded")
        let ffmpeg = try Support.ffmpegDecode(url)
        #expect(ffmpeg.count / channels >= frames, "ffmpeg decoded \(ffmpeg.count / channels) of \(frames) frames")
        let common = min(ours.count, ffmpeg.count)
        #expect(Support.snr(reference: Array(ours[0..<common]), decoded: Array(ffmpeg[0..<common])) > 40,
                "ffmpeg reads our layout (up to its rounding)")
        #expect(Support.snr(reference: signal, decoded: Array(ours[0..<signal.count]), fraction: 0...0.4) > 24)
    }

    @Test(arguments: [1, 2])
    func ffmpegDecodesOurIMA4(channels: Int) throws {
        let directory = try Support.temporaryDirectory("our-ima4")
        defer { try? FileManager.default.removeItem(at: directory) }
        let signal = Support.testSignal(frames: 64 * 300, channels: channels, sampleRate: 22_050, seed: 77)
        let packets = try IMAADPCMTests.encodeIMA4(signal, channels: channels)
        let ours = try IMAADPCMTests.decodeIMA4(packets, channels: channels)
        let url = directory.appendingPathComponent("ours.caf")
        try Support.writeIMA4CAF(url, packets: packets, channels: channels, sampleRate: 22_050)
        let theirs = try Support.ffmpegDecode(url)
        #expect(theirs.count == ours.count)
        Self.expectSame(ours, theirs, channels: channels, framesPerPacket: 64, "ours ima4, ffmpeg-decoded")
        #expect(Support.snr(reference: signal, decoded: ours, fraction: 0...0.4) > 24)
    }
}
