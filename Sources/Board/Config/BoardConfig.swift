import HAL

/// A board, validated: what the board file says, with every default filled in. Built by
/// `BoardConfig.parse(_:file:)` from a board file; the lead's assembly turns it into a live device.
public struct BoardConfig: Hashable, Sendable {
    /// The name `appliance board show NAME` and `--board NAME` use.
    public var name: String
    public var description: String
    public var hat: HATMatch?
    public var codec: CodecConfig
    public var pcm: PCMNames
    /// The I2S frame the Pi runs (`i2s:`, two 32-bit slots unless the board says otherwise): the one source
    /// of the bit clock every codec's clocks derive from.
    public var i2s: I2SFrame
    public var gpioChip: GPIOChipChoice
    public var jack: DetectionSource
    public var microphone: DetectionSource
    public var buttons: [ButtonConfig]
    /// What holding the remote button does (`hold:`, seek unless the board says record).
    public var holdAction: HoldAction
    /// The button whose chords give the others a second function (`shift:`), if the board has one.
    public var shift: String?
    public var encoders: [EncoderConfig]
    public var amplifier: AmplifierConfig?
    public var leds: [LEDConfig]
    public var volume: VolumeLimits
    public var route: DefaultRoute

    public init(name: String, description: String, hat: HATMatch? = nil, codec: CodecConfig, pcm: PCMNames,
                i2s: I2SFrame = .standard, gpioChip: GPIOChipChoice = .raspberryPiHeader, jack: DetectionSource = .none,
                microphone: DetectionSource = .none, buttons: [ButtonConfig] = [], amplifier: AmplifierConfig? = nil,
                leds: [LEDConfig] = [], volume: VolumeLimits, route: DefaultRoute, holdAction: HoldAction = .seek,
                shift: String? = nil, encoders: [EncoderConfig] = []) {
        self.name = name
        self.description = description
        self.hat = hat
        self.codec = codec
        self.pcm = pcm
        self.i2s = i2s
        self.gpioChip = gpioChip
        self.jack = jack
        self.microphone = microphone
        self.buttons = buttons
        self.holdAction = holdAction
        self.shift = shift
        self.encoders = encoders
        self.amplifier = amplifier
        self.leds = leds
        self.volume = volume
        self.route = route
    }
}
