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

    /// The player's cue to pause (1.14, behaviour 1): the headphones it was playing through were pulled, so
    /// carrying on would play from the speaker. Not a microphone leaving a headset that stays plugged in.
    public func pulledHeadphones(current: AudioRoute) -> Bool {
        reason == .oldDeviceUnavailable && previousRoute.outputs.contains(.headphones) && !current.outputs.contains(.headphones)
    }

    public var description: String { "route change: \(reason), previous \(previousRoute)" }
}
