import Board
import HAL

/// The LED that shows a take is being written, as field recorders light theirs: the board's LED named
/// "record", else its first GPIO LED (a board file that names no record LED still gets a visible one).
enum RecordLED {
    /// Which of `leds` the recorder drives; nil when the board has no suitable LED.
    static func name(in leds: [LEDConfig]) -> String? {
        if leds.contains(where: { $0.name == "record" }) { return "record" }
        return leds.first { led in if case .gpio = led.kind { true } else { false } }?.name
    }

    /// What the recorder calls with on/off: sets that LED (a failure is logged, never fatal to a take).
    static func driver(_ leds: BoardLEDs, log: ServiceLog) -> (Bool) -> Void {
        guard let name = name(in: leds.configs) else { return { _ in } }
        return { on in
            do { try leds.set(name, on: on) } catch { log.warning("record LED '\(name)': \(error)") }
        }
    }
}
