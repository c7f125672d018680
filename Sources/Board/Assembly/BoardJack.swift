import HAL

extension GPIOChipChoice {
    /// The chip this choice means on `gpio`: for the header, the first chip with one of the header labels
    /// (a Pi 5 has RP1's, a Pi 4 the BCM2711's), so one board file serves every Pi.
    public func selector(on gpio: any GPIOController) throws(GPIOError) -> GPIOChipSelector {
        switch self {
        case .chip(let selector):
            return selector
        case .raspberryPiHeader:
            let chips = try gpio.chips()
            for label in Self.headerLabels where chips.contains(where: { $0.label == label }) {
                return .label(label)
            }
            throw .chipNotFound(.label(Self.headerLabels.joined(separator: " | ")), available: chips)
        }
    }
}

extension GPIOInputLine {
    /// The line as `DebouncedInputs` requests it.
    public var debouncedConfig: DebouncedLineConfig {
        DebouncedLineConfig(debounce: .milliseconds(debounceMilliseconds), activeLow: active.isLow, bias: bias)
    }
}

extension BoardConfig {
    /// How this board senses its jack, for `JackDetector`, with its lines on `chip`; nil when the board
    /// cannot tell (no jack signal, or one read from a codec status register the chip does not have).
    public func jackSensing(chip: GPIOChipSelector) -> JackSensing? {
        func source(_ detection: DetectionSource) -> JackSignalSource? {
            guard let line = detection.gpioLine else { return nil }
            return .gpio(chip: chip, line: .offset(line.line), line.debouncedConfig)
        }
        guard let plug = source(jack) else { return nil }
        return JackSensing(plug: plug, microphone: source(microphone))
    }
}
