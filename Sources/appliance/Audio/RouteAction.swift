import HAL

/// One thing the route policy wants done, in the order given; `AudioController` does the I/O.
enum RouteAction: Hashable, Sendable, CustomStringConvertible {
    /// Pause playback (the headphones it played through were pulled), before anything is re-routed.
    case pausePlayback
    /// Give `output` this level (before it is selected, so it never sounds at a stale level).
    case volume(CodecOutput, dB: Double)
    /// Switch the codec's output.
    case selectOutput(CodecOutput)
    /// Switch the speaker amplifier's control line.
    case amplifier(on: Bool)

    var description: String {
        switch self {
        case .pausePlayback: "pause playback"
        case .volume(let output, let dB): "\(output) at \(dB) dB"
        case .selectOutput(let output): "output \(output)"
        case .amplifier(let on): "amplifier \(on ? "on" : "off")"
        }
    }
}

/// Why `route speaker|headphones|auto` cannot be done now.
enum RouteRequestError: Error, Hashable, Sendable, CustomStringConvertible {
    case headphonesNotPlugged
    case noSpeaker(CodecOutput)

    var description: String {
        switch self {
        case .headphonesNotPlugged:
            "no headphones are plugged in: plug them in (or `jack in` on the simulated board), or use `route speaker`"
        case .noSpeaker(let main):
            "the board has no output besides the headphones to force (its main output is \(main))"
        }
    }
}
