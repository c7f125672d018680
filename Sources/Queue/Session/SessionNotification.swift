/// What a session is told (AVAudioSession's interruption and route-change notifications).
public enum SessionNotification: Hashable, Sendable, CustomStringConvertible {
    /// The session's audio has already been stopped; it is no longer active.
    case interruptionBegan
    /// The interrupter finished normally: the session may activate again. `shouldResume`: the interrupter
    /// says it is fine to resume at once (AVAudioSession's ShouldResume option); otherwise wait for the user.
    case interruptionEnded(shouldResume: Bool)
    case routeChanged(RouteChange)

    public var description: String {
        switch self {
        case .interruptionBegan: "interruption began"
        case .interruptionEnded(let shouldResume): "interruption ended\(shouldResume ? " (should resume)" : "")"
        case .routeChanged(let change): "\(change)"
        }
    }
}
