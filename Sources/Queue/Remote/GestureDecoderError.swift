import HAL

/// Why the gesture decoder refused a configuration or an edge.
public enum GestureDecoderError: Error, Hashable, Sendable, CustomStringConvertible {
    /// A timing is zero or negative, or `maxClicks` is outside 1...3.
    case invalidTiming(button: String, reason: String)
    /// Two buttons share a name or a line.
    case duplicateButton(String)
    /// An edge for a button (or GPIO line) the decoder was not given.
    case unknownButton(String)
    /// A press of a button already down, or a release of one already up: an edge was lost.
    case unexpectedEdge(button: String, pressed: Bool)

    public var description: String {
        switch self {
        case .invalidTiming(let button, let reason):
            "button \(button): \(reason)"
        case .duplicateButton(let name):
            "button \(name) is listed twice (by name or line): each button needs its own name and GPIO line"
        case .unknownButton(let name):
            "no button \(name) is decoded: add it to the decoder's buttons (the board file's buttons section)"
        case .unexpectedEdge(let button, let pressed):
            "button \(button) \(pressed ? "pressed while already down" : "released while already up"): "
                + "an edge was lost (check the line's debounce and event queue)"
        }
    }
}
