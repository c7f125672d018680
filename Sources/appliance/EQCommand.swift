import ArgumentParser

/// `appliance eq ...`: the EQ presets. (Being built: list and show.)
struct EQCommand: ParsableCommand {
    static let configuration = CommandConfiguration(commandName: "eq", abstract: "Show the EQ presets.")
}
