import ArgumentParser
import HAL

/// `appliance hal ...`: thin diagnostic commands that drive the HAL's real backends (GPIO character device,
/// i2c-dev, ALSA) one call at a time. Hidden from help: they exist for bring-up on a board and for the
/// system-test rig (image/system/), which runs them against kernel drivers that simulate the hardware.
struct HALCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "hal",
        abstract: "Drive the hardware layer directly (bring-up and system tests).",
        shouldDisplay: false,
        subcommands: [HALGPIOCommand.self, HALI2CCommand.self, HALPCMCommand.self]
    )
}

/// A HAL failure as one line: the typed error's own words, then its hint when it has one.
struct HALCommandError: Error, CustomStringConvertible {
    let description: String
    init(_ description: String) { self.description = description }
    init(_ error: PCMError) { description = "\(error.description); \(error.hint)" }
    init(_ error: some Error & CustomStringConvertible) { description = error.description }
}

/// Writes one line to standard output at once, unbuffered (the rig reads it while the command still runs).
func emit(_ line: String) {
    StandardStream.output.write(line + "\n")
}

/// Parses `0x1a`, `26` or `0b11010`.
func parseInteger(_ text: String) -> Int? {
    let lower = text.lowercased()
    if lower.hasPrefix("0x") { return Int(lower.dropFirst(2), radix: 16) }
    if lower.hasPrefix("0b") { return Int(lower.dropFirst(2), radix: 2) }
    return Int(lower)
}

/// `0x1A` style, with at least `digits` hex digits.
func hex(_ value: some BinaryInteger, digits: Int) -> String {
    let text = String(value, radix: 16, uppercase: true)
    return "0x" + String(repeating: "0", count: max(0, digits - text.count)) + text
}
