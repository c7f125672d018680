import Codec8_24
import Foundation
import HAL
@testable import Queue

/// Test sources and sinks. Their `render`/`capture` write only into preallocated memory, so they keep the
/// real-time rules themselves (the probe test relies on that).

/// A stereo source whose frame at device-timeline frame n is `value(n)` on both channels: the output shows
/// whether frames arrive in order and whether `RenderTime` is right. Records every `RenderTime` it is given.
final class TimelineSource: RenderSource {
    let renderChannels = 2
    let times: UnsafeMutablePointer<RenderTime>
    let capacity: Int
    private(set) var calls = 0
    private(set) var preparedRate = 0

    init(capacity: Int = 4096) {
        self.capacity = capacity
        times = .allocate(capacity: capacity)
    }

    deinit { times.deallocate() }

    /// A 16-bit value that changes every frame and repeats only every 30,000 frames.
    static func value(_ frame: Int64) -> Int16 { Int16(frame % 30_000) - 15_000 }

    func prepare(engineRate: Int, maximumFrames: Int) throws { preparedRate = engineRate }

    func render(frames: Int, into buffer: UnsafeMutablePointer<Fixed824>, at time: RenderTime) -> Bool {
        if calls < capacity { times[calls] = time }
        calls += 1
        for i in 0..<frames {
            let sample = Fixed824(int16: Self.value(time.sampleTime + Int64(i)))
            buffer[2 * i] = sample
            buffer[2 * i + 1] = sample
        }
        return true
    }

    var recordedTimes: [RenderTime] { (0..<min(calls, capacity)).map { times[$0] } }
}

/// A constant (DC) source: every sample is `level`, on `channels` channels.
final class ConstantSource: RenderSource {
    let renderChannels: Int
    let level: Fixed824
    init(level: Fixed824, channels: Int = 2) {
        self.level = level
        renderChannels = channels
    }
    func prepare(engineRate: Int, maximumFrames: Int) throws {}
    func render(frames: Int, into buffer: UnsafeMutablePointer<Fixed824>, at time: RenderTime) -> Bool {
        buffer.update(repeating: level, count: frames * renderChannels)
        return true
    }
}

/// A sine from a table made in `prepare` (never in `render`), mono or stereo, at `hertz`.
final class SineSource: RenderSource {
    let renderChannels: Int
    let hertz: Double
    let amplitude: Double
    private var table: UnsafeMutablePointer<Fixed824>?
    private var length = 0
    private var phase = 0

    init(hertz: Double, amplitude: Double, channels: Int) {
        self.hertz = hertz
        self.amplitude = amplitude
        renderChannels = channels
    }

    deinit { table?.deallocate() }

    func prepare(engineRate: Int, maximumFrames: Int) throws {
        // One whole number of cycles per table: 1 s at the engine rate holds `hertz` cycles when it is whole.
        length = engineRate
        let table = UnsafeMutablePointer<Fixed824>.allocate(capacity: length)
        for i in 0..<length {
            let radians = 2 * Double.pi * hertz * Double(i) / Double(engineRate)
            table[i] = Fixed824(amplitude * sin(radians))
        }
        self.table = table
    }

    func render(frames: Int, into buffer: UnsafeMutablePointer<Fixed824>, at time: RenderTime) -> Bool {
        guard let table else { return false }
        for i in 0..<frames {
            let sample = table[phase]
            phase += 1
            if phase == length { phase = 0 }
            for c in 0..<renderChannels { buffer[i * renderChannels + c] = sample }
        }
        return true
    }
}

/// A source that breaks the rules on purpose: it allocates on every render (the probe must see it).
final class AllocatingSource: RenderSource {
    let renderChannels = 2
    var kept: [Int] = []
    func prepare(engineRate: Int, maximumFrames: Int) throws {}
    func render(frames: Int, into buffer: UnsafeMutablePointer<Fixed824>, at time: RenderTime) -> Bool {
        kept = Array(repeating: frames, count: 8)     // a new array each period
        buffer.update(repeating: .zero, count: frames * 2)
        return true
    }
}

/// A sink that keeps everything it is given (a test, not real time: it appends to arrays).
final class RecordingSink: CaptureSink {
    private(set) var samples: [Fixed824] = []
    private(set) var times: [RenderTime] = []
    private(set) var frameCounts: [Int] = []
    private(set) var preparedChannels = 0

    func prepare(engineRate: Int, channels: Int, maximumFrames: Int) throws { preparedChannels = channels }

    func capture(frames: Int, from samples: UnsafePointer<Fixed824>, channels: Int, at time: RenderTime) {
        self.samples.append(contentsOf: UnsafeBufferPointer(start: samples, count: frames * channels))
        times.append(time)
        frameCounts.append(frames)
    }
}
