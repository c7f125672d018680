/// A magnitude response as a plain-ASCII chart that fits 80 columns: log frequency across (20 Hz–20 kHz,
/// one column per measured point), dB up the side, a dotted 0 dB line.
struct TerminalChart {
    let response: MeasuredResponse
    /// Width of the dB labels, including the axis character.
    static let labelWidth = 7

    func render() -> String {
        let columns = MeasuredResponse.points
        guard let low = response.gainsDB.min(), let high = response.gainsDB.max() else {
            return "(nothing to plot below the Nyquist frequency)"
        }
        // At least -1...+1 dB, so a flat response still gets a readable axis.
        let (bottom, top, step) = Self.axis(low: min(low, -1), high: max(high, 1))
        let rows = Int(((top - bottom) / step).rounded()) + 1
        // The row of each column's point (row 0 at the top), nil where nothing was measured.
        var rowOf = [Int?](repeating: nil, count: columns)
        for (frequency, gain) in zip(response.frequencies, response.gainsDB) {
            let column = min(columns - 1, max(0, Int(MeasuredResponse.fraction(of: frequency) * Double(columns))))
            rowOf[column] = Int(((top - gain) / step).rounded())
        }
        var grid = [[Character]](repeating: [Character](repeating: " ", count: columns), count: rows)
        let zeroRow = Int((top / step).rounded())
        if (0..<rows).contains(zeroRow) {
            for c in 0..<columns { grid[zeroRow][c] = "." }
        }
        for c in 0..<columns {
            guard let row = rowOf[c] else { continue }
            grid[row][c] = "*"
            // Join steep segments so the curve reads as a line.
            if c > 0, let previous = rowOf[c - 1], abs(previous - row) > 1 {
                let range = previous < row ? (previous + 1)..<row : (row + 1)..<previous
                for r in range { grid[r][c] = "*" }
            }
        }
        var lines: [String] = ["     dB"]
        for r in 0..<rows {
            let value = top - Double(r) * step
            let label = formatDecibelsLabel(value, step: step).leftPadded(to: Self.labelWidth - 2) + " |"
            lines.append(label + String(grid[r]))
        }
        let ticks: [(Double, String)] = [
            (20, "20"), (50, "50"), (100, "100"), (200, "200"), (500, "500"), (1000, "1k"), (2000, "2k"),
            (5000, "5k"), (10_000, "10k"), (20_000, "20k"),
        ]
        var axis = [Character](repeating: "-", count: columns)
        var labels = [Character](repeating: " ", count: columns + 1)
        for (frequency, text) in ticks {
            let column = min(columns - 1, Int((MeasuredResponse.fraction(of: frequency) * Double(columns)).rounded()))
            if column > 0 { axis[column] = "+" }   // the corner marks 20 Hz
            let start = max(0, min(labels.count - text.count, column - text.count / 2))
            for (i, character) in text.enumerated() { labels[start + i] = character }
        }
        lines.append(String(repeating: " ", count: Self.labelWidth - 1) + "+" + String(axis))
        lines.append("Hz".leftPadded(to: Self.labelWidth - 1) + " " + String(labels))
        return lines.joined(separator: "\n")
    }

    /// Bottom, top and step of the dB axis: a round step giving at most 17 rows.
    static func axis(low: Double, high: Double) -> (Double, Double, Double) {
        for step in [0.5, 1, 2, 3, 5, 6, 10, 12, 20] {
            let bottom = (low / step).rounded(.down) * step
            let top = (high / step).rounded(.up) * step
            if (top - bottom) / step + 1 <= 17 { return (bottom, top, step) }
        }
        let bottom = (low / 40).rounded(.down) * 40
        return (bottom, (high / 40).rounded(.up) * 40, 40)
    }

    func formatDecibelsLabel(_ value: Double, step: Double) -> String {
        let text = formatFixed(value, decimals: step < 1 ? 1 : 0)
        return value > 0 ? "+" + text : text
    }
}
