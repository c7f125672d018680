import HAL

/// A playback PCM whose accepted frames also go into a `LoopbackTap`; everything else is the device's own.
final class LoopbackPlaybackPCM: PCMDevice, @unchecked Sendable {
    let device: any PCMDevice
    let tap: LoopbackTap

    init(device: any PCMDevice, tap: LoopbackTap) {
        self.device = device
        self.tap = tap
        tap.playbackOpened(device.parameters)
    }

    var name: String { device.name }
    var direction: PCMDirection { device.direction }
    var parameters: PCMParameters { device.parameters }
    var capabilities: PCMCapabilities { device.capabilities }
    var canPause: Bool { device.canPause }
    var xruns: PCMXruns { device.xruns }
    var state: PCMState { device.state }

    func write(_ frames: UnsafeRawBufferPointer) throws(PCMError) -> Int {
        let written = try device.write(frames)
        tap.put(UnsafeRawBufferPointer(rebasing: frames.prefix(written * parameters.bytesPerFrame)),
                frameBytes: parameters.bytesPerFrame)
        return written
    }

    func read(into frames: UnsafeMutableRawBufferPointer) throws(PCMError) -> Int { try device.read(into: frames) }
    func wait(timeout: Duration?) throws(PCMError) -> Bool { try device.wait(timeout: timeout) }
    func available() throws(PCMError) -> Int { try device.available() }
    func delay() throws(PCMError) -> Int { try device.delay() }
    func framePosition() throws(PCMError) -> PCMFramePosition { try device.framePosition() }
    func start() throws(PCMError) { try device.start() }
    func drop() throws(PCMError) { try device.drop() }
    func drain() throws(PCMError) { try device.drain() }
    func pause() throws(PCMError) { try device.pause() }
    func resume() throws(PCMError) { try device.resume() }
    func recover(from error: PCMError) throws(PCMError) { try device.recover(from: error) }

    func close() {
        device.close()
        tap.playbackOpened(nil)
    }
}
