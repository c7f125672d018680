/// Why jack detection could not start or read its signals.
public enum JackDetectorError: Error, Hashable, Sendable, CustomStringConvertible {
    /// Requesting a jack line failed.
    case gpio(signal: String, GPIOError)
    /// Reading the codec's status register failed.
    case statusRead(signal: String, I2CError)
    /// A signal comes from a source the detector was not given (no GPIO controller, no codec bus).
    case missingSource(signal: String, needs: String)

    public var description: String {
        switch self {
        case .gpio(let signal, let error): "jack \(signal) line: \(error)"
        case .statusRead(let signal, let error): "jack \(signal) status: \(error)"
        case .missingSource(let signal, let needs):
            "jack \(signal) is sensed through \(needs), but the board has none: check the board file's jack section"
        }
    }
}
