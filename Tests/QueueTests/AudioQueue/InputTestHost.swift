import Codec8_24
import HAL
@testable import Queue

/// A render host with a capture side and no device: `attach` prepares the sink as the engine would, and the
/// test feeds captured periods itself through `capture`, with the device timeline advancing by the frames fed.
final class InputTestHost: RenderHost, @unchecked Sendable {
    let outputRate: Int
    let inputRate: Int?
    let inputChannels: Int?
    let maximumFrames: Int
    let timeline: DeviceTimeline
    /// Attached sinks (attach, detach and capture all run on the test's thread).
    private var sinks: [CaptureSink] = []
    /// Device sample time of the next captured frame.
    private(set) var sampleTime: Int64 = 0

    init(rate: Int, channels: Int?, maximumFrames: Int = 256) {
        outputRate = rate
        inputRate = channels == nil ? nil : rate
        inputChannels = channels
        self.maximumFrames = maximumFrames
        timeline = DeviceTimeline(sampleRate: rate)
    }

    func attach(_ source: RenderSource) throws { try source.prepare(engineRate: outputRate, maximumFrames: maximumFrames) }
    func detach(_ source: RenderSource) {}

    func attach(_ sink: CaptureSink) throws {
        try sink.prepare(engineRate: inputRate!, channels: inputChannels!, maximumFrames: maximumFrames)
        sinks.append(sink)
    }

    func detach(_ sink: CaptureSink) { sinks.removeAll { $0 === sink } }

    var attachedSinks: Int { sinks.count }

    /// Feeds `samples` (interleaved, `inputChannels` wide) to every attached sink in periods of `period`
    /// frames (at most `maximumFrames`), as the input unit would.
    func capture(_ samples: [Fixed824], period: Int? = nil) {
        let channels = inputChannels!
        let period = min(period ?? maximumFrames, maximumFrames)
        let attached = sinks
        let total = samples.count / channels
        var offset = 0
        samples.withUnsafeBufferPointer { all in
            while offset < total {
                let frames = min(period, total - offset)
                let time = RenderTime(sampleTime: sampleTime,
                                      hostTime: Timestamp(nanoseconds: sampleTime * 1_000_000_000 / Int64(inputRate!)))
                for sink in attached { sink.capture(frames: frames, from: all.baseAddress! + offset * channels, channels: channels, at: time) }
                sampleTime += Int64(frames)
                offset += frames
            }
        }
    }
}
