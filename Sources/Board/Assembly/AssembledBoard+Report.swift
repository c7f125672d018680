import HAL

extension AssembledBoard {
    /// What came up, one `name: value` line each, for the console's `board` command (the board file's own
    /// fields are `config.readableDescription`).
    public var reportLines: [String] {
        var lines = ["board: \(config.name)" + (isSimulated ? " (simulated: no hardware)" : "") + " - \(config.description)"]
        let target = codec.bus.target
        lines.append("codec: \(codec.chip.displayName) " + (isSimulated ? "twin " : "") + "on \(target)")
        let capture = pcms.captureName.map { "capture \($0)" } ?? "no capture"
        lines.append("pcm: playback \(pcms.playbackName), \(capture)" + (pcms.loopback != nil ? " (loopback)" : ""))
        let chip = (try? gpio.controller.chip(gpio.chip)).map(\.description) ?? "\(gpio.chip)"
        lines.append("gpio: \(chip)" + (gpio.simulated != nil ? " (simulated)" : ""))
        lines.append("jack: " + (jack.map { "\($0.state)" } ?? "not sensed (\(config.jack))"))
        if let amplifier {
            lines.append("amplifier: \(amplifier.isOn ? "on" : "off") (\(amplifier.config.control) on GPIO\(amplifier.config.line) "
                         + "\(amplifier.config.active))")
        } else {
            lines.append("amplifier: none")
        }
        lines += leds.statusLines.map { "led \($0)" }
        return lines
    }
}
