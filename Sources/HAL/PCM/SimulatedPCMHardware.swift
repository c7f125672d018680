import Synchronization

/// The sound card a `SimulatedPCM` opens: what it offers, how it rounds periods, and whether it is in use
/// or unplugged. Like a `hw:` device it is exclusive per direction (a second open is EBUSY) and grants
/// only what it has; the refusals have the real backend's shape.
public final class SimulatedPCMHardware: Sendable {
    public let name: String
    public let formats: [PCMSampleFormat]
    /// The rates the device runs at (an I2S codec's clock tree gives a few discrete ones).
    public let rates: [Int]
    public let channels: ClosedRange<Int>
    public let periodFrames: ClosedRange<Int>
    /// Periods are rounded to a multiple of this (DMA burst alignment).
    public let periodStep: Int
    public let periodCounts: ClosedRange<Int>
    /// The DMA buffer's size limit in bytes.
    public let maxBufferBytes: Int
    public let canPause: Bool
    public let canResume: Bool

    /// Bit 0: a playback stream is open; bit 1: a capture stream.
    private let openStreams = Atomic<Int>(0)
    private let pluggedOut = Atomic<Bool>(false)

    public init(name: String, formats: [PCMSampleFormat], rates: [Int], channels: ClosedRange<Int>,
                periodFrames: ClosedRange<Int> = 16...8192, periodStep: Int = 16, periodCounts: ClosedRange<Int> = 2...32,
                maxBufferBytes: Int = 128 * 1024, canPause: Bool = true, canResume: Bool = false) {
        precondition(periodStep > 0 && !rates.isEmpty && !formats.isEmpty)
        self.name = name
        self.formats = formats
        self.rates = rates.sorted()
        self.channels = channels
        self.periodFrames = periodFrames
        self.periodStep = periodStep
        self.periodCounts = periodCounts
        self.maxBufferBytes = maxBufferBytes
        self.canPause = canPause
        self.canResume = canResume
    }

    /// A stereo I2S codec HAT as the Raspberry Pi's I2S controller drives it.
    public static func i2sCodec(name: String = "hw:0,0") -> SimulatedPCMHardware {
        SimulatedPCMHardware(name: name, formats: [.s16LE, .s24LE, .s32LE],
                             rates: [8000, 16000, 32000, 44100, 48000, 88200, 96000], channels: 2...2)
    }

    /// What the device offers, in the shape the real backend reports.
    public var capabilities: PCMCapabilities {
        let smallestFrame = (formats.map(\.bytesPerSample).min() ?? 2) * channels.lowerBound
        let maxBuffer = min(periodFrames.upperBound * periodCounts.upperBound, maxBufferBytes / max(smallestFrame, 1))
        return PCMCapabilities(formats: formats, channels: channels, rates: rates.first!...rates.last!,
                               standardRates: rates.filter(PCMCapabilities.commonRates.contains),
                               periodFrames: periodFrames,
                               bufferFrames: periodFrames.lowerBound * periodCounts.lowerBound...maxBuffer,
                               canPause: canPause, canResume: canResume)
    }

    /// The device is pulled out: open streams fail with ENODEV, new opens find no device.
    public func unplug() { pluggedOut.store(true, ordering: .sequentiallyConsistent) }
    /// The device is back; streams must be opened again.
    public func plugIn() { pluggedOut.store(false, ordering: .sequentiallyConsistent) }
    public var isPlugged: Bool { !pluggedOut.load(ordering: .sequentiallyConsistent) }

    /// Negotiates like alsa-lib's hw_params: format and channels exact, rate exact or nearest, period
    /// rounded to the step and clamped, period count clamped, buffer within the DMA limit.
    func grant(_ request: PCMConfiguration, direction: PCMDirection) throws(PCMError) -> PCMParameters {
        func refuse(_ parameter: PCMParameter, _ requested: String) -> PCMError {
            .refused(name: name, direction: direction, parameter: parameter, requested: requested, offered: capabilities)
        }
        guard formats.contains(request.format) else { throw refuse(.format, request.format.alsaName) }
        guard channels.contains(request.channels) else { throw refuse(.channels, "\(request.channels)") }
        var rate = request.rate
        if !rates.contains(rate) {
            guard request.allowsNearestRate, request.rate > 0 else { throw refuse(.rate, "\(request.rate) Hz") }
            rate = rates.min { abs($0 - request.rate) < abs($1 - request.rate) }!
        }
        let bytesPerFrame = request.format.bytesPerSample * request.channels
        var period = (max(request.periodFrames, 1) + periodStep / 2) / periodStep * periodStep
        period = min(max(period, periodFrames.lowerBound), periodFrames.upperBound)
        var count = min(max(request.periodCount, periodCounts.lowerBound), periodCounts.upperBound)
        while period * count * bytesPerFrame > maxBufferBytes && count > periodCounts.lowerBound { count -= 1 }
        while period * count * bytesPerFrame > maxBufferBytes && period - periodStep >= periodFrames.lowerBound {
            period -= periodStep
        }
        guard period * count * bytesPerFrame <= maxBufferBytes else {
            throw refuse(.buffer, "\(request.periodCount) periods of \(request.periodFrames) frames")
        }
        let buffer = period * count
        let start = request.startThreshold ?? (direction == .playback ? buffer : 1)
        return PCMParameters(format: request.format, rate: rate, channels: request.channels, periodFrames: period,
                             bufferFrames: buffer, startThreshold: max(start, 1), availMin: period)
    }

    /// Claims the direction, as the kernel's exclusive open does.
    func claim(_ direction: PCMDirection) throws(PCMError) {
        guard isPlugged else {
            throw PCMError.noSuchDevice(name: name, direction: direction, errno: .noDevice, detail: "device unplugged")
        }
        let bit = direction == .playback ? 1 : 2
        guard openStreams.bitwiseOr(bit, ordering: .acquiringAndReleasing).oldValue & bit == 0 else {
            let command = PCMHolder.readText("/proc/self/comm")?.split(separator: "\n").first.map(String.init) ?? "this process"
            throw PCMError.busy(name: name, direction: direction,
                                holders: [PCMHolder(pid: CurrentProcess.id, command: command, card: 0, device: 0, subdevice: 0)])
        }
    }

    func release(_ direction: PCMDirection) {
        openStreams.bitwiseAnd(direction == .playback ? ~1 : ~2, ordering: .releasing)
    }
}
