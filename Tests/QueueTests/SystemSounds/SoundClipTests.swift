import Codec8_24
import Foundation
import HAL
import Testing
@testable import Queue

/// Registering sounds: the 30 s limit (core-audio-iphone-2008.md 1.1 and behaviour 21: "Registering a clip
/// of 30 s or longer is rejected"), conversion to the engine rate (SampleRateConverter's documented contract:
/// ceil(n·L/M) frames once its group delay is dropped), and files decoded as sox decodes them.
@Suite("System sound clips")
struct SoundClipTests {
    let clock = ManualClock()

    @Test func clipsOfThirtySecondsOrMoreAreRefused() throws {
        let rate = 8_000
        let limit = 30 * rate
        #expect(throws: SystemSoundError.self) {
            try SoundClip(samples: [Fixed824](repeating: .zero, count: limit), channels: 1, sampleRate: rate)
        }
        #expect(throws: SystemSoundError.self) {
            try SoundClip(samples: [Fixed824](repeating: .zero, count: 2 * limit), channels: 2, sampleRate: rate)
        }
        let longest = try SoundClip(samples: [Fixed824](repeating: .zero, count: limit - 1), channels: 1, sampleRate: rate)
        #expect(longest.frames == limit - 1)
        do throws(SystemSoundError) {
            _ = try SoundClip(samples: [Fixed824](repeating: .zero, count: limit), channels: 1, sampleRate: rate)
        } catch {
            guard case .tooLong(let frames, let clipRate) = error else { Issue.record("got \(error)"); return }
            #expect(frames == Int64(limit) && clipRate == rate)
            #expect(error.description.contains("shorter than 30 s"))
        }
    }

    @Test func badClipsGetClearErrors() {
        #expect(throws: SystemSoundError.self) { try SoundClip(samples: [], channels: 1, sampleRate: 48_000) }
        #expect(throws: SystemSoundError.self) { try SoundClip(samples: [.zero, .zero, .zero], channels: 3, sampleRate: 48_000) }
        #expect(throws: SystemSoundError.self) { try SoundClip(samples: [.zero, .zero, .zero], channels: 2, sampleRate: 48_000) }
        let odd = try? SoundClip(samples: [.one], channels: 1, sampleRate: 12_345)
        #expect(throws: SystemSoundError.self) { try odd?.converted(to: 48_000) }
    }

    /// A clip at 44.1 kHz on a 48 kHz engine becomes ceil(n·160/147) frames (44100/48000 = 147/160), and a
    /// 1 kHz sine stays 1 kHz: 2·f·T zero crossings in T seconds.
    @Test(arguments: [1_000, 4_410, 44_099])
    func aClipAt44100IsConvertedForA48000Engine(frames: Int) throws {
        let sine = (0..<frames).map { Fixed824(0.5 * sin(2 * Double.pi * 1_000 * Double($0) / 44_100)) }
        let player = SystemSoundPlayer(sampleRate: 48_000, clock: clock)
        let id = try player.register(SoundClip(samples: sine, channels: 1, sampleRate: 44_100))
        let clip = try #require(player.clip(id))
        #expect(clip.frames == (frames * 160 + 146) / 147)
        #expect(clip.sampleRate == 48_000)
        // Away from the ends (the filter's ramps), crossings match 1 kHz at 48 kHz.
        let inner = clip.samples.dropFirst(100).dropLast(100).map(\.doubleValue)
        var crossings = 0
        for (a, b) in zip(inner, inner.dropFirst()) where (a < 0) != (b < 0) { crossings += 1 }
        let expected = 2 * 1_000 * Double(inner.count) / 48_000
        #expect(abs(Double(crossings) - expected) <= 2, "\(crossings) crossings, expected \(expected)")
    }

    /// A file is decoded to exactly the samples sox reads from it (16-bit s << 9 is the 8.24 value).
    @Test func aFileIsDecodedAsSoxDecodesIt() throws {
        guard toolAvailable("sox") else { return }
        let dir = TemporaryDirectory()
        let path = dir.file("chime.wav")
        try run("sox", ["-n", "-r", "48000", "-c", "2", "-b", "16", path, "synth", "0.25", "sine", "660", "sine", "990", "vol", "0.5"])
        let player = SystemSoundPlayer(sampleRate: 48_000, clock: clock)
        let id = try player.register(file: AudioFile.open(path: path))
        let clip = try #require(player.clip(id))
        let reference = try soxSamples(path)
        #expect(clip.channels == 2 && clip.frames == 12_000)
        #expect(clip.samples.map(\.raw) == reference.map { $0 >> 7 })
    }

    /// A file's length is checked from its header: 30 s at 8 kHz is refused, one frame less is taken.
    @Test func aThirtySecondFileIsRefused() throws {
        guard toolAvailable("sox") else { return }
        let dir = TemporaryDirectory()
        try run("sox", ["-r", "8000", "-n", "-r", "8000", "-c", "1", "-b", "16", dir.file("long.wav"), "synth", "240000s", "sine", "440"])
        try run("sox", ["-r", "8000", "-n", "-r", "8000", "-c", "1", "-b", "16", dir.file("ok.wav"), "synth", "239999s", "sine", "440"])
        let player = SystemSoundPlayer(sampleRate: 8_000, clock: clock)
        do throws(SystemSoundError) {
            _ = try player.register(file: try! AudioFile.open(path: dir.file("long.wav")))
            Issue.record("a 30 s file was accepted")
        } catch {
            guard case .tooLong(240_000, 8_000) = error else { Issue.record("got \(error)"); return }
        }
        let id = try player.register(file: AudioFile.open(path: dir.file("ok.wav")))
        #expect(player.clip(id)?.frames == 239_999)
    }

    /// Built-in sounds register at the engine rate, each with its own ID, none of them the vibrate ID.
    @Test func builtInSoundsRegisterAtTheEngineRate() {
        let player = SystemSoundPlayer(sampleRate: 44_100, clock: clock)
        let ids = BuiltInSound.allCases.map { player.register($0) }
        #expect(Set(ids).count == ids.count && !ids.contains(.vibrate))
        // The click's 5 ms at 44.1 kHz: round(220.5) frames.
        #expect(player.clip(ids[0])?.frames == 221)
    }
}
