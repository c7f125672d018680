import Codec8_24

/// What `appliance eq` reports when it cannot do what was asked: one line, naming the problem.
/// `Appliance.main` prints it as `appliance: <description>` on stderr and exits with status 1.
enum EQCommandError: Error, CustomStringConvertible {
    case unknownPreset(String)
    case invalidSampleRate(String)
    case cannotWrite(path: String, reason: String)

    var description: String {
        switch self {
        case .unknownPreset(let name):
            let close = EQPreset.closeMatches(to: name).map(\.name)
            let suggestion = close.isEmpty ? "" : "; did you mean \(close.joined(separator: " or "))?"
            let valid = EQPreset.all.map(\.name).joined(separator: ", ")
            return "unknown preset '\(name)'\(suggestion) (valid presets: \(valid))"
        case .invalidSampleRate(let text):
            return "invalid sample rate '\(text)': give a number of Hz from 8000 to 96000 (for example 48000 or 44.1k)"
        case .cannotWrite(let path, let reason):
            return "cannot write SVG to '\(path)': \(reason)"
        }
    }

    static let sampleRates = 8000.0...96000.0

    /// "48000", "44100.0" or "44.1k", within 8000...96000 Hz.
    static func parseSampleRate(_ text: String) throws -> Double {
        var digits = Substring(text)
        var scale = 1.0
        if let last = digits.last, last == "k" || last == "K" {
            digits = digits.dropLast()
            scale = 1000
        }
        guard let value = Double(digits).map({ $0 * scale }), value.isFinite, sampleRates.contains(value) else {
            throw EQCommandError.invalidSampleRate(text)
        }
        return value
    }
}
