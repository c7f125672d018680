import HAL

/// The board's LEDs by the names its file gives them: GPIO LEDs on output lines, APA102 rings on SPI (a
/// simulated ring on the simulated board; on hardware not supported yet, and said so when used).
public final class BoardLEDs {
    /// What drives one LED.
    public enum Driver {
        case gpio(any GPIOOutputLine)
        case simulatedRing(SimulatedAPA102Ring)
        /// The LED is in the board file but the appliance cannot drive it yet: why.
        case unsupported(String)
    }

    /// What an LED shows.
    public enum State: Hashable, Sendable, CustomStringConvertible {
        case gpio(on: Bool)
        case ring([LEDColor])
        case unsupported(String)

        public var description: String {
            switch self {
            case .gpio(let on): on ? "on" : "off"
            case .ring(let pixels): pixels.map(\.description).joined(separator: " ")
            case .unsupported(let why): why
            }
        }
    }

    public let configs: [LEDConfig]
    private var drivers: [String: Driver] = [:]
    private var lit: [String: Bool] = [:]

    /// Requests every GPIO LED's line (off) and makes the simulated rings (dark) when `simulated`.
    public init(_ configs: [LEDConfig], gpio: BoardGPIO, simulated: Bool) throws(BoardDeviceError) {
        self.configs = configs
        for led in configs {
            switch led.kind {
            case .gpio(let line, let active):
                do {
                    let output = try gpio.controller.requestOutput(
                        .offset(line), on: gpio.chip, GPIOOutputConfig(initialValue: false, activeLow: active.isLow))
                    drivers[led.name] = .gpio(output)
                    lit[led.name] = false
                } catch {
                    throw .gpio(what: "LED '\(led.name)' on GPIO\(line)", error)
                }
            case .apa102(let bus, let chipSelect, let count):
                drivers[led.name] = simulated
                    ? .simulatedRing(SimulatedAPA102Ring(count: count))
                    : .unsupported("APA102 LEDs (/dev/spidev\(bus).\(chipSelect)) are not supported on hardware yet: "
                                   + "the appliance has no SPI driver, so LED '\(led.name)' stays dark")
            }
        }
    }

    public var names: [String] { configs.map(\.name) }

    /// The LED's driver, or a not-found error listing the board's LEDs.
    public func driver(_ name: String) throws(BoardDeviceError) -> Driver {
        guard let driver = drivers[name] else {
            let known = names.isEmpty ? "this board has none" : "this board has: " + names.joined(separator: ", ")
            throw .led("no LED '\(name)' on this board (\(known))")
        }
        return driver
    }

    /// Lights an LED (a ring: all of it, white) or puts it out.
    public func set(_ name: String, on: Bool) throws(BoardDeviceError) {
        try set(name, color: on ? .white : .off)
    }

    /// A GPIO LED is on for any colour but off; a ring shows the colour on every LED.
    public func set(_ name: String, color: LEDColor) throws(BoardDeviceError) {
        switch try driver(name) {
        case .gpio(let line):
            do {
                try line.setValue(!color.isOff)
            } catch {
                throw .gpio(what: "LED '\(name)'", error)
            }
            lit[name] = !color.isOff
        case .simulatedRing(let ring):
            ring.receive(APA102Frame.encode(Array(repeating: color, count: ring.count)))
        case .unsupported(let why):
            throw .led(why)
        }
    }

    /// Each LED of a ring its own colour (missing ones dark).
    public func set(_ name: String, pixels: [LEDColor]) throws(BoardDeviceError) {
        switch try driver(name) {
        case .gpio:
            throw .led("LED '\(name)' is a single GPIO LED, not a ring: set it on or off")
        case .simulatedRing(let ring):
            let padded = Array(pixels.prefix(ring.count)) + Array(repeating: .off, count: max(0, ring.count - pixels.count))
            ring.receive(APA102Frame.encode(padded))
        case .unsupported(let why):
            throw .led(why)
        }
    }

    /// What the LED shows now.
    public func state(_ name: String) throws(BoardDeviceError) -> State {
        switch try driver(name) {
        case .gpio: .gpio(on: lit[name] ?? false)
        case .simulatedRing(let ring): .ring(ring.pixels)
        case .unsupported(let why): .unsupported(why)
        }
    }

    /// One line per LED for `board`: `status: gpio GPIO26 active-high, off`.
    public var statusLines: [String] {
        configs.map { led in "\(led.name): \(led.kind), " + ((try? state(led.name))?.description ?? "?") }
    }
}
