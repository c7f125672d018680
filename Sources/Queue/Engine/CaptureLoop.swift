import Codec8_24
import HAL
import Synchronization

/// The input unit, on the capture render thread: read a period of device-format frames, widen them to 8.24
/// (exactly for S16 and S24; S32 and float keep the 8.24 format's 24 fraction bits) and hand them to every attached
/// `CaptureSink` with the period's place on the device clock. Sinks come and go through the same slot
/// hand-over as sources (`EngineSlots`); a detached sink gets nothing from the next period on.
final class CaptureLoop: @unchecked Sendable {
    /// The PCM read from; replaced (`replace(device:)`) only while the thread is not running.
    private(set) var device: any PCMDevice
    let sinks: EngineSlots<any CaptureSink>
    let format: PCMSampleFormat
    let channels: Int
    let rate: Int
    let periodFrames: Int
    let bytesPerFrame: Int
    private let bytes: UnsafeMutableRawPointer
    private let samples: UnsafeMutablePointer<Fixed824>
    private let inUse: UnsafeMutablePointer<Bool>
    let xruns = Atomic<Int>(0)
    let periods = Atomic<Int>(0)
    let stopping = Atomic<Bool>(false)
    private var seenDeviceXruns: Int
    private(set) var failure: PCMError?
    /// Set (releasing) once `failure` is written: the device failed and the capture has stopped reading.
    let failed = Atomic<Bool>(false)

    init(device: any PCMDevice, slots: Int) {
        self.device = device
        let parameters = device.parameters
        format = parameters.format
        channels = parameters.channels
        rate = parameters.rate
        periodFrames = parameters.periodFrames
        bytesPerFrame = parameters.bytesPerFrame
        sinks = EngineSlots(capacity: slots)
        bytes = .allocate(byteCount: periodFrames * bytesPerFrame, alignment: 16)
        samples = .allocate(capacity: periodFrames * channels)
        samples.initialize(repeating: .zero, count: periodFrames * channels)
        inUse = .allocate(capacity: slots)
        inUse.initialize(repeating: false, count: slots)
        seenDeviceXruns = device.xruns.count
    }

    deinit {
        bytes.deallocate()
        samples.deallocate()
        inUse.deallocate()
    }

    /// Control thread, while the loop's thread is not running: the same device opened again. Its parameters
    /// must be the old one's, which the buffers were sized for.
    func replace(device replacement: any PCMDevice) {
        precondition(replacement.parameters == device.parameters, "a replacement device must run the same parameters")
        device = replacement
        seenDeviceXruns = replacement.xruns.count
    }

    func prepareToStart() {
        stopping.store(false, ordering: .relaxed)
        seenDeviceXruns = device.xruns.count
        failure = nil
        failed.store(false, ordering: .releasing)
    }

    /// The thread's body: periods until asked to stop, the stream ends, or the device fails.
    func run() {
        while !stopping.load(ordering: .acquiring) {
            do {
                if try period() == 0 { return }
            } catch {
                return   // period() has kept the failure
            }
        }
    }

    /// Reads up to a period and feeds it to the sinks; returns the frames read (0: the stream has ended).
    @discardableResult
    func period() throws(PCMError) -> Int {
        do {
            return try readPeriod()
        } catch {
            failure = error
            failed.store(true, ordering: .releasing)
            throw error
        }
    }

    private func readPeriod() throws(PCMError) -> Int {
        applyCommands()
        var read = 0
        while read < periodFrames {
            let target = UnsafeMutableRawBufferPointer(start: bytes + read * bytesPerFrame,
                                                       count: (periodFrames - read) * bytesPerFrame)
            do {
                let count = try device.read(into: target)
                if count == 0 {
                    if device.state != .running { break }          // drained: end of stream
                    _ = try device.wait(timeout: nil)              // a non-blocking device with nothing yet
                }
                read += count
            } catch let error where error.isRecoverableStop {
                try device.recover(from: error)
            }
        }
        let deviceXruns = device.xruns.count
        if deviceXruns != seenDeviceXruns {
            xruns.add(deviceXruns &- seenDeviceXruns, ordering: .relaxed)
            seenDeviceXruns = deviceXruns
        }
        guard read > 0 else { return 0 }
        deliver(frames: read, at: captureTime(framesRead: read))
        periods.add(1, ordering: .releasing)
        return read
    }

    /// Where the frames just read sit on the device clock: the position counts every frame captured (lost
    /// ones included) up to the reading's time, minus those still waiting to be read, minus this block.
    private func captureTime(framesRead: Int) -> RenderTime {
        guard let position = try? device.framePosition() else {
            return RenderTime(sampleTime: 0, hostTime: .zero)
        }
        let waiting = Int64((try? device.delay()) ?? 0)
        let sampleTime = position.frame - waiting - Int64(framesRead)
        let behind = position.frame - sampleTime
        return RenderTime(sampleTime: sampleTime,
                          hostTime: position.time - .nanoseconds(behind * 1_000_000_000 / Int64(max(rate, 1))))
    }

    private func applyCommands() {
        while let command = sinks.nextCommand() {
            switch command {
            case let .attach(slot):
                inUse[slot] = true
            case let .detach(slot):
                inUse[slot] = false
                sinks.didRelease(slot)
            }
        }
    }

    /// Widens the device frames and hands them to every sink.
    private func deliver(frames: Int, at time: RenderTime) {
        let count = frames * channels
        let destination = UnsafeMutableBufferPointer(start: samples, count: count)
        switch format {
        case .s16LE: SampleConversion.widen(UnsafeBufferPointer(start: bytes.bindMemory(to: Int16.self, capacity: count), count: count), into: destination)
        case .s24LE: SampleConversion.widen(UnsafeBufferPointer(start: bytes.bindMemory(to: Int24In32.self, capacity: count), count: count), into: destination)
        case .s32LE: SampleConversion.widen(UnsafeBufferPointer(start: bytes.bindMemory(to: Int32.self, capacity: count), count: count), into: destination)
        case .float32LE: SampleConversion.widen(UnsafeBufferPointer(start: bytes.bindMemory(to: Float.self, capacity: count), count: count), into: destination)
        }
        for slot in 0..<sinks.capacity where inUse[slot] {
            sinks.object(slot)?.capture(frames: frames, from: samples, channels: channels, at: time)
        }
    }

    /// Control thread, no capture thread running: carries out pending attach/detach commands at once.
    func settle() {
        applyCommands()
        sinks.reclaim()
    }
}
