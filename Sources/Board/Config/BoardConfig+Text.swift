/// The validated board, printed for people (`appliance board show`): every field, defaults filled in.
extension BoardConfig {
    public var readableDescription: String {
        var lines: [String] = []
        func add(_ label: String, _ value: String) {
            lines.append(label.padding(to: 14) + value)
        }
        add("name", name)
        add("description", description)
        add("hat", hat.map { "vendor '\($0.vendor)', product '\($0.product)'" } ?? "none (not auto-detected)")
        add("codec", "\(codec.chip) at \(BoardFieldReader.hex(codec.address)) on /dev/i2c-\(codec.bus)")
        add("  clock", "\(codec.clock), codec is clock \(codec.role.rawValue)")
        if let micBias = codec.micBias { add("  mic bias", "\(micBias)") }
        add("  control", codec.control == .appliance ? "appliance (driver over I2C)" : "kernel (ALSA mixer controls)")
        add("  outputs", codec.chip.outputs.map(\.rawValue).joined(separator: ", "))
        add("  inputs", codec.chip.inputs.isEmpty ? "none" : codec.chip.inputs.map(\.rawValue).joined(separator: ", "))
        add("i2s frame", "\(i2s)")
        add("pcm playback", pcm.playback)
        add("pcm capture", pcm.capture ?? "none")
        add("gpio chip", "\(gpioChip)")
        add("jack", "\(jack)")
        add("microphone", "\(microphone)")
        if buttons.isEmpty { add("buttons", "none") }
        for button in buttons {
            add("button", "\(button.name): \(button.role), \(button.input)")
            add("  gestures", "multi-click \(button.multiClickMilliseconds) ms, hold \(button.holdMilliseconds) ms, "
                    + "repeat \(button.repeatMilliseconds) ms")
        }
        add("hold", holdAction == .seek ? "seek (hold the remote to seek)" : "record (hold the remote to record)")
        add("shift", shift.map { "\($0) (shift + remote click: marker)" } ?? "none")
        if encoders.isEmpty { add("encoders", "none") }
        for encoder in encoders { add("encoder", "\(encoder.name): \(encoder)") }
        if let amplifier {
            add("amplifier", "\(amplifier.control) on GPIO\(amplifier.line) \(amplifier.active)")
        } else {
            add("amplifier", "none")
        }
        if leds.isEmpty { add("leds", "none") }
        for led in leds { add("led", "\(led.name): \(led.kind)") }
        add("volume", "max \(BoardFieldReader.decimal(volume.maximumDB)) dB, default \(BoardFieldReader.decimal(volume.defaultDB)) dB")
        add("route", "output \(route.output), input \(route.input.map(\.rawValue) ?? "none")")
        return lines.joined(separator: "\n")
    }
}

extension String {
    /// The string with spaces added up to `width` characters.
    func padding(to width: Int) -> String {
        count >= width ? self + " " : self + String(repeating: " ", count: width - count)
    }
}
