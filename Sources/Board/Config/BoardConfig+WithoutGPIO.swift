import HAL

extension BoardConfig {
    /// The same board with nothing on GPIO lines: no buttons or encoders, no jack or microphone sensing on a
    /// line (a codec status register still senses), no amplifier enable line, no GPIO LEDs (an APA102 ring on
    /// SPI stays). What an appliance can still do when its GPIO chip is not there at start: play, record and
    /// answer its console, with the route where the board file puts it.
    public var withoutGPIO: BoardConfig {
        var board = self
        board.buttons = []
        board.shift = nil
        board.encoders = []
        if jack.gpioLine != nil { board.jack = .none }
        if microphone.gpioLine != nil { board.microphone = .none }
        board.amplifier = nil
        board.leds = leds.filter { if case .gpio = $0.kind { return false } else { return true } }
        return board
    }

    /// What `withoutGPIO` leaves out, for the one line that says so: `buttons, jack sensing, amplifier`.
    public var gpioUses: [String] {
        var uses: [String] = []
        if !buttons.isEmpty || !encoders.isEmpty { uses.append("buttons") }
        if jack.gpioLine != nil || microphone.gpioLine != nil { uses.append("jack sensing") }
        if amplifier != nil { uses.append("the amplifier (speaker silent)") }
        if leds.contains(where: { if case .gpio = $0.kind { return true } else { return false } }) { uses.append("LEDs") }
        return uses
    }
}

extension BoardDeviceError {
    /// The board's GPIO chip is not there (no such label, name or device node): the appliance can run
    /// without it (`BoardConfig.withoutGPIO`). A chip that is there but refuses (EACCES, a busy line) is not this.
    public var isGPIOChipMissing: Bool {
        guard case .gpio(_, let error) = self else { return false }
        switch error {
        case .chipNotFound: return true
        case .system(_, _, let errno): return errno == .noSuchFile || errno == .noDevice
        default: return false
        }
    }
}
