import HAL

/// The board's playback and capture PCMs, opened when the appliance needs them (the format comes from
/// what plays or records): the simulated sound card for the name `simulated`, ALSA for any other name. An
/// override (`--pcm default`) sends the simulated board's audio through a real ALSA PCM, so a newcomer
/// hears it.
public final class BoardPCMs: @unchecked Sendable {
    /// The name the simulated sound card answers to.
    public static let simulatedName = "simulated"

    public let playbackName: String
    /// Nil on a DAC-only board.
    public let captureName: String?
    /// The simulated card (both directions, each opened once at a time, like a `hw:` device).
    public let simulatedCard: SimulatedPCMHardware
    /// The clock simulated streams are paced by.
    public let clock: any MonotonicClock
    /// On the simulated card with loopback: what plays comes back on capture.
    public let loopback: LoopbackTap?

    public init(_ names: PCMNames, override: String? = nil, loopback: Bool = false, clock: any MonotonicClock) {
        playbackName = override ?? names.playback
        captureName = names.capture == nil ? nil : (override ?? names.capture)
        simulatedCard = .i2sCodec(name: Self.simulatedName)
        self.clock = clock
        let simulated = playbackName == Self.simulatedName && (captureName ?? Self.simulatedName) == Self.simulatedName
        self.loopback = loopback && simulated ? LoopbackTap() : nil
    }

    public var isSimulated: Bool { playbackName == Self.simulatedName }

    /// Opens the playback stream. The simulated card discards what it plays (or loops it back).
    public func openPlayback(_ configuration: PCMConfiguration) throws(BoardDeviceError) -> any PCMDevice {
        do {
            guard playbackName == Self.simulatedName else {
                return try ALSAPCM(name: playbackName, direction: .playback, configuration: configuration)
            }
            let device = try SimulatedPCM(hardware: simulatedCard, direction: .playback, configuration: configuration,
                                          clock: clock, playback: .discard)
            return loopback.map { LoopbackPlaybackPCM(device: device, tap: $0) } ?? device
        } catch {
            throw .pcm(error)
        }
    }

    /// Opens the capture stream: silence on the simulated card, or what plays with loopback.
    public func openCapture(_ configuration: PCMConfiguration) throws(BoardDeviceError) -> any PCMDevice {
        guard let captureName else {
            throw .pcm(.noSuchDevice(name: playbackName, direction: .capture, errno: .noSuchFile,
                                     detail: "the board file names no capture PCM (a DAC-only board)"))
        }
        var capture = SimulatedPCM.Capture.silence
        if captureName == Self.simulatedName, let loopback {
            if let played = loopback.format,
               played.format != configuration.format || played.channels != configuration.channels {
                throw .loopback("it carries \(played.format) \(played.channels) ch, as playback runs; capture asked for "
                                + "\(configuration.format) \(configuration.channels) ch: open capture in the playback's format")
            }
            capture = .generator { _, frames in loopback.take(into: frames) }
        }
        do {
            guard captureName == Self.simulatedName else {
                return try ALSAPCM(name: captureName, direction: .capture, configuration: configuration)
            }
            return try SimulatedPCM(hardware: simulatedCard, direction: .capture, configuration: configuration,
                                    clock: clock, capture: capture)
        } catch {
            throw .pcm(error)
        }
    }
}
