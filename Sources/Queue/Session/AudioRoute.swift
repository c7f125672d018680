import HAL

/// The current route: the outputs sounding and, while the capture path is open, the input in use
/// (AVAudioSessionRouteDescription's outputs and inputs; a route has no input while no session records).
public struct AudioRoute: Hashable, Sendable, CustomStringConvertible {
    /// HAL's codec outputs: speaker (or line, on a board without a speaker) with nothing in the jack.
    public var outputs: [CodecOutput]
    /// HAL's codec inputs: the board's `microphone`, `line` in, or a headset's `headsetMicrophone`.
    public var inputs: [CodecInput]

    public init(outputs: [CodecOutput], inputs: [CodecInput] = []) {
        self.outputs = outputs
        self.inputs = inputs
    }

    public var description: String {
        "out: " + outputs.map(\.rawValue).joined(separator: "+") + (inputs.isEmpty ? "" : ", in: " + inputs.map(\.rawValue).joined(separator: "+"))
    }
}

/// Why the route changed (AVAudioSession.RouteChangeReason's cases that the appliance can cause).
public enum RouteChangeReason: String, Hashable, Sendable, CaseIterable, CustomStringConvertible {
    /// Something was plugged in: headphones, a headset (its microphone), a microphone on the jack.
    case newDeviceAvailable
    /// Something was pulled out: the player's cue to pause rather than carry on from the speaker.
    case oldDeviceUnavailable
    /// The active sessions' categories changed what the route needs (the capture path opened or closed).
    case categoryChange
    /// A session chose a port itself: output forced to the speaker, or a preferred input.
    case override
    /// The board woke from sleep with a different route.
    case wakeFromSleep

    public var description: String { rawValue }
}

/// A route-change notification: why, and the route before it. Listen-only: the current route is read
/// with `SessionCoordinator.currentRoute`; the change itself cannot be read or set.
public struct RouteChange: Hashable, Sendable, CustomStringConvertible {
    public var reason: RouteChangeReason
    public var previousRoute: AudioRoute

    public init(reason: RouteChangeReason, previousRoute: AudioRoute) {
        self.reason = reason
        self.previousRoute = previousRoute
    }

    public var description: String { "route change: \(reason), previous \(previousRoute)" }
}
