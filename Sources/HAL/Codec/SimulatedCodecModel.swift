/// The simulated twin of a codec chip: its control port on a `SimulatedRegisterBus` (register map, reset
/// values, what a write does) and the analog state its registers imply, in words
/// (`headphones: powered at -20.0 dB`), so a simulated board can be looked at like a real one.
public protocol SimulatedCodecModel: AnyObject, Sendable {
    var bus: SimulatedRegisterBus { get }
    /// One line per block of the chip: clocks, converters, outputs, inputs. `streamRate` is the rate the
    /// SoC's I2S runs at, for chips that take their clock from the bit clock.
    func describeState(streamRate: Int?) -> String
}

extension WM8960Model: SimulatedCodecModel {
    public func describeState(streamRate: Int?) -> String { state.description }
}

extension WM8731Model: SimulatedCodecModel {
    public func describeState(streamRate: Int?) -> String { state.description }
}

extension PCM512xModel: SimulatedCodecModel {
    public func describeState(streamRate: Int?) -> String { state(streamRate: streamRate).description }
}

extension SGTL5000Model: SimulatedCodecModel {
    public func describeState(streamRate: Int?) -> String { state.description }
}
