import Codec8_24
import Foundation
import Testing
@testable import Queue

@Suite("Offline renderer")
struct FileRendererTests {
    /// Renders `input` to a new 16-bit file, pipelined or not; returns the output's samples.
    func render(_ input: String, to output: String, settings: RenderSettings, pipelined: Bool,
                rate: Double = 48_000) throws -> [Fixed824] {
        let source = try AudioFile.open(path: input)
        let sink = try AudioFile.create(path: output, type: .wave,
                                        format: .linearPCM(sampleRate: rate, channels: 2, bits: 16))
        let renderer = try FileRenderer(input: source, output: sink, settings: settings)
        renderer.pipelined = pipelined
        let written = try renderer.run()
        try sink.close()
        let back = try readAll(try AudioFile.open(path: output))
        #expect(Int64(back.count / 2) == written)
        return back
    }

    /// The two-thread pipeline hands the EQ over between threads in its wide format: bit-identical output
    /// to the same chain on one thread, with and without rate conversion and a limiter, over several blocks
    /// (so the reader refills buffers while the caller still works on earlier ones).
    @Test(arguments: [
        RenderSettings(preset: EQPreset.named("rock"), dither: true),
        RenderSettings(preset: EQPreset.named("loudness"), gainDB: 4, limit: true, dither: true),
        RenderSettings(preset: EQPreset.named("bass booster"), outputRate: 44_100, dither: true),
    ])
    func pipelinedRenderEqualsOneThread(settings: RenderSettings) throws {
        let dir = TemporaryDirectory()
        // Two whole blocks and a ragged end.
        try writeFile(dir.file("in.wav"), type: .wave, format: .linearPCM(sampleRate: 48_000, channels: 2, bits: 24),
                      samples: testSignal(frames: 2 * FileRenderer.blockFrames + 1_500, channels: 2))
        let rate = Double(settings.outputRate ?? 48_000)
        let one = try render(dir.file("in.wav"), to: dir.file("one.wav"), settings: settings, pipelined: false, rate: rate)
        let two = try render(dir.file("in.wav"), to: dir.file("two.wav"), settings: settings, pipelined: true, rate: rate)
        #expect(one.count > 0)
        #expect(two == one)
    }

    /// The EQ in the render is the player's EQ: without dither, the one-thread render equals the preset's
    /// cascade applied to the whole input at once.
    @Test func renderedEQIsThePresetsCascade() throws {
        let dir = TemporaryDirectory()
        let input = testSignal(frames: 9000, channels: 2)
        try writeFile(dir.file("in.wav"), type: .wave, format: .linearPCM(sampleRate: 48_000, channels: 2, bits: 32),
                      samples: input)
        let source = try AudioFile.open(path: dir.file("in.wav"))
        let sink = try AudioFile.create(path: dir.file("out.wav"), type: .wave,
                                        format: .linearPCM(sampleRate: 48_000, channels: 2, bits: 32))
        try FileRenderer(input: source, output: sink, settings: RenderSettings(preset: EQPreset.named("jazz"))).run()
        try sink.close()
        var expected = try readAll(try AudioFile.open(path: dir.file("in.wav")))
        expected.withUnsafeMutableBufferPointer {
            EQPreset.named("jazz")!.design(sampleRate: 48_000).makeCascade(channels: 2).process($0)
        }
        // 32-bit files keep 8.24 exactly, so the comparison is exact.
        #expect(try readAll(try AudioFile.open(path: dir.file("out.wav"))) == expected)
    }
}

/// The renderer's exact path, the one `appliance convert` and `render` take when nothing but the data format
/// changes, checked against sox (which reads integer files up to 32 bits exactly).
@Suite("Exact conversion")
struct ExactConversionTests {
    @Test func s32ToS32AndS16ToS24AreSampleForSampleWhatSoxReads() throws {
        guard toolAvailable("sox") else { return }
        let directory = TemporaryDirectory()
        for (bits, to) in [(32, StreamFormat.linearPCM(sampleRate: 48_000, channels: 2, bits: 32, isBigEndian: true)),
                           (16, StreamFormat.linearPCM(sampleRate: 48_000, channels: 2, bits: 24))] {
            let input = directory.file("in\(bits).wav")
            try run("sox", ["-R", "-n", "-r", "48000", "-c", "2", "-b", "\(bits)", "-e", "signed-integer", input,
                            "synth", "0.5", "whitenoise", "gain", "-30"])
            let output = directory.file("out\(bits).\(to.isBigEndian ? "aifc" : "wav")")
            let sink = try AudioFile.create(path: output, type: to.isBigEndian ? .aifc : .wave, format: to)
            let renderer = try FileRenderer(input: try AudioFile.open(path: input), output: sink, settings: RenderSettings())
            #expect(try renderer.run() == 24_000)
            try sink.close()
            let reference = try soxSamples(input)
            if bits == 32 { #expect(reference.contains { $0 & 0x7F != 0 }, "low bits 8.24 cannot hold") }
            #expect(try soxSamples(output) == reference, "s\(bits) -> \(to)")
        }
    }
}
