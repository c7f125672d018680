/// A magnitude response as a standalone SVG: log frequency axis 20 Hz–20 kHz with decade grid lines,
/// a dB axis, and the measured points joined by a polyline.
struct SVGPlot {
    let response: MeasuredResponse
    let title: String

    static let width = 800.0
    static let height = 420.0
    static let left = 60.0, right = 20.0, top = 40.0, bottom = 50.0

    func render() -> String {
        let plotWidth = Self.width - Self.left - Self.right
        let plotHeight = Self.height - Self.top - Self.bottom
        let low = min(response.gainsDB.min() ?? 0, -1), high = max(response.gainsDB.max() ?? 0, 1)
        let (dBBottom, dBTop, step) = TerminalChart.axis(low: low, high: high)
        func x(_ frequency: Double) -> Double { Self.left + MeasuredResponse.fraction(of: frequency) * plotWidth }
        func y(_ dB: Double) -> Double { Self.top + (dBTop - dB) / (dBTop - dBBottom) * plotHeight }

        var svg: [String] = []
        svg.append("<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"\(Int(Self.width))\" height=\"\(Int(Self.height))\" "
            + "viewBox=\"0 0 \(Int(Self.width)) \(Int(Self.height))\" font-family=\"sans-serif\" font-size=\"12\">")
        svg.append("<title>\(escape(title))</title>")
        svg.append("<rect width=\"100%\" height=\"100%\" fill=\"white\"/>")
        svg.append("<text x=\"\(Self.left)\" y=\"24\" font-size=\"15\">\(escape(title)): magnitude response measured through the 8.24 EQ</text>")
        // Frequency grid.
        let ticks: [(Double, String)] = [
            (20, "20"), (50, "50"), (100, "100"), (200, "200"), (500, "500"), (1000, "1k"), (2000, "2k"),
            (5000, "5k"), (10_000, "10k"), (20_000, "20k"),
        ]
        for (frequency, label) in ticks {
            let px = fmt(x(frequency))
            svg.append("<line x1=\"\(px)\" y1=\"\(fmt(Self.top))\" x2=\"\(px)\" y2=\"\(fmt(Self.top + plotHeight))\" stroke=\"#ddd\"/>")
            svg.append("<text x=\"\(px)\" y=\"\(fmt(Self.top + plotHeight + 18))\" text-anchor=\"middle\">\(label)</text>")
        }
        svg.append("<text x=\"\(fmt(Self.left + plotWidth / 2))\" y=\"\(fmt(Self.height - 8))\" text-anchor=\"middle\">Hz</text>")
        // dB grid.
        var level = dBBottom
        while level <= dBTop + 1e-9 {
            let py = fmt(y(level))
            let colour = level == 0 ? "#888" : "#ddd"
            svg.append("<line x1=\"\(fmt(Self.left))\" y1=\"\(py)\" x2=\"\(fmt(Self.left + plotWidth))\" y2=\"\(py)\" stroke=\"\(colour)\"/>")
            let text = formatFixed(level, decimals: step < 1 ? 1 : 0)
            svg.append("<text x=\"\(fmt(Self.left - 8))\" y=\"\(py)\" text-anchor=\"end\" dominant-baseline=\"middle\">\(level > 0 ? "+" : "")\(text)</text>")
            level += step
        }
        svg.append("<text x=\"16\" y=\"\(fmt(Self.top + plotHeight / 2))\" transform=\"rotate(-90 16 \(fmt(Self.top + plotHeight / 2)))\" text-anchor=\"middle\">dB</text>")
        svg.append("<rect x=\"\(fmt(Self.left))\" y=\"\(fmt(Self.top))\" width=\"\(fmt(plotWidth))\" height=\"\(fmt(plotHeight))\" fill=\"none\" stroke=\"#444\"/>")
        let points = zip(response.frequencies, response.gainsDB).map { "\(fmt(x($0))),\(fmt(y($1)))" }
        svg.append("<polyline fill=\"none\" stroke=\"#1f5fbf\" stroke-width=\"2\" points=\"\(points.joined(separator: " "))\"/>")
        svg.append("</svg>")
        return svg.joined(separator: "\n") + "\n"
    }

    func fmt(_ value: Double) -> String { formatFixed(value, decimals: 1) }

    func escape(_ text: String) -> String {
        var out = ""
        for character in text {
            switch character {
            case "&": out += "&amp;"
            case "<": out += "&lt;"
            case ">": out += "&gt;"
            case "\"": out += "&quot;"
            default: out.append(character)
            }
        }
        return out
    }
}
