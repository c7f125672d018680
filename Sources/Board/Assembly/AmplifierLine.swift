import HAL

/// The speaker amplifier's control line. It starts with the amplifier off (an enable line deasserted, a
/// mute line asserted), so the speaker neither hisses nor thumps while the codec powers up, and changes only
/// when told: the route policy turns it on while the speaker is the route.
public final class AmplifierLine {
    public let config: AmplifierConfig
    private let line: any GPIOOutputLine
    public private(set) var isOn = false

    public init(_ config: AmplifierConfig, gpio: BoardGPIO) throws(BoardDeviceError) {
        self.config = config
        do {
            line = try gpio.controller.requestOutput(
                .offset(config.line), on: gpio.chip,
                GPIOOutputConfig(initialValue: Self.asserted(on: false, config.control), activeLow: config.active.isLow))
        } catch {
            throw .gpio(what: "the amplifier's \(config.control) line GPIO\(config.line)", error)
        }
    }

    /// Whether the line is asserted (at its active level) when the amplifier is to be `on`: an enable line
    /// while on, a mute line while off.
    public static func asserted(on: Bool, _ control: AmplifierControl) -> Bool {
        control == .enable ? on : !on
    }

    /// Turns the amplifier on (the speaker plays) or off.
    public func set(on: Bool) throws(BoardDeviceError) {
        do {
            try line.setValue(Self.asserted(on: on, config.control))
        } catch {
            throw .gpio(what: "the amplifier's \(config.control) line GPIO\(config.line)", error)
        }
        isOn = on
    }

    public func release() { line.release() }
}
