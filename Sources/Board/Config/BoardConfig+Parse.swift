import HAL

extension BoardConfig {
    /// The top-level keys of a board file.
    static let topLevelKeys = ["name", "description", "hat", "codec", "pcm", "i2s", "gpio", "jack", "microphone", "buttons",
                               "hold", "shift", "encoders", "amplifier", "leds", "volume", "route"]

    /// Reads and validates a board file. `file` names it in errors (the path as the user gave it).
    /// Throws every error found, in line order; a YAML syntax error stops reading at that line.
    public static func parse(_ text: String, file: String) throws(BoardConfigErrors) -> BoardConfig {
        let root: YAMLNode
        do throws(YAMLError) {
            root = try YAMLReader.parse(text, file: file)
        } catch {
            throw BoardConfigErrors([BoardConfigError(file: file, line: error.mark.line, field: "", message: error.message)])
        }
        let reader = BoardFieldReader(file: file)
        let board = BoardFileDecoder(reader: reader).decode(root)
        let errors = reader.errors.enumerated()
            .sorted { ($0.element.line, $0.offset) < ($1.element.line, $1.offset) }
            .map(\.element)
        guard errors.isEmpty, let board else {
            throw BoardConfigErrors(errors.isEmpty
                ? [BoardConfigError(file: file, line: 1, field: "", message: "not a board file")] : errors)
        }
        return board
    }
}

/// Turns the YAML tree into a `BoardConfig`, field by field, then runs the checks that span fields.
struct BoardFileDecoder {
    let reader: BoardFieldReader

    static let bias: [(String, GPIOBias)] = [("pull-up", .pullUp), ("pull-down", .pullDown), ("disabled", .disabled),
                                            ("as-is", .asIs)]
    static let role: [(String, CodecClockRole)] = [("provider", .provider), ("consumer", .consumer)]
    static let outputs: [(String, CodecOutput)] = CodecOutput.allCases.map { ($0.rawValue, $0) }
    static let inputs: [(String, CodecInput?)] = CodecInput.allCases.map { ($0.rawValue, $0) } + [("none", nil)]

    func decode(_ root: YAMLNode) -> BoardConfig? {
        guard let root = reader.mapping(root, "", known: BoardConfig.topLevelKeys) else { return nil }
        let name = reader.string(root, "name", "", required: true, hint: "lower-case letters, digits and '-'")
        if let name, let nameNode = root["name"],
           !name.allSatisfy({ ($0 >= "a" && $0 <= "z") || ($0 >= "0" && $0 <= "9") || $0 == "-" }) {
            reader.report(nameNode.line, "name", "'\(name)' is not a board name", hint: "lower-case letters, digits and '-'")
        }
        let description = reader.string(root, "description", "", required: true, hint: "one line saying what board this is")
        let hat = reader.value(root, "hat", "", required: false).flatMap(decodeHAT)
        let codec = reader.value(root, "codec", "", required: true, hint: "chip, address and mclk at least")
            .flatMap(decodeCodec)
        let pcm = reader.value(root, "pcm", "", required: true, hint: "the ALSA PCM names, playback at least")
            .flatMap(decodePCM)
        let i2s = reader.value(root, "i2s", "", required: false).map(decodeI2S) ?? .standard
        let gpioChip = reader.value(root, "gpio", "", required: false).map(decodeGPIO) ?? .raspberryPiHeader
        let jack = reader.value(root, "jack", "", required: false).map { decodeDetection($0, "jack") } ?? DetectionSource.none
        let microphone = reader.value(root, "microphone", "", required: false)
            .map { decodeDetection($0, "microphone") } ?? DetectionSource.none
        let buttons = reader.value(root, "buttons", "", required: false).map(decodeButtons) ?? []
        let holdAction = reader.choice(root, "hold", "", required: false,
                                       options: BoardFieldReader.options(HoldAction.self)) ?? .seek
        let shift = reader.string(root, "shift", "", required: false, hint: "the name of one of the buttons")
        let encoders = reader.value(root, "encoders", "", required: false).map(decodeEncoders) ?? []
        let amplifier = reader.value(root, "amplifier", "", required: false).flatMap(decodeAmplifier)
        let leds = reader.value(root, "leds", "", required: false).map(decodeLEDs) ?? []
        let volume = reader.value(root, "volume", "", required: true, hint: "max-db, the loudest the board may play")
            .flatMap(decodeVolume)
        let routeNode = reader.value(root, "route", "", required: false)
        guard let name, let description, let codec, let pcm, let volume else { return nil }
        var route = DefaultRoute(output: codec.chip.outputs.first ?? .line,
                                 input: pcm.capture == nil ? nil : codec.chip.inputs.first)
        if let routeNode { route = decodeRoute(routeNode, defaults: route) }
        let board = BoardConfig(name: name, description: description, hat: hat, codec: codec, pcm: pcm,
                                i2s: i2s, gpioChip: gpioChip, jack: jack, microphone: microphone, buttons: buttons,
                                amplifier: amplifier, leds: leds, volume: volume, route: route, holdAction: holdAction,
                                shift: shift, encoders: encoders)
        BoardConsistency(reader: reader, root: root).check(board)
        return board
    }

    func decodeHAT(_ node: YAMLNode) -> HATMatch? {
        guard let node = reader.mapping(node, "hat", known: ["vendor", "product"]) else { return nil }
        let vendor = reader.string(node, "vendor", "hat", required: true, hint: "as in /proc/device-tree/hat/vendor")
        let product = reader.string(node, "product", "hat", required: true, hint: "as in /proc/device-tree/hat/product")
        guard let vendor, let product else { return nil }
        return HATMatch(vendor: vendor, product: product)
    }

    func decodeCodec(_ node: YAMLNode) -> CodecConfig? {
        guard let node = reader.mapping(node, "codec", known: ["chip", "bus", "address", "mclk", "clock", "role", "control",
                                                               "mic-bias-mv", "mic-bias-kohm"])
        else { return nil }
        let chip = reader.choice(node, "chip", "codec", required: true, options: BoardFieldReader.options(CodecChip.self))
        let bus = reader.integer(node, "bus", "codec", required: false, range: 0...255, what: "an I2C bus number") ?? 1
        let address = reader.integer(node, "address", "codec", required: true, range: CodecConfig.addressRange,
                                     hex: true, what: "a 7-bit I2C address", hint: "for example 0x1a")
        let clock = reader.value(node, "mclk", "codec", required: true,
                                 hint: "the MCLK crystal in Hz, or bclk for a codec clocked from the bit clock")
            .flatMap(decodeClock)
            .flatMap { decodeClockKind(node, chip: chip, clock: $0) }
        let role = reader.choice(node, "role", "codec", required: false, options: Self.role) ?? .consumer
        let control = reader.choice(node, "control", "codec", required: false,
                                    options: BoardFieldReader.options(CodecControl.self)) ?? .appliance
        let micBias = decodeMicBias(node, chip: chip)
        guard let chip, let address, let clock else { return nil }
        return CodecConfig(chip: chip, bus: bus, address: address, clock: clock, role: role, control: control,
                           micBias: micBias)
    }

    /// `mic-bias-mv` and `mic-bias-kohm`, as the kernel's sgtl5000 device-tree properties
    /// `micbias-voltage-m-volts` (1250...3000 in 250 mV steps) and `micbias-resistor-k-ohms` (2, 4, 8); either
    /// alone keeps the kernel's default for the other (1250 mV, 4 kOhm).
    func decodeMicBias(_ node: YAMLNode, chip: CodecChip?) -> SGTL5000MicBias? {
        let voltageNode = node["mic-bias-mv"], resistorNode = node["mic-bias-kohm"]
        guard voltageNode != nil || resistorNode != nil else { return nil }
        if let chip, !chip.hasAdjustableMicBias {
            let key = voltageNode != nil ? "mic-bias-mv" : "mic-bias-kohm"
            reader.report((voltageNode ?? resistorNode)?.line ?? node.line, "codec.\(key)",
                          "the \(chip.displayName)'s mic bias is not programmable", hint: "remove it")
            return nil
        }
        let voltages = SGTL5000MicBias.voltages, resistors = SGTL5000MicBias.resistors
        var millivolts: Int? = SGTL5000MicBias.kernelDefault.millivolts
        var kilohms: Int? = SGTL5000MicBias.kernelDefault.kilohms
        if let voltageNode {
            millivolts = reader.integer(voltageNode, "codec.mic-bias-mv", range: voltages[0]...voltages[voltages.count - 1])
            if let value = millivolts, !voltages.contains(value) {
                reader.report(voltageNode.line, "codec.mic-bias-mv", "\(value) mV is not a bias the chip makes",
                              hint: "1250...3000 in steps of 250")
                millivolts = nil
            }
        }
        if let resistorNode {
            kilohms = reader.integer(resistorNode, "codec.mic-bias-kohm", range: 1...8)
            if let value = kilohms, !resistors.contains(value) {
                reader.report(resistorNode.line, "codec.mic-bias-kohm", "\(value) kOhm is not a bias resistor the chip has",
                              hint: "2, 4 or 8")
                kilohms = nil
            }
        }
        guard let millivolts, let kilohms else { return nil }
        return SGTL5000MicBias(millivolts: millivolts, kilohms: kilohms)
    }

    func decodeClock(_ node: YAMLNode) -> CodecClockSource? {
        if node.scalarText == "bclk" { return .bclk }
        if case .scalar(let text, .plain) = node.content, BoardFieldReader.parseInteger(text) == nil {
            reader.report(node.line, "codec.mclk", "'\(text)' is neither a frequency nor a clock source",
                          hint: "the MCLK in Hz such as 12288000, or bclk")
            return nil
        }
        guard let hertz = reader.integer(node, "codec.mclk", range: CodecClockSource.mclkRange) else { return nil }
        return .mclk(hertz)
    }

    /// `clock: crystal` or `clock: mclk`: what makes the MCLK frequency. A crystal needs the codec's own
    /// oscillator, so it is refused for chips without one; a chip that has one must say which it is, because
    /// the driver powers its oscillator only for a crystal.
    func decodeClockKind(_ node: YAMLNode, chip: CodecChip?, clock: CodecClockSource) -> CodecClockSource? {
        let kinds: [(String, String)] = [("crystal", "crystal"), ("mclk", "mclk")]
        guard let hertz = clock.hertz else {
            if let entry = node.entries?.first(where: { $0.key == "clock" }) {
                reader.report(entry.keyMark.line, "codec.clock", "only used with an MCLK frequency (mclk: bclk has none)")
            }
            return clock
        }
        guard let kindNode = node["clock"] else {
            if let chip, chip.hasCrystalOscillator {
                reader.report(node["mclk"]?.line ?? node.line, "codec.clock",
                              "the \(chip.displayName) runs from a crystal on XTI/XTO or from a clock on MCLK: say which",
                              hint: "clock: crystal or clock: mclk")
                return nil
            }
            return clock
        }
        guard let kind = reader.choice(kindNode, "codec.clock", options: kinds) else { return nil }
        if kind == "crystal", let chip, !chip.hasCrystalOscillator {
            reader.report(kindNode.line, "codec.clock", "the \(chip.displayName) has no crystal oscillator",
                          hint: "an oscillator drives its MCLK pin: clock: mclk")
            return nil
        }
        return kind == "crystal" ? .crystal(hertz) : clock
    }

    func decodePCM(_ node: YAMLNode) -> PCMNames? {
        guard let node = reader.mapping(node, "pcm", known: ["playback", "capture"]) else { return nil }
        let playback = reader.string(node, "playback", "pcm", required: true, hint: "an ALSA PCM name such as hw:CARD=x,DEV=0")
        let capture = reader.string(node, "capture", "pcm", required: false)
        guard let playback else { return nil }
        return PCMNames(playback: playback, capture: capture)
    }

    /// The I2S frame: `slots` and `slot-width` (default 2 x 32 bits, what the overlay pins), or `bit-clock` for
    /// a codec that runs BCLK at a fixed frequency (the WM8731 in USB mode: its 12 MHz clock).
    func decodeI2S(_ node: YAMLNode) -> I2SFrame {
        guard let node = reader.mapping(node, "i2s", known: ["slots", "slot-width", "bit-clock"]) else { return .standard }
        if node["bit-clock"] != nil {
            for key in ["slots", "slot-width"] {
                if let entry = node.entries?.first(where: { $0.key == key }) {
                    reader.report(entry.keyMark.line, "i2s.\(key)", "not used with bit-clock: a fixed bit clock sets the frame")
                }
            }
            let hertz = reader.integer(node, "bit-clock", "i2s", required: true, range: CodecClockSource.mclkRange,
                                       hint: "the codec's fixed BCLK in Hz, such as 12000000")
            return hertz.map { .fixedBitClock(hertz: $0) } ?? .standard
        }
        let slots = reader.integer(node, "slots", "i2s", required: false, range: 2...2, what: "a slot count",
                                   hint: "2: a stereo I2S frame") ?? 2
        let width = reader.integer(node, "slot-width", "i2s", required: false, range: 16...32, what: "a slot width",
                                   hint: "bits per slot, 16...32; 32 carries 16- and 24-bit samples alike") ?? 32
        return .slots(count: slots, width: width)
    }

    func decodeGPIO(_ node: YAMLNode) -> GPIOChipChoice {
        guard let node = reader.mapping(node, "gpio", known: ["chip"]),
              let chip = reader.string(node, "chip", "gpio", required: false) else { return .raspberryPiHeader }
        return chip == "raspberry-pi-header" ? .raspberryPiHeader : .chip(GPIOChipSelector(chip))
    }

    /// `none`, `codec`, or a mapping with `source: gpio` and the line's settings.
    func decodeDetection(_ node: YAMLNode, _ field: String) -> DetectionSource {
        let sources: [(String, String)] = [("none", "none"), ("gpio", "gpio"), ("codec", "codec")]
        if node.scalarText != nil {
            switch reader.choice(node, field, options: sources) {
            case "codec": return .codecStatus
            case "gpio": reader.report(node.line, field, "a gpio source needs its line", hint: "write source: gpio and line: N below")
            default: break
            }
            return .none
        }
        guard let node = reader.mapping(node, field, known: ["source", "line", "active", "bias", "debounce-ms"]),
              let source = reader.choice(node, "source", field, required: true, options: sources) else { return .none }
        if source != "gpio" {
            for key in ["line", "active", "bias", "debounce-ms"] {
                if let entry = node.entries?.first(where: { $0.key == key }) {
                    reader.report(entry.keyMark.line, "\(field).\(key)", "only used with source: gpio")
                }
            }
            return source == "codec" ? .codecStatus : .none
        }
        guard let input = decodeInputLine(node, field, defaultDebounce: DetectionSource.defaultDebounceMilliseconds)
        else { return .none }
        return .gpio(input)
    }

    func decodeInputLine(_ node: YAMLNode, _ field: String, defaultDebounce: Int) -> GPIOInputLine? {
        let line = reader.integer(node, "line", field, required: true, range: GPIOChipChoice.otherChipLines,
                                  hint: "the GPIO line offset (BCM number on the Pi header)")
        let active = reader.choice(node, "active", field, required: false,
                                   options: BoardFieldReader.options(ActiveLevel.self)) ?? .low
        let bias = reader.choice(node, "bias", field, required: false, options: Self.bias)
            ?? GPIOInputLine.defaultBias(for: active)
        let debounce = reader.integer(node, "debounce-ms", field, required: false,
                                      range: GPIOInputLine.debounceRange) ?? defaultDebounce
        guard let line else { return nil }
        return GPIOInputLine(line: line, active: active, bias: bias, debounceMilliseconds: debounce)
    }

    func decodeButtons(_ node: YAMLNode) -> [ButtonConfig] {
        guard let items = list(node, "buttons") else { return [] }
        return items.enumerated().compactMap { index, item in
            let field = "buttons[\(index)]"
            guard let item = reader.mapping(item, field, known: ["name", "line", "active", "bias", "debounce-ms", "role",
                                                                 "multi-click-ms", "hold-ms", "repeat-ms"])
            else { return nil }
            let name = reader.string(item, "name", field, required: true)
            let input = decodeInputLine(item, field, defaultDebounce: ButtonConfig.defaultDebounceMilliseconds)
            let role = reader.choice(item, "role", field, required: false,
                                     options: BoardFieldReader.options(ButtonRole.self)) ?? .custom
            let multiClick = reader.integer(item, "multi-click-ms", field, required: false, range: ButtonConfig.multiClickRange,
                                            hint: "from a release to the next press of a double click")
                ?? ButtonConfig.defaultMultiClickMilliseconds
            let hold = reader.integer(item, "hold-ms", field, required: false, range: ButtonConfig.holdRange,
                                      hint: "how long a press lasts before it is a hold") ?? ButtonConfig.defaultHoldMilliseconds
            let repeatTime = reader.integer(item, "repeat-ms", field, required: false, range: ButtonConfig.repeatRange,
                                            hint: "between repeats while held") ?? ButtonConfig.defaultRepeatMilliseconds
            guard let name, let input else { return nil }
            return ButtonConfig(name: name, input: input, role: role, multiClickMilliseconds: multiClick,
                                holdMilliseconds: hold, repeatMilliseconds: repeatTime)
        }
    }

    /// `encoders:` items: name, line-a, line-b, optional active, bias and role.
    func decodeEncoders(_ node: YAMLNode) -> [EncoderConfig] {
        guard let items = list(node, "encoders") else { return [] }
        return items.enumerated().compactMap { index, item in
            let field = "encoders[\(index)]"
            guard let item = reader.mapping(item, field, known: ["name", "line-a", "line-b", "active", "bias", "role"])
            else { return nil }
            let name = reader.string(item, "name", field, required: true)
            let lineA = reader.integer(item, "line-a", field, required: true, range: GPIOChipChoice.otherChipLines,
                                       hint: "channel A's GPIO line (A leads B clockwise)")
            let lineB = reader.integer(item, "line-b", field, required: true, range: GPIOChipChoice.otherChipLines,
                                       hint: "channel B's GPIO line")
            let active = reader.choice(item, "active", field, required: false,
                                       options: BoardFieldReader.options(ActiveLevel.self)) ?? .low
            let bias = reader.choice(item, "bias", field, required: false, options: Self.bias)
            let role = reader.choice(item, "role", field, required: false,
                                     options: BoardFieldReader.options(EncoderRole.self)) ?? .volume
            guard let name, let lineA, let lineB else { return nil }
            return EncoderConfig(name: name, lineA: lineA, lineB: lineB, active: active, bias: bias, role: role)
        }
    }

    func decodeAmplifier(_ node: YAMLNode) -> AmplifierConfig? {
        guard let node = reader.mapping(node, "amplifier", known: ["line", "control", "active"]) else { return nil }
        let line = reader.integer(node, "line", "amplifier", required: true, range: GPIOChipChoice.otherChipLines)
        let control = reader.choice(node, "control", "amplifier", required: true,
                                    options: BoardFieldReader.options(AmplifierControl.self))
        let active = reader.choice(node, "active", "amplifier", required: true,
                                   options: BoardFieldReader.options(ActiveLevel.self))
        guard let line, let control, let active else { return nil }
        return AmplifierConfig(line: line, active: active, control: control)
    }

    func decodeLEDs(_ node: YAMLNode) -> [LEDConfig] {
        guard let items = list(node, "leds") else { return [] }
        let gpioKeys = ["line", "active"], apaKeys = ["spi-bus", "chip-select", "count"]
        return items.enumerated().compactMap { index, item in
            let field = "leds[\(index)]"
            guard let item = reader.mapping(item, field, known: ["name", "kind"] + gpioKeys + apaKeys) else { return nil }
            let name = reader.string(item, "name", field, required: true)
            let kinds: [(String, String)] = [("gpio", "gpio"), ("apa102", "apa102")]
            guard let kind = reader.choice(item, "kind", field, required: true, options: kinds) else { return nil }
            for key in (kind == "gpio" ? apaKeys : gpioKeys) {
                if let entry = item.entries?.first(where: { $0.key == key }) {
                    reader.report(entry.keyMark.line, "\(field).\(key)", "only used with kind: \(kind == "gpio" ? "apa102" : "gpio")")
                }
            }
            let ledKind: LEDKind?
            if kind == "gpio" {
                let line = reader.integer(item, "line", field, required: true, range: GPIOChipChoice.otherChipLines)
                let active = reader.choice(item, "active", field, required: false,
                                           options: BoardFieldReader.options(ActiveLevel.self)) ?? .high
                ledKind = line.map { .gpio(line: $0, active: active) }
            } else {
                let bus = reader.integer(item, "spi-bus", field, required: false, range: LEDKind.spiBusRange) ?? 0
                let chipSelect = reader.integer(item, "chip-select", field, required: false,
                                                range: LEDKind.chipSelectRange) ?? 0
                let count = reader.integer(item, "count", field, required: true, range: LEDKind.apa102CountRange)
                ledKind = count.map { .apa102(bus: bus, chipSelect: chipSelect, count: $0) }
            }
            guard let name, let ledKind else { return nil }
            return LEDConfig(name: name, kind: ledKind)
        }
    }

    func decodeVolume(_ node: YAMLNode) -> VolumeLimits? {
        guard let node = reader.mapping(node, "volume", known: ["max-db", "default-db"]) else { return nil }
        let maximum = reader.number(node, "max-db", "volume", required: true, range: VolumeLimits.maximumRange, unit: "dB",
                                    hint: "the loudest the board may play, in dB")
        let standard = VolumeLimits.standardDefault(maximumDB: maximum ?? 0)
        let defaultDB = reader.number(node, "default-db", "volume", required: false, range: VolumeLimits.defaultRange,
                                      unit: "dB") ?? standard
        guard let maximum else { return nil }
        if defaultDB > maximum, let line = node["default-db"]?.line {
            reader.report(line, "volume.default-db", "\(BoardFieldReader.decimal(defaultDB)) dB is above max-db",
                          hint: "at most \(BoardFieldReader.decimal(maximum)) dB")
        }
        return VolumeLimits(maximumDB: maximum, defaultDB: defaultDB)
    }

    func decodeRoute(_ node: YAMLNode, defaults: DefaultRoute) -> DefaultRoute {
        guard let node = reader.mapping(node, "route", known: ["output", "input"]) else { return defaults }
        let output = reader.choice(node, "output", "route", required: false, options: Self.outputs) ?? defaults.output
        var input = defaults.input
        if let inputNode = reader.value(node, "input", "route", required: false),
           let chosen = reader.choice(inputNode, "route.input", options: Self.inputs) {
            input = chosen
        }
        return DefaultRoute(output: output, input: input)
    }

    /// A block or flow sequence.
    func list(_ node: YAMLNode, _ field: String) -> [YAMLNode]? {
        guard let items = node.items else {
            reader.report(node.line, field, "expected a list ('- ...' items), found \(node.kindName)")
            return nil
        }
        return items
    }
}
