import HAL

/// The checks that span fields: a route the chip cannot take, a line used twice or one that belongs to the
/// audio interface, a clock the chip cannot run from. Field-level errors are already reported by then.
struct BoardConsistency {
    let reader: BoardFieldReader
    let root: YAMLNode

    /// Pins of the Pi header that carry the audio itself: PCM_CLK, PCM_FS, PCM_DIN, PCM_DOUT.
    static let i2sLines: [Int: String] = [18: "I2S BCLK", 19: "I2S LRCLK", 20: "I2S data in", 21: "I2S data out"]
    /// I2C bus 1's SDA and SCL on the header.
    static let i2c1Lines: [Int: String] = [2: "I2C1 SDA", 3: "I2C1 SCL"]
    /// SPI0's MOSI and SCLK, which an APA102 chain on bus 0 takes.
    static let spi0Lines: [Int: String] = [10: "SPI0 MOSI", 11: "SPI0 SCLK"]

    func check(_ board: BoardConfig) {
        checkCodec(board)
        checkRoutes(board)
        checkLines(board)
        checkNames(board.buttons.map(\.name), "buttons")
        checkNames(board.leds.map(\.name), "leds")
        checkNames(board.encoders.map(\.name), "encoders")
        checkGestures(board)
    }

    /// The shift button must be one of the buttons and have no role of its own (its presses only modify the
    /// others'); recording on hold needs a capture PCM.
    func checkGestures(_ board: BoardConfig) {
        if let shift = board.shift {
            if let button = board.buttons.first(where: { $0.name == shift }) {
                if button.role != .custom {
                    reader.report(line(["shift"]), "shift", "the shift button '\(shift)' has role \(button.role)",
                                  hint: "a shift button only modifies the others: give it role custom (or none)")
                }
            } else {
                let names = board.buttons.map(\.name)
                reader.report(line(["shift"]), "shift", "no button named '\(shift)'",
                              hint: names.isEmpty ? "add it under buttons" : "the buttons are: \(names.joined(separator: ", "))")
            }
        }
        if board.holdAction == .record, board.pcm.capture == nil {
            reader.report(line(["hold"]), "hold", "recording on hold needs a capture PCM", hint: "hold: seek, or add pcm.capture")
        }
    }

    /// The line of the node at `path` (keys and list indices), or of its nearest existing parent.
    func line(_ path: [Any]) -> Int {
        var node = root
        for step in path {
            let next: YAMLNode?
            if let key = step as? String { next = node[key] } else if let index = step as? Int {
                next = node.items.flatMap { index < $0.count ? $0[index] : nil }
            } else { next = nil }
            guard let next else { break }
            node = next
        }
        return node.line
    }

    func checkCodec(_ board: BoardConfig) {
        let chip = board.codec.chip
        if !chip.addresses.contains(board.codec.address) {
            let valid = chip.addresses.map(BoardFieldReader.hex).joined(separator: ", ")
            reader.report(line(["codec", "address"]), "codec.address",
                          "the \(chip) does not answer on \(BoardFieldReader.hex(board.codec.address))",
                          hint: "its strap pins allow \(valid)")
        }
        if board.codec.clock == .bclk, !chip.canClockFromBCLK {
            reader.report(line(["codec", "mclk"]), "codec.mclk", "the \(chip) cannot run from BCLK",
                          hint: "give its MCLK crystal in Hz")
        }
        if board.codec.clock.isCrystal, board.codec.role == .consumer {
            // A slave codec needs BCLK and LRCLK in a fixed phase with its MCLK (its sibling WM8734's datasheet,
            // "Digital audio interface": it "relies on controlled phase relationships between audio interface
            // BCLK, DACLRC and the master MCLK"); the Pi's clocks know nothing of a crystal on the HAT, which is
            // why the Audio Injector's machine driver makes the codec the provider (CBM_CFM).
            reader.report(line(["codec", "clock"]), "codec.clock",
                          "a codec on its own crystal must drive BCLK and LRCLK: the Pi's clocks cannot keep phase with it",
                          hint: "role: provider")
        }
        checkFrame(board)
    }

    /// A fixed bit clock is what a WM8731 in USB mode makes as provider (BCLK = its 12 MHz clock, the Audio
    /// Injector's audioinjector-pi-soundcard.c bclk_ratio 250 at 48 kHz); every other codec clocks slots, and
    /// that WM8731 clocks nothing else.
    func checkFrame(_ board: BoardConfig) {
        let codec = board.codec
        let usbMode = codec.chip == .wm8731 && codec.clock.hertz == WM8731ClockPlan.usbModeClock && codec.role == .provider
        switch board.i2s {
        case .fixedBitClock(let hertz):
            if !usbMode || hertz != codec.clock.hertz {
                reader.report(line(["i2s", "bit-clock"]), "i2s.bit-clock",
                              "only a WM8731 providing the clocks in USB mode (12 MHz) makes a fixed bit clock, equal to its MCLK",
                              hint: "remove bit-clock; give slots and slot-width")
            }
        case .slots:
            if usbMode {
                reader.report(root["i2s"] != nil ? line(["i2s"]) : line(["codec", "clock"]), "i2s",
                              "a WM8731 providing the clocks from 12 MHz (USB mode) drives BCLK at 12 MHz, not in slots",
                              hint: "write i2s: bit-clock: 12000000")
            }
        }
    }

    func checkRoutes(_ board: BoardConfig) {
        let chip = board.codec.chip
        let outputs = chip.outputs.map(\.rawValue).joined(separator: ", ")
        if board.pcm.capture != nil, !chip.hasCapture {
            reader.report(line(["pcm", "capture"]), "pcm.capture", "the \(chip) has no inputs",
                          hint: "remove capture: it is a DAC only")
        }
        if !chip.outputs.contains(board.route.output) {
            reader.report(line(["route", "output"]), "route.output", "the \(chip) has no \(board.route.output) output",
                          hint: "it has: \(outputs)")
        }
        if let input = board.route.input {
            if !chip.inputs.contains(input) {
                let inputs = chip.inputs.map(\.rawValue) + ["none"]
                reader.report(line(["route", "input"]), "route.input", "the \(chip) has no \(input) input",
                              hint: "it has: \(inputs.joined(separator: ", "))")
            } else if board.pcm.capture == nil {
                reader.report(line(["route", "input"]), "route.input", "\(input) needs a capture PCM",
                              hint: "add pcm.capture, or write input: none")
            }
        }
        if board.microphone != .none, !chip.hasCapture {
            reader.report(line(["microphone"]), "microphone", "the \(chip) has no inputs to detect a microphone for",
                          hint: "remove microphone")
        }
        for (field, source) in [("jack", board.jack), ("microphone", board.microphone)] where source == .codecStatus {
            if !chip.reportsJackStatus {
                reader.report(line([field, "source"]), "\(field).source", "the \(chip) has no readable jack status",
                              hint: "use source: gpio with the jack's switch line")
            }
        }
    }

    func checkLines(_ board: BoardConfig) {
        var uses: [(line: Int, field: String, fileLine: Int)] = []
        if let input = board.jack.gpioLine { uses.append((input.line, "jack.line", line(["jack", "line"]))) }
        if let input = board.microphone.gpioLine {
            uses.append((input.line, "microphone.line", line(["microphone", "line"])))
        }
        for (index, button) in board.buttons.enumerated() {
            uses.append((button.input.line, "buttons[\(index)].line", line(["buttons", index, "line"])))
        }
        for (index, encoder) in board.encoders.enumerated() {
            uses.append((encoder.lineA, "encoders[\(index)].line-a", line(["encoders", index, "line-a"])))
            uses.append((encoder.lineB, "encoders[\(index)].line-b", line(["encoders", index, "line-b"])))
        }
        if let amplifier = board.amplifier {
            uses.append((amplifier.line, "amplifier.line", line(["amplifier", "line"])))
        }
        for (index, led) in board.leds.enumerated() {
            if case .gpio(let gpio, _) = led.kind { uses.append((gpio, "leds[\(index)].line", line(["leds", index, "line"]))) }
        }
        var reserved: [Int: String] = [:]
        if board.gpioChip.isHeader {
            reserved.merge(Self.i2sLines) { a, _ in a }
            if board.codec.bus == 1 { reserved.merge(Self.i2c1Lines) { a, _ in a } }
            if board.leds.contains(where: { if case .apa102(0, _, _) = $0.kind { true } else { false } }) {
                reserved.merge(Self.spi0Lines) { a, _ in a }
            }
        }
        var seen: [Int: (field: String, fileLine: Int)] = [:]
        for use in uses {
            if board.gpioChip.isHeader, !GPIOChipChoice.headerLines.contains(use.line) {
                reader.report(use.fileLine, use.field, "GPIO\(use.line) is not on the Raspberry Pi header",
                              hint: "0...27, or name the chip under gpio.chip")
            } else if let purpose = reserved[use.line] {
                reader.report(use.fileLine, use.field, "GPIO\(use.line) is the \(purpose) pin",
                              hint: "pick a free line")
            } else if let first = seen[use.line] {
                reader.report(use.fileLine, use.field, "GPIO\(use.line) is already used by \(first.field)",
                              hint: "line \(first.fileLine)")
            } else {
                seen[use.line] = (use.field, use.fileLine)
            }
        }
    }

    func checkNames(_ names: [String], _ field: String) {
        var seen: [String: Int] = [:]
        for (index, name) in names.enumerated() {
            if let first = seen[name] {
                reader.report(line([field, index, "name"]), "\(field)[\(index)].name", "'\(name)' is already the name of \(field)[\(first)]")
            } else {
                seen[name] = index
            }
        }
    }
}
