import Codec8_24
import Foundation
import Testing
@testable import Queue

/// `appliance render` must stay bit-identical where the chain did not change (issue 12: "stays bit-identical to
/// before"). These hashes are NOT an outside reference for correctness: they were recorded from the
/// FileRenderer as it was on main at 749c2f2, before it was moved onto the shared OutputChain, and they only
/// pin that the move changed no output byte. The correctness of each stage is tested against outside
/// references in FileRendererTests and Codec8_24Tests (OutputChainTests and each stage's suite).
/// The two rate-converting cases were re-recorded when issue 17 changed the converter's filter (a new window,
/// 136 instead of 128 taps per phase at 44.1 -> 48 kHz); the converter's own tests hold its accuracy.
@Suite("Offline renderer, bit-identical to before the output chain")
struct FileRendererHashTests {
    /// FNV-1a, 64-bit, over the output file's bytes.
    static func fnv1a(_ data: Data) -> String {
        var value: UInt64 = 0xCBF2_9CE4_8422_2325
        for byte in data { value = (value ^ UInt64(byte)) &* 0x0000_0100_0000_01B3 }
        return String(value, radix: 16)
    }

    /// Integer-only input (a triangle per channel plus seeded noise), so it is the same on every
    /// architecture: two whole render blocks and a ragged end.
    static func input(frames: Int, channels: Int) -> [Fixed824] {
        var noise = NoiseGenerator(seed: 12)
        var samples = [Fixed824](repeating: .zero, count: frames * channels)
        for f in 0..<frames {
            for c in 0..<channels {
                let period = 100 + 37 * c
                let phase = (f * 2 + c * 13) % (2 * period)
                let triangle = (phase < period ? phase : 2 * period - phase) - period / 2    // -period/2 ... period/2
                let value = Int64(triangle) * (Int64(1) << 24) * 7 / 10 / Int64(period / 2 + 1)
                let hiss = Int64(Int32(truncatingIfNeeded: noise.next())) >> 9                // about ±0.25
                samples[f * channels + c] = Fixed824.saturating(value + hiss)
            }
        }
        return samples
    }

    struct Case: Sendable, CustomTestStringConvertible {
        let name: String
        let inRate: Double, inChannels: Int
        let out: StreamFormat
        let settings: RenderSettings
        let hash: String
        var testDescription: String { name }
    }

    static let frames = 2 * FileRenderer.blockFrames + 1_500

    static let cases: [Case] = [
        Case(name: "stereo 24 -> 16, rock, limiter, dither", inRate: 48_000, inChannels: 2,
             out: .linearPCM(sampleRate: 48_000, channels: 2, bits: 16),
             settings: RenderSettings(preset: EQPreset.named("rock"), limit: true, dither: true), hash: "7ddd672b1fc73735"),
        Case(name: "stereo -> mono 16, loudness, +4 dB, limiter, dither", inRate: 48_000, inChannels: 2,
             out: .linearPCM(sampleRate: 48_000, channels: 1, bits: 16),
             settings: RenderSettings(preset: EQPreset.named("loudness"), gainDB: 4, limit: true, dither: true), hash: "fc214a8e540e40b4"),
        Case(name: "mono -> stereo 24, bass booster, -3 dB, dither", inRate: 48_000, inChannels: 1,
             out: .linearPCM(sampleRate: 48_000, channels: 2, bits: 24),
             settings: RenderSettings(preset: EQPreset.named("bass booster"), gainDB: -3, dither: true), hash: "ad8886ccddb08db9"),
        Case(name: "44.1 -> 48 kHz 16, jazz, +6 dB, limiter, dither", inRate: 44_100, inChannels: 2,
             out: .linearPCM(sampleRate: 48_000, channels: 2, bits: 16),
             settings: RenderSettings(preset: EQPreset.named("jazz"), gainDB: 6, limit: true, dither: true), hash: "349f8b013c6e19b0"),
        Case(name: "no preset, +48 dB, limiter, 16", inRate: 48_000, inChannels: 2,
             out: .linearPCM(sampleRate: 48_000, channels: 2, bits: 16),
             settings: RenderSettings(gainDB: 48, limit: true, dither: true), hash: "e02263213bbc084b"),
        Case(name: "6 -> 6 channels 16, rock, limiter, dither", inRate: 48_000, inChannels: 6,
             out: .linearPCM(sampleRate: 48_000, channels: 6, bits: 16),
             settings: RenderSettings(preset: EQPreset.named("rock"), limit: true, dither: true), hash: "b2fc42de1b2def0c"),
        Case(name: "stereo -> 4 channels 16, flat, dither", inRate: 48_000, inChannels: 2,
             out: .linearPCM(sampleRate: 48_000, channels: 4, bits: 16),
             settings: RenderSettings(preset: EQPreset.named("flat"), dither: true), hash: "cc4a3643bede55a3"),
        Case(name: "3 -> 3 channels 16, dance, -1 dB, dither", inRate: 48_000, inChannels: 3,
             out: .linearPCM(sampleRate: 48_000, channels: 3, bits: 16),
             settings: RenderSettings(preset: EQPreset.named("dance"), gainDB: -1, dither: true), hash: "8df03c46a21dcd06"),
        Case(name: "stereo -> float, treble booster, limiter", inRate: 48_000, inChannels: 2,
             out: .linearPCM(sampleRate: 48_000, channels: 2, bits: 32, isFloat: true),
             settings: RenderSettings(preset: EQPreset.named("treble booster"), limit: true, dither: true), hash: "3a3c40d47af26dd8"),
        Case(name: "stereo -> mu-law, spoken word, dither", inRate: 48_000, inChannels: 2,
             out: .muLaw(sampleRate: 48_000, channels: 2),
             settings: RenderSettings(preset: EQPreset.named("spoken word"), dither: true), hash: "ef6316da548c0ba7"),
        Case(name: "48 -> 44.1 kHz mono 16, no preset, -6 dB, dither", inRate: 48_000, inChannels: 1,
             out: .linearPCM(sampleRate: 44_100, channels: 1, bits: 16),
             settings: RenderSettings(gainDB: -6, dither: true), hash: "eeb90b1a93feeab3"),
    ]

    func render(_ c: Case, pipelined: Bool) throws -> String {
        let dir = TemporaryDirectory()
        try writeFile(dir.file("in.wav"), type: .wave,
                      format: .linearPCM(sampleRate: c.inRate, channels: c.inChannels, bits: 24),
                      samples: Self.input(frames: Self.frames, channels: c.inChannels))
        let sink = try AudioFile.create(path: dir.file("out.caf"), type: .caf, format: c.out)
        let renderer = try FileRenderer(input: try AudioFile.open(path: dir.file("in.wav")), output: sink,
                                        settings: c.settings)
        renderer.pipelined = pipelined
        try renderer.run()
        try sink.close()
        return Self.fnv1a(try Data(contentsOf: URL(fileURLWithPath: dir.file("out.caf"))))
    }

    @Test(arguments: cases)
    func renderOutputIsByteForByteWhatItWasBefore(c: Case) throws {
        let hash = try render(c, pipelined: true)
        #expect(hash == c.hash, "\(c.name)")
        #expect(try render(c, pipelined: false) == hash, "\(c.name), one thread")
    }
}
