import ArgumentParser

/// The appliance's command line: the daemon and console come later; today it shows the DSP at work.
@main
struct Appliance: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "appliance",
        abstract: "Firmware for headless audio appliances on Raspberry Pi-class boards with an I2S codec HAT.",
        subcommands: [EQCommand.self]
    )
}
