import Codec8_24
import Foundation
import TestSupport
import Testing
@testable import Queue

/// An album cut from one sine plays back as the unbroken sine when the LAME tag's delay and padding are
/// removed, and audibly does not when they are kept.
@Suite struct MP3GaplessTests {
    static let frames = 88200                  // 2 s at 44.1 kHz
    static let cuts = [0, 29000, 61111, frames]  // not on 1152-sample frame boundaries

    /// The album's decode, track after track, with or without gapless trimming.
    static func album(_ directory: TemporaryDirectory, gapless: Bool) throws -> [Int32] {
        var samples: [Int32] = []
        for track in 0..<(cuts.count - 1) {
            let reader = try MP3FileReader(LibraryInput(FileDescriptor.open(directory.file("\(track).mp3"), writable: false)), gapless: gapless)
            let (decoded, error) = MP3Fixtures.decode(reader)
            #expect(error == nil)
            samples += decoded
        }
        return samples
    }

    @Test func albumCutFromOneSinePlaysWithoutGaps() throws {
        let directory = TemporaryDirectory()
        let whole = directory.file("sine.wav")
        try MP3Fixtures.sine(whole, frames: Self.frames, frequency: 440)
        for track in 0..<(Self.cuts.count - 1) {
            let wav = directory.file("\(track).wav")
            try ReferenceTool.run("sox", [whole, wav, "trim", "\(Self.cuts[track])s", "\(Self.cuts[track + 1] - Self.cuts[track])s"])
            try MP3Fixtures.encode(wav, directory.file("\(track).mp3"), ["-V2"])
        }
        let sine = try soxSamples(whole).map { $0 >> 7 }   // 16-bit in 32, as 8.24
        let gapless = try Self.album(directory, gapless: true)
        #expect(gapless.count == Self.frames * 2)
        #expect(gapless.count == sine.count)

        // In time with the sine: away from the track edges (one frame), every sample is the sine's within the
        // coding error (lame -V2 on a 440 Hz tone: measured 0.0005 of full scale; 2^-10 allowed).
        let codingError: Int64 = 1 << 14
        #expect(Self.largestErrorAwayFromEdges(gapless, sine) <= codingError)
        // At each join the step is no larger than in FFmpeg's gapless decode of the same tracks, within the
        // decoders' tolerance: what remains there is lame's own edge error (each track is coded alone, after
        // silence), the same for every gapless decoder.
        var reference: [Int32] = []
        for track in 0..<(Self.cuts.count - 1) { reference += try MP3Fixtures.ffmpeg824(directory.file("\(track).mp3")) }
        #expect(reference.count == sine.count)
        for join in Self.cuts.dropFirst().dropLast() {
            let step = MP3Fixtures.largestStep(gapless, channels: 2, from: join - 64, to: join + 64)
            let referenceStep = MP3Fixtures.largestStep(reference, channels: 2, from: join - 64, to: join + 64)
            #expect(step <= referenceStep + MP3FileReaderTests.tolerance, "the step at the join at frame \(join)")
        }

        // The same album with the priming and padding kept: longer, out of time with the sine after the first
        // track's start, so the checks above fail.
        let gappy = try Self.album(directory, gapless: false)
        #expect(gappy.count > Self.frames * 2)
        #expect(Self.largestErrorAwayFromEdges(gappy, sine) > codingError)
    }

    /// The largest difference between `decoded` and `sine` (left channel), leaving out 1152 frames on each side
    /// of every track edge.
    static func largestErrorAwayFromEdges(_ decoded: [Int32], _ sine: [Int32]) -> Int64 {
        var largest: Int64 = 0
        for track in 0..<(cuts.count - 1) {
            for f in (cuts[track] + 1152)..<(cuts[track + 1] - 1152) where 2 * f < decoded.count {
                largest = max(largest, abs(Int64(decoded[2 * f]) - Int64(sine[2 * f])))
            }
        }
        return largest
    }
}
