import ArgumentParser
import Codec8_24
import HAL

/// `appliance eq ...`: the EQ presets, listed, or shown with their bands and measured response.
struct EQCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "eq",
        abstract: "Show the EQ presets.",
        subcommands: [List.self, Show.self]
    )
}

extension EQCommand {
    /// `appliance eq list [--rate HZ]`
    struct List: ParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "List the presets with a one-line description and their pre-cut.")

        @Option(parsing: .unconditional, help: "Sample rate in Hz the pre-cut is computed for (8000...96000).")
        var rate: String = "48000"

        func run() throws {
            let sampleRate = try EQCommandError.parseSampleRate(rate)
            let width = EQPreset.all.map(\.name.count).max() ?? 0
            print("\(EQPreset.all.count) presets (pre-cut at \(formatHertz(sampleRate))):")
            for preset in EQPreset.all {
                let design = preset.design(sampleRate: sampleRate)
                let name = preset.name.rightPadded(to: width)
                let precut = formatDecibels(design.precutDB, decimals: 1).leftPadded(to: 8)
                print("  \(name)  \(precut)  \(preset.summary)")
            }
        }
    }

    /// `appliance eq show PRESET [--rate HZ] [--svg FILE]`
    struct Show: ParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Show a preset's bands, pre-cut and magnitude response measured through the 8.24 EQ.")

        @Argument(help: "The preset (case, spaces, hyphens and '&' do not matter: \"hip hop\", \"rnb\").")
        var preset: String

        @Option(parsing: .unconditional, help: "Sample rate in Hz (8000...96000).")
        var rate: String = "48000"

        @Option(help: "Also write the response as an SVG plot to this file.")
        var svg: String?

        func run() throws {
            let sampleRate = try EQCommandError.parseSampleRate(rate)
            guard let preset = EQPreset.named(preset) else { throw EQCommandError.unknownPreset(self.preset) }
            if let svg, let problem = AtomicFile.problem(writing: svg) {
                throw EQCommandError.cannotWrite(path: svg, reason: problem)
            }
            let design = preset.design(sampleRate: sampleRate)
            let response = MeasuredResponse(design: design)

            print("\(preset.name): \(preset.summary)")
            print(bandTable(design))
            print("Magnitude response at \(formatHertz(sampleRate)), pre-cut included, measured by playing sines")
            print("through the 8.24 fixed-point cascade:")
            print(TerminalChart(response: response).render())
            if let svg {
                let document = SVGPlot(response: response, title: "\(preset.name) at \(formatHertz(sampleRate))").render()
                do throws(SystemError) { try AtomicFile.write(Array(document.utf8), to: svg) } catch {
                    throw EQCommandError.cannotWrite(path: svg, reason: error.reason)
                }
                print("Wrote \(svg).")
            }
        }

        func bandTable(_ design: EQDesign) -> String {
            var lines: [String] = []
            let peak = "peak \(formatDecibels(design.peakGainDB, decimals: 2)) at \(formatHertz(design.peakFrequency))"
            lines.append("Pre-cut \(formatDecibels(design.precutDB, decimals: 1)) (\(peak)).")
            if design.bands.isEmpty {
                lines.append("No bands: the signal passes unchanged.")
                return lines.joined(separator: "\n")
            }
            // Frequency, Q and gain exactly as designed (the shortest decimals that read back as the same
            // numbers), so the response can be rebuilt from the table; two decimals made √2 read as 1.41.
            lines.append("   #  type        frequency                   Q       gain")
            for (index, band) in design.bands.enumerated() {
                let number = "\(index + 1)".leftPadded(to: 4)
                let type = band.type.shortName.rightPadded(to: 10)
                let frequency = (formatExact(band.frequency) + " Hz").leftPadded(to: 11)
                let q = formatExact(band.q).leftPadded(to: 20)
                let gain = band.type.usesGain ? (band.gainDB > 0 ? "+" : "") + "\(band.gainDB) dB" : "-"
                lines.append("\(number)  \(type)\(frequency)\(q)\(gain.leftPadded(to: 11))")
            }
            return lines.joined(separator: "\n")
        }
    }
}
