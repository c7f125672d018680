import Codec8_24
import HAL
import Synchronization
@testable import Queue

/// Pulls the system-sound voices period by period, as the engine's output unit would, on a timeline that
/// starts at frame 0.
final class VoicePuller {
    let voices: SystemSoundVoices
    private(set) var sampleTime: Int64 = 0

    init(_ voices: SystemSoundVoices) { self.voices = voices }

    /// Renders one period of `frames` frames; returns its interleaved stereo samples.
    @discardableResult
    func render(_ frames: Int) -> [Fixed824] {
        var buffer = [Fixed824](repeating: Fixed824(raw: 12345), count: frames * 2)   // garbage: the source must clear it
        _ = buffer.withUnsafeMutableBufferPointer { pointer in
            voices.render(frames: frames, into: pointer.baseAddress!, at: RenderTime(sampleTime: sampleTime, hostTime: .zero))
        }
        sampleTime += Int64(frames)
        return buffer
    }

    /// Renders `total` frames in periods of `period`.
    func render(total: Int, period: Int) -> [Fixed824] {
        var out: [Fixed824] = []
        var left = total
        while left > 0 {
            out += render(min(period, left))
            left -= period
        }
        return out
    }
}

/// Collects completions (from whatever thread delivers them).
final class CompletionLog: Sendable {
    private let entries = Mutex<[SystemSoundCompletion]>([])
    var all: [SystemSoundCompletion] { entries.withLock { $0 } }
    var handler: SystemSoundCompletionHandler { { [self] completion in entries.withLock { $0.append(completion) } } }
}

/// A constant (DC) mono clip: easy to see in a mix, and its fade is a straight line.
func constantClip(_ value: Double, frames: Int, rate: Int = 48_000) throws -> SoundClip {
    try SoundClip(samples: [Fixed824](repeating: Fixed824(value), count: frames), channels: 1, sampleRate: rate)
}

/// A ramp 1, 2, 3 ... (raw 8.24 units) so every frame is distinct and sums show exactly.
func rampClip(frames: Int, channels: Int, start: Int32, rate: Int = 48_000) throws -> SoundClip {
    try SoundClip(samples: (0..<(frames * channels)).map { Fixed824(raw: start + Int32($0)) }, channels: channels,
                  sampleRate: rate)
}

/// A render host that records what attaches (the real engine lives on its own branch).
final class RecordingHost: RenderHost, @unchecked Sendable {
    let outputRate: Int
    var inputRate: Int? { nil }
    var inputChannels: Int? { nil }
    let maximumFrames = 1024
    let timeline: DeviceTimeline
    private(set) var sources: [any RenderSource] = []

    init(rate: Int) {
        outputRate = rate
        timeline = DeviceTimeline(sampleRate: rate)
    }

    func attach(_ source: any RenderSource) throws {
        try source.prepare(engineRate: outputRate, maximumFrames: maximumFrames)
        sources.append(source)
    }

    func detach(_ source: any RenderSource) { sources.removeAll { $0 === source } }
    func attach(_ sink: any CaptureSink) throws {}
    func detach(_ sink: any CaptureSink) {}
}
