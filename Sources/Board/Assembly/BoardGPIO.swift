import HAL

/// The board's GPIO controller with the chip its lines are on and the clock their edges are stamped on:
/// `LinuxGPIO` on the system clock for a real board, `SimulatedGPIO` on a `ManualClock` for the simulated
/// one (with a pump to real time when it runs as the appliance). Buttons, jack, amplifier and LEDs all
/// request their lines here; `appliance buttons monitor` needs nothing more of the board.
public final class BoardGPIO: Sendable {
    public let controller: any GPIOController
    /// The chip the board file's line numbers are on.
    public let chip: GPIOChipSelector
    /// The clock GPIO edges, debouncing and gestures are timed on.
    public let clock: any MonotonicClock
    /// The simulated chip (nil on hardware): what presses buttons and plugs the jack.
    public let simulated: SimulatedGPIO?
    /// Brings the simulated chip's clock up to the system clock; nil on hardware and in manual timing.
    public let pump: SimulatedClockPump?

    /// The board's GPIO: simulated when `simulated`, else the kernel's chips through libgpiod.
    /// `chipMissing` (simulated only): the chip is not there, a fault for tests. A board that uses no line
    /// (`BoardConfig.withoutGPIO`) needs no chip: none is looked for.
    public init(config: BoardConfig, simulated: Bool, timing: BoardTiming, chipMissing: Bool = false) throws(BoardDeviceError) {
        let needsChip = !config.gpioLines.isEmpty
        guard simulated else {
            let gpio = LinuxGPIO()
            do {
                if needsChip {
                    chip = try config.gpioChip.selector(on: gpio)
                    _ = try gpio.chip(chip)     // there, now: one error naming the chip, not one per line
                } else {
                    chip = (try? config.gpioChip.selector(on: gpio)) ?? .label("none")
                }
            } catch {
                throw .gpio(what: "the GPIO chip (\(config.gpioChip))", error)
            }
            controller = gpio
            clock = SystemClock.shared
            self.simulated = nil
            pump = nil
            return
        }
        let manual: ManualClock
        switch timing {
        case .realTime: manual = ManualClock(start: SystemClock.shared.now)
        case .manual(let given): manual = given
        }
        if chipMissing && needsChip {
            throw .gpio(what: "the simulated GPIO chip", .chipNotFound(.label(Self.simulatedChip(for: config).label), available: []))
        }
        let gpio = SimulatedGPIO(clock: manual, chips: [Self.simulatedChip(for: config)])
        do {
            chip = try config.gpioChip.selector(on: gpio)
        } catch {
            throw .gpio(what: "the simulated GPIO chip", error)
        }
        controller = gpio
        clock = manual
        self.simulated = gpio
        if case .realTime = timing { pump = SimulatedClockPump(gpio: gpio) } else { pump = nil }
    }

    /// The simulated chip a board's lines fit on: the board file's label (`simulated` for the simulated
    /// board), or a Pi 4's header chip for a real board run on its twin.
    static func simulatedChip(for config: BoardConfig) -> SimulatedGPIO.Chip {
        let label: String
        switch config.gpioChip {
        case .raspberryPiHeader: label = GPIOChipChoice.headerLabels[1]
        case .chip(.label(let given)): label = given
        case .chip: label = SimulatedBoard.gpioChipLabel   // a gpiochip0 name or path finds the only chip too
        }
        let highest = config.gpioLines.max() ?? 0
        return SimulatedGPIO.Chip(label: label, lineCount: max(58, highest + 1))
    }

    /// The line `offset` on the board's chip, as edge events and debounced changes name it.
    public func lineID(_ offset: Int) throws(BoardDeviceError) -> GPIOLineID {
        do {
            return GPIOLineID(chip: try controller.chip(chip).name, offset: offset)
        } catch {
            throw .gpio(what: "GPIO\(offset)", error)
        }
    }

    /// Pumps the simulated clock to real time (no-op on hardware and in manual timing).
    public func pumpToRealTime() { pump?.pump() }
}

extension BoardConfig {
    /// Every GPIO line the board file uses.
    public var gpioLines: [Int] {
        var lines = [jack.gpioLine?.line, microphone.gpioLine?.line, amplifier?.line].compactMap { $0 }
        lines += buttons.map(\.input.line)
        lines += encoders.flatMap { [$0.lineA, $0.lineB] }
        for led in leds { if case .gpio(let line, _) = led.kind { lines.append(line) } }
        return lines
    }

    /// Whether this is a board without hardware: its GPIO chip is the simulated one (the simulated board).
    public var isSimulated: Bool { gpioChip == .chip(.label(SimulatedBoard.gpioChipLabel)) }
}
