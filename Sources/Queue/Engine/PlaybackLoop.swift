import Codec8_24
import HAL
import Synchronization

/// The output render thread's work: once a period, read the device clock into the timeline, render the
/// period through the `OutputUnit`, fade where an underrun or a stop calls for it, and write it to the PCM.
/// The blocking write paces the loop at the device's rate.
final class PlaybackLoop: @unchecked Sendable {
    /// How the loop should end (set by the control thread).
    enum Ending: Int { case none = 0, fadeOut = 1 }

    let unit: OutputUnit
    /// The PCM written to; replaced (`replace(device:)`) only while the thread is not running.
    private(set) var device: any PCMDevice
    let timeline: DeviceTimeline
    let format: PCMSampleFormat
    let channels: Int
    let periodFrames: Int
    let bytesPerFrame: Int
    let fadeFrames: Int
    /// One period in the device format.
    private let buffer: UnsafeMutableRawPointer
    private var fade = OutputFade()
    /// Render thread: the ending's fade-out has begun.
    private var fadingOut = false
    /// The device's xrun count already accounted for.
    private var seenDeviceXruns: Int
    /// Xruns the engine saw (recovered by the PCM or by the engine), for any thread to read.
    let xruns = Atomic<Int>(0)
    /// Periods written, for any thread to read.
    let periods = Atomic<Int>(0)
    let ending = Atomic<Int>(Ending.none.rawValue)
    /// The error that ended the loop, read by the control thread after joining it.
    private(set) var failure: PCMError?
    /// Set (releasing) once `failure` is written: the device failed and the loop has ended.
    let failed = Atomic<Bool>(false)
    /// Timeline frames before the current device was opened (`replace(device:)`).
    private var positionOffset: Int64 = 0
    /// Test instrumentation (see `RenderWindow`).
    var window: RenderWindow?
    /// Each period's render time (written here, read after the thread is joined).
    let renderTimes = RenderTimeHistogram()

    init(unit: OutputUnit, device: any PCMDevice, timeline: DeviceTimeline, fadeFrames: Int) {
        self.unit = unit
        self.device = device
        self.timeline = timeline
        let parameters = device.parameters
        format = parameters.format
        channels = parameters.channels
        periodFrames = parameters.periodFrames
        bytesPerFrame = parameters.bytesPerFrame
        self.fadeFrames = fadeFrames
        buffer = .allocate(byteCount: periodFrames * bytesPerFrame, alignment: 16)
        buffer.initializeMemory(as: UInt8.self, repeating: 0, count: periodFrames * bytesPerFrame)
        seenDeviceXruns = device.xruns.count
    }

    deinit { buffer.deallocate() }

    /// Control thread, while the loop's thread is not running: the same device opened again (after it went
    /// away and came back). Its parameters must be the old one's, which the period buffer was sized for.
    func replace(device replacement: any PCMDevice) {
        precondition(replacement.parameters == device.parameters, "a replacement device must run the same parameters")
        device = replacement
        seenDeviceXruns = replacement.xruns.count
        // The new stream counts from 0; the timeline goes on from what was rendered into the old one.
        positionOffset = timeline.renderedFrames
    }

    /// A frame position of the current device on the engine's timeline.
    func timelineFrame(_ deviceFrame: Int64) -> Int64 { deviceFrame + positionOffset }

    /// Control thread, before the thread starts: the first period rises from silence.
    func prepareToStart() {
        ending.store(Ending.none.rawValue, ordering: .relaxed)
        fade.fadeIn(frames: fadeFrames)
        fadingOut = false
        seenDeviceXruns = device.xruns.count
        failure = nil
        failed.store(false, ordering: .releasing)
        renderTimes.reset()
    }

    /// The thread's body: periods until a requested fade-out has finished, or the device fails.
    func run() {
        while true {
            if !fadingOut && ending.load(ordering: .acquiring) == Ending.fadeOut.rawValue {
                fadingOut = true
                fade.fadeOut(frames: fadeFrames)
            }
            do {
                try period()
            } catch {
                failure = error
                failed.store(true, ordering: .releasing)
                return
            }
            if fadingOut && fade.isSilent { return }
        }
    }

    /// One period: timeline, render, fade, write.
    func period() throws(PCMError) {
        if let position = try? device.framePosition() {
            timeline.didPlay(through: timelineFrame(position.frame), at: position.time)
        }
        let sampleTime = timeline.renderedFrames
        let time = RenderTime(sampleTime: sampleTime, hostTime: timeline.hostTime(ofSample: sampleTime))
        window?.open()
        renderTimes.begin()
        unit.render(frames: periodFrames, at: time, into: buffer, format: format)
        renderTimes.end()
        window?.close()
        let brokenBeforeWrite = device.state == .xrun
        if brokenBeforeWrite && !fadingOut {
            // The device ran dry (or was stopped by an overrun); the write below recovers it, and the sound
            // that follows the gap rises instead of starting with a step.
            fade.fadeIn(frames: fadeFrames)
        }
        fade.apply(to: buffer, frames: periodFrames, channels: channels, format: format)
        try write(alreadyFaded: brokenBeforeWrite)
        timeline.didRender(frames: periodFrames)
        let deviceXruns = device.xruns.count
        if deviceXruns != seenDeviceXruns {
            xruns.add(deviceXruns &- seenDeviceXruns, ordering: .relaxed)
            seenDeviceXruns = deviceXruns
        }
        periods.add(1, ordering: .releasing)
    }

    /// Writes the whole period. A device that leaves xruns to its caller throws `.xrun` (or `.suspended` after
    /// a system sleep): recover it and fade
    /// in what is still to be written, which is what follows the gap (unless this period was faded in for
    /// the same xrun before the write).
    private func write(alreadyFaded: Bool) throws(PCMError) {
        var written = 0
        while written < periodFrames {
            let bytes = UnsafeRawBufferPointer(start: buffer + written * bytesPerFrame,
                                               count: (periodFrames - written) * bytesPerFrame)
            do {
                let count = try device.write(bytes)
                written += count
                if count == 0 { _ = try device.wait(timeout: nil) }   // a non-blocking device with no room
            } catch let error where error.isRecoverableStop {
                try device.recover(from: error)
                if case .xrun = error { xruns.add(1, ordering: .relaxed) }
                seenDeviceXruns = device.xruns.count
                if fadingOut || (alreadyFaded && written == 0) { continue }
                fade.fadeIn(frames: fadeFrames)
                fade.apply(to: buffer + written * bytesPerFrame, frames: periodFrames - written, channels: channels,
                           format: format)
            }
        }
    }
}

extension PCMError {
    /// An underrun/overrun or a suspend: the stream stopped and `recover(from:)` starts it again.
    var isRecoverableStop: Bool {
        switch self {
        case .xrun, .suspended: true
        default: false
        }
    }
}
