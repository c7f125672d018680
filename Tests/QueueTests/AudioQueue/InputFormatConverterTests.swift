import Codec8_24
import Foundation
import Testing
@testable import Queue

/// Runs `samples` (interleaved, `hardwareChannels` wide) through a converter in periods of `period` frames,
/// then drains the tail, and returns every byte it encoded.
func convertAll(_ converter: InputFormatConverter, _ samples: [Fixed824], period: Int) -> [UInt8] {
    var bytes: [UInt8] = []
    var scratch = [UInt8](repeating: 0, count: 64 * converter.bytesPerPacket)
    func encodePending() {
        while converter.pendingPackets > 0 {
            let packets = scratch.withUnsafeMutableBytes { converter.encode(into: $0.baseAddress!, maximumPackets: 64) }
            bytes += scratch[0..<(packets * converter.bytesPerPacket)]
        }
    }
    let width = converter.hardwareChannels
    var offset = 0
    while offset < samples.count / width {
        let frames = min(period, samples.count / width - offset)
        _ = samples.withUnsafeBufferPointer { converter.accept($0.baseAddress! + offset * width, frames: frames) }
        encodePending()
        offset += frames
    }
    while !converter.drainTail() { encodePending() }
    encodePending()
    return bytes
}

@Suite("Input queue format conversion")
struct InputFormatConverterTests {
    /// 16-bit samples as the capture delivers them (8.24 holds every 16-bit value exactly).
    static func int16Ramp(_ values: [Int16]) -> [Fixed824] { values.map { Fixed824(int16: $0) } }

    @Test func sixteenBitWithoutDitherIsTheCapturedSamples() throws {
        let converter = try InputFormatConverter(format: .linearPCM(sampleRate: 48000, channels: 2, bits: 16),
                                                 hardwareRate: 48000, hardwareChannels: 2, maximumFrames: 64, dither: false)
        let values: [Int16] = (0..<1000).map { Int16(truncatingIfNeeded: $0 &* 977 &- 30000) }
        let bytes = convertAll(converter, Self.int16Ramp(values), period: 37)
        let decoded = stride(from: 0, to: bytes.count, by: 2).map { Int16(bytes[$0]) | Int16(bytes[$0 + 1]) << 8 }
        // 8.24 -> 16 bits of a value that came from 16 bits is exact (Fixed824's contract: int16 << 9).
        #expect(decoded == values)
    }

    @Test func twentyFourBitAndFloatKeepTheSamples() throws {
        let values: [Int32] = [0, 1, -1, 8_388_607, -8_388_608, 1_234_567, -7_654_321]
        let samples = values.map { Fixed824(int24: $0) }
        let s24 = try InputFormatConverter(format: .linearPCM(sampleRate: 16000, channels: 1, bits: 24),
                                           hardwareRate: 16000, hardwareChannels: 1, maximumFrames: 4)
        let bytes = convertAll(s24, samples, period: 4)
        let decoded = stride(from: 0, to: bytes.count, by: 3).map { (i: Int) -> Int32 in
            let packed: Int32 = Int32(bytes[i]) | Int32(bytes[i + 1]) << 8 | Int32(bytes[i + 2]) << 16
            return (packed << 8) >> 8
        }
        #expect(decoded == values)    // 24-bit PCM is not dithered: exact round trip
        let f32 = try InputFormatConverter(format: .linearPCM(sampleRate: 16000, channels: 1, bits: 32, isFloat: true),
                                           hardwareRate: 16000, hardwareChannels: 1, maximumFrames: 4)
        let floats = convertAll(f32, samples, period: 3).withUnsafeBytes { raw in
            (0..<(raw.count / 4)).map { Float(bitPattern: UInt32(littleEndian: raw.loadUnaligned(fromByteOffset: 4 * $0, as: UInt32.self))) }
        }
        // x / 2^23 for a 24-bit code x: exact in a float's 24-bit significand.
        #expect(floats == values.map { Float($0) / 8_388_608 })
    }

    @Test func stereoCaptureIntoMonoAveragesAndMonoIntoStereoDuplicates() throws {
        let down = try InputFormatConverter(format: .linearPCM(sampleRate: 8000, channels: 1, bits: 16),
                                            hardwareRate: 8000, hardwareChannels: 2, maximumFrames: 16, dither: false)
        let pairs: [(Int16, Int16)] = [(1000, 3000), (-2000, 2000), (32767, 32767), (-32768, -32768), (10, -20)]
        let stereo = pairs.flatMap { [Fixed824(int16: $0.0), Fixed824(int16: $0.1)] }
        let mono = convertAll(down, stereo, period: 16)
        let monoValues = stride(from: 0, to: mono.count, by: 2).map { Int16(mono[$0]) | Int16(mono[$0 + 1]) << 8 }
        // (L + R) / 2: 2000, 0, 32767, -32768, -5.
        #expect(monoValues == [2000, 0, 32767, -32768, -5])

        let up = try InputFormatConverter(format: .linearPCM(sampleRate: 8000, channels: 2, bits: 16),
                                          hardwareRate: 8000, hardwareChannels: 1, maximumFrames: 16, dither: false)
        let both = convertAll(up, Self.int16Ramp([5, -7, 300]), period: 2)
        let upValues = stride(from: 0, to: both.count, by: 2).map { Int16(both[$0]) | Int16(both[$0 + 1]) << 8 }
        #expect(upValues == [5, 5, -7, -7, 300, 300])
    }

    /// Spot values from ITU-T G.711: µ-law Table 2a (positive zero is 1111 1111, the largest positive level
    /// 1000 0000, the largest negative 0000 0000); A-law Table 1a (character signals with the even bits
    /// inverted: +0 -> 1101 0101, +max -> 1010 1010, -max -> 0010 1010).
    @Test func g711SpotValuesFollowTheStandard() throws {
        let inputs = Self.int16Ramp([0, 32767, -32768])
        let mu = try InputFormatConverter(format: .muLaw(sampleRate: 8000, channels: 1), hardwareRate: 8000,
                                          hardwareChannels: 1, maximumFrames: 8)
        #expect(convertAll(mu, inputs, period: 8) == [0xFF, 0x80, 0x00])
        let a = try InputFormatConverter(format: .aLaw(sampleRate: 8000, channels: 1), hardwareRate: 8000,
                                         hardwareChannels: 1, maximumFrames: 8)
        #expect(convertAll(a, inputs, period: 8) == [0xD5, 0xAA, 0x2A])
    }

    /// The queue's code for every non-negative input on the law's own grid (14-bit for µ-law, 13-bit for
    /// A-law, G.711's linear scales) equals sox's (`-e u-law` / `-e a-law`, undithered, run now). Off the grid
    /// sox first rounds to it (G.711 places decision levels between grid points, so the standard codes by
    /// truncation there); and sox codes a negative input by its magnitude -x (Sun's g711.c) where G.711's
    /// reference code (ITU-T G.191 g711.c) and this codec use ~x = -x - 1. The spot values above and the
    /// codec's own tests cover those inputs against the standard's tables.
    @Test(arguments: [("u-law", AudioFormatID.muLaw), ("a-law", .aLaw)])
    func g711MatchesSoxOnTheLawsGrid(encoding: String, id: AudioFormatID) throws {
        guard toolAvailable("sox") else { return }
        let grid = id == .muLaw ? 4 : 8
        let values = stride(from: 0, through: Int(Int16.max), by: grid).map { Int16($0) }
        let directory = TemporaryDirectory()
        let input = directory.file("in.raw"), output = directory.file("out.raw")
        try Data(values.flatMap { [UInt8(truncatingIfNeeded: $0), UInt8(truncatingIfNeeded: $0 >> 8)] }).write(to: URL(fileURLWithPath: input))
        try run("sox", ["-D", "-t", "raw", "-r", "8000", "-c", "1", "-e", "signed-integer", "-b", "16", "-L", input,
                        "-t", "raw", "-e", encoding, output])
        let theirs = [UInt8](try Data(contentsOf: URL(fileURLWithPath: output)))
        let format = id == .muLaw ? StreamFormat.muLaw(sampleRate: 8000, channels: 1) : .aLaw(sampleRate: 8000, channels: 1)
        let converter = try InputFormatConverter(format: format, hardwareRate: 8000, hardwareChannels: 1, maximumFrames: 256)
        let ours = convertAll(converter, Self.int16Ramp(values), period: 256)
        #expect(ours.count == theirs.count)
        let differing = zip(values, zip(ours, theirs)).filter { $0.1.0 != $0.1.1 }
        #expect(differing.isEmpty, "\(differing.count) codes differ from sox's, first: \(differing.prefix(5).map { "\($0.0): \($0.1)" })")
        #expect(values.count == 32768 / grid)
    }

    /// The sample-rate converter's contract (SampleRateConverter: total output latency + ceil(n·L/M), the
    /// latency skipped here): n frames at 48 kHz become ceil(n · 44100 / 48000) frames at 44.1 kHz, and a
    /// 1 kHz sine comes out as the same sine sampled at 44.1 kHz, in time with the capture.
    @Test(arguments: [1000, 4800, 12345])
    func fortyEightKilohertzCaptureIntoAFortyFourQueue(frames: Int) throws {
        let converter = try InputFormatConverter(format: .linearPCM(sampleRate: 44100, channels: 1, bits: 32, isFloat: true),
                                                 hardwareRate: 48000, hardwareChannels: 1, maximumFrames: 256)
        let sine = (0..<frames).map { Fixed824(0.5 * sin(2 * Double.pi * 1000 * Double($0) / 48000)) }
        let bytes = convertAll(converter, sine, period: 256)
        let out = bytes.withUnsafeBytes { raw in
            (0..<(raw.count / 4)).map { Double(Float(bitPattern: UInt32(littleEndian: raw.loadUnaligned(fromByteOffset: 4 * $0, as: UInt32.self)))) }
        }
        #expect(out.count == (frames * 44100 + 47999) / 48000)
        // Away from the ends (where the filter sees the silence before and after), the closed-form sine.
        let expected = (0..<out.count).map { 0.5 * sin(2 * Double.pi * 1000 * Double($0) / 44100) }
        let worst = zip(out, expected).dropFirst(100).dropLast(100).map { abs($0 - $1) }.max() ?? 0
        #expect(worst < 1e-3, "worst difference from the 44.1 kHz sine: \(worst)")
    }

    @Test func imaFourFillsWholePacketsAndPadsTheLast() throws {
        let converter = try InputFormatConverter(format: .appleIMA4(sampleRate: 16000, channels: 2), hardwareRate: 16000,
                                                 hardwareChannels: 2, maximumFrames: 50)
        let bytes = convertAll(converter, [Fixed824](repeating: .zero, count: 2 * 200), period: 50)
        // 200 frames are 3 full packets of 64 and one of 8 padded with 56 frames of silence; 34 bytes per
        // channel per packet (Apple IMA4).
        #expect(bytes.count == 4 * 68)
        #expect(converter.paddingFrames == 56)
    }

    @Test func formatsAQueueCannotRecordAreRefusedWithTheReason() {
        #expect(throws: StreamFormatError.self) {
            try InputFormatConverter(format: .microsoftIMAADPCM(sampleRate: 8000, channels: 1), hardwareRate: 8000,
                                     hardwareChannels: 1, maximumFrames: 64)
        }
        do {
            _ = try InputFormatConverter(format: .linearPCM(sampleRate: 44100, channels: 1, bits: 16), hardwareRate: 12345,
                                         hardwareChannels: 1, maximumFrames: 64)
            Issue.record("a non-standard hardware rate was accepted")
        } catch {
            #expect(error.reason.contains("12345 Hz"))
        }
    }
}

@Suite("Input queue IMA4 against ffmpeg")
struct InputIMA4DecodeTests {
    /// IMA4 packets from the queue, stored in a CAF file as they come, decode in ffmpeg (adpcm_ima_qt, run
    /// now) to the captured sine within IMA ADPCM's precision: a 4-bit code per sample tracking a 1 kHz sine
    /// at 16 kHz keeps the error at least 20 dB below the signal.
    @Test func imaFourPacketsDecodeInFFmpegCloseToTheCapture() throws {
        guard toolAvailable("ffmpeg") else { return }
        let format = StreamFormat.appleIMA4(sampleRate: 16000, channels: 1)
        let converter = try InputFormatConverter(format: format, hardwareRate: 16000, hardwareChannels: 1, maximumFrames: 100)
        let frames = 64 * 50
        let sine = (0..<frames).map { 0.5 * sin(2 * Double.pi * 1000 * Double($0) / 16000) }
        let bytes = convertAll(converter, sine.map { Fixed824($0) }, period: 100)
        #expect(bytes.count == 50 * 34)
        let directory = TemporaryDirectory()
        let path = directory.file("ima4.caf")
        let file = try AudioFile.create(path: path, type: .caf, format: format)
        try bytes.withUnsafeBytes { try file.writePackets($0, packetCount: 50) }
        try file.close()
        let decoded = try ffmpegSamples(path).map { Double($0) / 2_147_483_648 }
        #expect(decoded.count == frames)
        let noise = zip(decoded, sine).map { ($0 - $1) * ($0 - $1) }.reduce(0, +)
        let signal = sine.map { $0 * $0 }.reduce(0, +)
        let snr = 10 * log10(signal / max(noise, 1e-30))
        #expect(snr > 20, "IMA4 SNR \(snr) dB")
    }
}
