/// Number formatting for the console, without Foundation's locale machinery.

/// `value` rounded to `decimals` places ("1.41", "-0.50").
func formatFixed(_ value: Double, decimals: Int) -> String {
    var scale = 1.0
    for _ in 0..<decimals { scale *= 10 }
    let scaled = (abs(value) * scale).rounded()
    let negative = value < 0 && scaled != 0
    let whole = Int(scaled / scale)
    var text = "\(whole)"
    if decimals > 0 {
        let fraction = Int(scaled - Double(whole) * scale)
        let digits = "\(fraction)"
        text += "." + String(repeating: "0", count: decimals - digits.count) + digits
    }
    return negative ? "-" + text : text
}

/// "+5.0 dB", "-3.25 dB", "0.0 dB".
func formatDecibels(_ value: Double, decimals: Int) -> String {
    let text = formatFixed(value, decimals: decimals)
    let isZero = text.allSatisfy { $0 == "0" || $0 == "." || $0 == "-" }
    return (value > 0 && !isZero ? "+" : "") + (isZero ? formatFixed(0, decimals: decimals) : text) + " dB"
}

/// The shortest decimal that reads back as the same Double ("0.707", "1.4142135623730951", "31"): for values
/// a reader must be able to rebuild something from, such as a filter's Q. No exponent for the values printed here
/// (1e-4 ... 1e15); whole numbers without ".0".
func formatExact(_ value: Double) -> String {
    let text = "\(value)"
    return text.hasSuffix(".0") ? String(text.dropLast(2)) : text
}

/// "31 Hz", "1 kHz", "12.5 kHz", "28.3 Hz".
func formatHertz(_ value: Double) -> String {
    if value >= 1000 {
        let k = value / 1000
        let text = formatFixed(k, decimals: k == k.rounded() ? 0 : (k * 10 == (k * 10).rounded() ? 1 : 2))
        return text + " kHz"
    }
    let decimals = value == value.rounded() ? 0 : 1
    return formatFixed(value, decimals: decimals) + " Hz"
}

extension String {
    /// Right-aligned in `width` columns.
    func leftPadded(to width: Int) -> String {
        count >= width ? self : String(repeating: " ", count: width - count) + self
    }
}

extension String {
    /// Left-aligned in `width` columns.
    func rightPadded(to width: Int) -> String {
        count >= width ? self : self + String(repeating: " ", count: width - count)
    }
}
