import HAL
@testable import Queue

/// The simulated board's audio: the I2S codec HAT as `SimulatedPCMHardware.i2sCodec()` describes it
/// (8-96 kHz, stereo, periods 16-8192 frames), an onboard mic and line in on its ADC.
enum SessionFixture {
    static let codec = SimulatedPCMHardware.i2sCodec().capabilities

    /// A device that runs only at `rates`, with `channels` channels.
    static func device(rates: [Int], channels: ClosedRange<Int> = 1...1) -> PCMCapabilities {
        PCMCapabilities(formats: [.s16LE], channels: channels, rates: rates.min()!...rates.max()!, standardRates: rates,
                        periodFrames: 16...8192, bufferFrames: 32...65536, canPause: false, canResume: false)
    }

    /// The device's state before any session: 48 kHz, 1024-frame periods, stereo out, no capture.
    static let initial = HardwareSettings(sampleRate: 48000, ioBufferFrames: 1024, outputChannels: 2)

    static func coordinator(jack: JackState = .unplugged, headsetMic: PCMCapabilities = codec,
                            builtIn: [CodecInput] = [.microphone, .line]) -> SessionCoordinator {
        SessionCoordinator(capabilities: HardwareCapabilities(output: codec, inputs: [.microphone: codec, .line: codec, .headsetMicrophone: headsetMic]),
                           builtInInputs: builtIn, hardware: initial, jack: jack)
    }

    static let speaker = AudioRoute(outputs: [.speaker])
    static let headphones = AudioRoute(outputs: [.headphones])

    /// The notifications among `actions`, in order.
    static func notifications(_ actions: [SessionAction]) -> [(SessionID, SessionNotification)] {
        actions.compactMap { if case .notify(let id, let notification) = $0 { (id, notification) } else { nil } }
    }

    /// The route changes delivered to `id`.
    static func routeChanges(_ actions: [SessionAction], to id: SessionID) -> [RouteChange] {
        notifications(actions).compactMap { if $0.0 == id, case .routeChanged(let change) = $0.1 { change } else { nil } }
    }
}
