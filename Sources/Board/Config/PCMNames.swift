/// The ALSA PCM names the board's audio goes through (`hw:CARD=appliance,DEV=0` from the overlay, `default`, or
/// `simulated` for the simulated board). Capture is absent on DAC-only boards.
public struct PCMNames: Hashable, Sendable {
    public var playback: String
    public var capture: String?

    public init(playback: String, capture: String? = nil) {
        self.playback = playback
        self.capture = capture
    }
}
