import ArgumentParser
import HAL

/// The appliance's command line: `run` is the recorder/player itself; the others are one-shot tools.
@main
struct Appliance: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "appliance",
        abstract: "Firmware for headless audio appliances on Raspberry Pi-class boards with an I2S codec HAT.",
        subcommands: [EQCommand.self, InfoCommand.self, ConvertCommand.self, RenderCommand.self, BoardCommand.self,
                      CodecCommand.self, HALCommand.self, SoundsCommand.self, PlayCommand.self, RunCommand.self,
                      ButtonsCommand.self, CtlCommand.self]
    )

    /// Runs the command; a mistake gets one line on stderr (what is wrong, and where to look) and a non-zero
    /// exit status. `--help` still prints the full help.
    static func main() {
        do {
            var command = try parseAsRoot()
            // After the parse, so a usage mistake is told as one whatever runs beside it.
            if let refusal = DaemonGuard.refusal(for: Array(CommandLine.arguments.dropFirst())) {
                writeToStandardError("appliance: \(refusal)\n")
                CurrentProcess.exit(1)
            }
            try command.run()
        } catch {
            let status = exitCode(for: error)
            if status == .success {
                print(fullMessage(for: error))
                CurrentProcess.exit(0)
            }
            writeToStandardError("appliance: \(oneLine(for: error))\n")
            CurrentProcess.exit(status.rawValue)
        }
    }

    /// ArgumentParser's message cut to its first line, with the help command its usage text points to.
    static func oneLine(for error: Error) -> String {
        let message = message(for: error).split(separator: "\n").first.map(String.init) ?? "\(error)"
        let full = fullMessage(for: error)
        guard let see = full.firstRange(of: "See '"), let end = full[see.upperBound...].firstRange(of: "'") else {
            return message
        }
        return "\(message) (see '\(full[see.upperBound..<end.lowerBound])')"
    }
}
