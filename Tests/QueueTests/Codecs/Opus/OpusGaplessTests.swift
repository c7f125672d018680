import Codec8_24
import Foundation
import TestSupport
import Testing
@testable import Queue

/// Gapless: a sine cut in three, each part encoded by opusenc, decoded back to back, is the unbroken sine.
struct OpusGaplessTests {
    @Test("three opusenc'd parts of one sine play back to back without a step at the joins")
    func gaplessAlbum() throws {
        let directory = TemporaryDirectory()
        let whole = directory.file("whole.wav")
        // 1.5 s of 440 Hz at 44.1 kHz, amplitude 0.5; each part 22050 frames (0.5 s: 24000 at 48 kHz).
        try ReferenceTool.run("sox", ["-n", "-r", "44100", "-c", "1", "-b", "16", whole, "synth", "1.5", "sine", "440", "vol", "0.5"])
        var album: [Fixed824] = []
        var joins: [Int] = []
        for part in 0..<3 {
            let wav = directory.file("part\(part).wav")
            try ReferenceTool.run("sox", [whole, wav, "trim", "\(22050 * part)s", "22050s"])
            let opus = directory.file("part\(part).opus")
            try ReferenceTool.run("opusenc", ["--quiet", "--bitrate", "128", wav, opus])
            let reader = try OpusFixture.open(opus)
            #expect(reader.info.frameCount == 24000)   // 22050 frames * 48000 / 44100
            album += OpusFixture.decode(reader).samples
            joins.append(album.count)
        }
        #expect(album.count == 72000)
        // The closed-form sine at 48 kHz; opusenc's resampler and pre-skip keep its phase. Lossy at 128 kb/s on a
        // pure tone: within 0.01 of it everywhere except the first 5 ms (the encoder's start from silence).
        var worst = 0.0
        var worstAtJoin = 0.0
        for n in 240..<album.count {
            let ideal = 0.5 * sin(2 * Double.pi * 440 * Double(n) / 48000)
            let error = abs(album[n].doubleValue - ideal)
            worst = max(worst, error)
            if joins.dropLast().contains(where: { abs($0 - n) < 480 }) { worstAtJoin = max(worstAtJoin, error) }
        }
        #expect(worst < 0.01, "largest difference from the sine: \(worst)")
        #expect(worstAtJoin < 0.01, "largest difference within 10 ms of a join: \(worstAtJoin)")
        // No step: sample to sample the sine moves at most 2 pi 440 / 48000 * 0.5 = 0.0288.
        for join in joins.dropLast() {
            let step = abs(album[join].doubleValue - album[join - 1].doubleValue)
            #expect(step < 0.0288 + 0.01, "step \(step) at the join at frame \(join)")
        }
    }
}
