import Codec8_24
import Foundation
import TestSupport
import Testing
@testable import Queue

/// Ogg Opus files made by opusenc, decoded by `OpusFileReader` and compared with opusdec (the opus-tools
/// reference decoder) and with what RFC 7845 says the headers mean.
struct OpusFileReaderTests {
    /// Both decoders are libopusfile's float decoder over the same libopus, so they agree up to the rounding
    /// of float to 8.24 (half a unit) ... unless a different libopus build (e.g. fixed-point, or other CPU
    /// paths: SSE vs NEON) decodes differently: then the RFC 6716 conformance bound applies. 2^-14 of full
    /// scale (1024 units of 8.24) covers that on both architectures; on this host the difference is 0.
    static let tolerance: Int64 = 1024

    static let cases: [(channels: Int, bitRate: Int)] = [(1, 64), (2, 64), (2, 128)]

    @Test("opusenc's files decode like opusdec, the length exact", arguments: 0..<cases.count)
    func decodesLikeOpusdec(index: Int) throws {
        let (channels, bitRate) = Self.cases[index]
        let directory = TemporaryDirectory()
        let path = try OpusFixture.make(directory, channels: channels,
                                        options: ["--bitrate", String(bitRate), "--comment", "TITLE=Sine",
                                                  "--comment", "R128_TRACK_GAIN=-512", "--comment", "R128_ALBUM_GAIN=384"])
        let reader = try OpusFixture.open(path)
        defer { reader.close() }
        let reference = try OpusFixture.opusdec(path)
        // 1 s of 44.1 kHz input is 48000 frames at Opus's 48 kHz (closed form), which is what opusdec gives.
        #expect(reader.info.frameCount == 48000)
        #expect(reference.count == 48000 * channels)
        #expect(reader.info.format.channelsPerFrame == channels)
        #expect(reader.info.format.sampleRate == 48000)
        let (samples, error) = OpusFixture.decode(reader)
        #expect(error == nil)
        #expect(samples.count == reference.count)
        let worst = OpusFixture.maxDifference(samples, reference)
        #expect(worst <= Self.tolerance, "largest difference from opusdec: \(worst) units of 2^-24")
        // opusinfo prints the header's pre-skip and the vendor string; the tags are the ones given to opusenc.
        let opusinfo = String(decoding: try ReferenceTool.run("opusinfo", [path]), as: UTF8.self)
        let preSkip = opusinfo.split(separator: "\n").first { $0.contains("Pre-skip:") }.flatMap { Int($0.split(separator: " ").last ?? "") }
        #expect(preSkip != nil && reader.info.encoderDelay == preSkip)
        #expect(opusinfo.contains("Encoded with \(reader.info.encoder ?? "?")"))
        #expect(reader.info.metadata.title == "Sine")
        // RFC 7845 5.2.1: R128_TRACK_GAIN -512 is -2 dB re -23 LUFS, +3 dB re ReplayGain's -18 LUFS.
        #expect(reader.info.metadata.replayGain.trackGain == 3)
        #expect(reader.info.metadata.replayGain.albumGain == 6.5)   // 384 / 256 = 1.5 dB, + 5
        // opusinfo's "Total data length ... Average bitrate: N kbit/s" and libopusfile's op_bitrate are both
        // file bytes over duration: within rounding of each other.
        let rate = opusinfo.split(separator: "\n").first { $0.contains("Average bitrate:") }
            .flatMap { line in line.split(separator: " ").firstIndex(of: "bitrate:").map { Double(line.split(separator: " ")[$0 + 1]) } } ?? nil
        if let rate, let ours = reader.info.bitRate {
            #expect(abs(Double(ours) / 1000 - rate) < 0.05 * rate, "op_bitrate \(ours) vs opusinfo \(rate) kbit/s")
        } else {
            Issue.record("no bit rate: opusinfo \(String(describing: rate)), ours \(String(describing: reader.info.bitRate))")
        }
    }

    @Test("padding: the packets' duration minus pre-skip and length (RFC 7845 4.4)")
    func padding() throws {
        let directory = TemporaryDirectory()
        let path = try OpusFixture.make(directory, channels: 1, options: ["--framesize", "20"])
        let reader = try OpusFixture.open(path)
        defer { reader.close() }
        // ffprobe counts the packets; opusenc --framesize 20 makes each 960 frames at 48 kHz.
        let probe = String(decoding: try ReferenceTool.run("ffprobe", ["-v", "error", "-count_packets", "-show_entries", "stream=nb_read_packets",
                                                                       "-of", "csv=p=0", path]), as: UTF8.self)
        let packets = try #require(Int(probe.trimmingCharacters(in: .whitespacesAndNewlines).split(separator: ",").first ?? ""))
        #expect(reader.info.padding == packets * 960 - reader.info.encoderDelay - 48000)
        #expect(reader.info.padding > 0)
    }

    @Test("the OpusHead output gain is applied: a file rewritten with +3.5 dB plays 3.5 dB louder")
    func outputGain() throws {
        let directory = TemporaryDirectory()
        let path = try OpusFixture.make(directory, channels: 2)
        var bytes = try [UInt8](Data(contentsOf: URL(fileURLWithPath: path)))
        // RFC 3533: the first page holds only OpusHead; RFC 7845 5.1: output gain at packet bytes 16-17, Q7.8 LE.
        let packet = 27 + Int(bytes[26])
        #expect(bytes[packet..<(packet + 8)].elementsEqual("OpusHead".utf8))
        let gain = 896   // 3.5 dB * 256
        bytes[packet + 16] = UInt8(gain & 0xFF)
        bytes[packet + 17] = UInt8(gain >> 8)
        let pageEnd = packet + Int(bytes[27])
        bytes.replaceSubrange(22..<26, with: [0, 0, 0, 0])
        let crc = bytes[0..<pageEnd].withUnsafeBytes { OggCRC.checksum($0) }
        bytes.replaceSubrange(22..<26, with: [UInt8(crc & 0xFF), UInt8(crc >> 8 & 0xFF), UInt8(crc >> 16 & 0xFF), UInt8(crc >> 24)])
        let louder = directory.file("louder.opus")
        try Data(bytes).write(to: URL(fileURLWithPath: louder))
        // opusdec reads the rewritten header (so the page CRC is right) and says what gain it holds.
        let opusinfo = String(decoding: try ReferenceTool.run("opusinfo", [louder]), as: UTF8.self)
        #expect(opusinfo.contains("Playback gain: 3.5 dB"), "\(opusinfo)")
        let plain = OpusFixture.decode(try OpusFixture.open(path)).samples
        let loud = OpusFixture.decode(try OpusFixture.open(louder)).samples
        #expect(loud.count == plain.count)
        let factor = pow(10, 3.5 / 20)   // RFC 7845 5.1: sample * 10^(gain / (20 * 256))
        var worst = 0.0
        for i in 0..<min(loud.count, plain.count) { worst = max(worst, abs(loud[i].doubleValue - factor * plain[i].doubleValue)) }
        // Float rounding of the decode and the gain (1e-4 of full scale is 0.0009 dB; 3.5e-5 measured on aarch64).
        #expect(worst < 1e-4, "largest difference from plain * 10^(3.5/20): \(worst)")
        let worstReference = OpusFixture.maxDifference(loud, try OpusFixture.opusdec(louder))
        #expect(worstReference <= Self.tolerance, "largest difference from opusdec: \(worstReference)")
    }

    @Test("seek lands on the exact frame")
    func seek() throws {
        let directory = TemporaryDirectory()
        let path = try OpusFixture.make(directory, seconds: 2, channels: 2)
        let reader = try OpusFixture.open(path)
        defer { reader.close() }
        let whole = OpusFixture.decode(reader).samples
        #expect(whole.count == 2 * 96000)
        // After op_pcm_seek the decoder restarts from a reset state 80 ms before the target (RFC 7845 4.6
        // pre-roll); CELT's band energies are predicted frame to frame, so its output converges on the
        // continuous decode only over ~0.4 s (measured with libopusfile alone: 0.07 at first, < 2^-24 after
        // 0.45 s). So the position is checked where the two agree again: 24000 frames on, within 2^-20, while
        // one frame off differs by the sines' slope (> 2^-8 here).
        for target in [0, 12345, 30001, 50000] {
            try reader.seek(toFrame: Int64(target))
            var buffer = [Fixed824](repeating: .zero, count: 2 * 28000)
            var got = 0
            while got < 28000 {
                let n = try buffer.withUnsafeMutableBufferPointer { try reader.read(into: UnsafeMutableBufferPointer(rebasing: $0[(2 * got)...])) }
                if n == 0 { break }
                got += n
            }
            #expect(got == min(28000, 96000 - target))
            let late = 2 * 24000..<(2 * got)
            let exact = OpusFixture.maxDifference(buffer[late], whole[(late.lowerBound + 2 * target)..<(late.upperBound + 2 * target)])
            #expect(exact <= 16, "seek to \(target): differs by \(exact) units of 2^-24 after 0.5 s")
            let shifted = OpusFixture.maxDifference(buffer[late], whole[(late.lowerBound + 2 * target - 2)..<(late.upperBound + 2 * target - 2)])
            #expect(shifted > 1 << 16)
        }
        try reader.seek(toFrame: 95000)
        #expect(OpusFixture.decode(reader).samples.count == 2 * 1000)
        try reader.seek(toFrame: 96000)
        #expect(OpusFixture.decode(reader).samples.count == 0)
        #expect(OpusFixture.thrown { try reader.seek(toFrame: 96001) }?.kind == .misuse)
    }
}
