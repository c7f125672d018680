import HAL

/// A codec transcript for a person with the datasheet, a scope or a logic analyser: recipe by recipe, each
/// step's reason, then the transfers it made as register writes and the `i2ctransfer` lines that repeat
/// them; waits with their length; a total at the end.
struct CodecTranscriptReport: CustomStringConvertible {
    let transcript: CodecTranscript
    /// The bus and address the i2ctransfer lines name.
    let target: I2CTarget
    let layout: RegisterLayout

    var description: String {
        var lines: [String] = []
        var currentRecipe: String?
        var transfers = 0
        for entry in transcript.entries {
            if entry.recipe != currentRecipe {
                lines.append("\(entry.recipe):")
                currentRecipe = entry.recipe
            }
            if case .delay(let duration, _)? = entry.step {
                lines.append(annotated("  wait \(milliseconds(duration))", entry.reason))
                continue
            }
            if entry.step != nil && entry.exchanges.isEmpty {
                lines.append(annotated("  (no write: the register already holds it)", entry.reason))
            }
            for exchange in entry.exchanges {
                lines.append(annotated("  " + exchange.event.description(in: layout), entry.reason))
                lines.append("    i2ctransfer -y \(target.bus) " + exchange.wire.description(address: target.address))
                transfers += 1
            }
        }
        lines.append("\(transfers) transfer\(transfers == 1 ? "" : "s"), \(milliseconds(transcript.totalDelay)) of waits")
        return lines.joined(separator: "\n")
    }

    /// `text`, then the reason in a column of its own.
    private func annotated(_ text: String, _ reason: String) -> String {
        text.rightPadded(to: 39) + " ; " + reason
    }
}

/// `100 ms`, `0.5 ms`.
func milliseconds(_ duration: Duration) -> String {
    let (seconds, attoseconds) = duration.components
    let micro = seconds * 1_000_000 + attoseconds / 1_000_000_000_000
    return micro % 1000 == 0 ? "\(micro / 1000) ms" : "\(Double(micro) / 1000) ms"
}
